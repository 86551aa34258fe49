import { createMemoryLive, type LiveStore } from "@fleet/live";
import { describe, expect, it } from "vitest";
import { StateCache } from "./state-cache.js";

/** A memory store that counts whole-state reads. */
function counted(): { live: LiveStore; reads: () => number } {
  const live = createMemoryLive();
  let reads = 0;
  const getRuleStates: LiveStore["getRuleStates"] = (ids) => {
    reads += ids.length;
    return live.getRuleStates(ids);
  };
  return { live: { ...live, getRuleStates }, reads: () => reads };
}

describe("the rule state cache", () => {
  it("reads a state whole once, then only its fix while the store's fix is the one it keeps", async () => {
    const { live, reads } = counted();
    await live.changeRuleStates([{ deviceId: 1, set: { fix: 10, a1: { since: 5 } } }]);
    const cache = new StateCache({ live });
    expect((await cache.load([1, 2])).get(1)).toEqual({ fix: 10, a1: { since: 5 } });
    expect(reads()).toBe(1);
    // A device with no state stored has none, without a whole read.
    expect((await cache.load([2])).get(2)).toBeUndefined();
    expect(reads()).toBe(1);

    const kept = { fix: 20, a1: { since: 15 } };
    await live.changeRuleStates([{ deviceId: 1, set: { fix: 20, a1: { since: 15 } } }]);
    cache.remember(1, kept);
    expect((await cache.load([1])).get(1)).toBe(kept);
    expect(reads()).toBe(1);
  });

  it("reads a state again when another instance moved it (its fix differs) or it was deleted", async () => {
    const { live, reads } = counted();
    const cache = new StateCache({ live });
    cache.remember(1, { fix: 10, a1: { since: 5 } });
    await live.changeRuleStates([{ deviceId: 1, set: { fix: 30, a1: { since: 25 } } }]);
    expect((await cache.load([1])).get(1)).toEqual({ fix: 30, a1: { since: 25 } });
    expect(reads()).toBe(1);

    cache.remember(1, { fix: 30, a1: { since: 25 } });
    await live.deleteStates([1]);
    expect((await cache.load([1])).get(1)).toBeUndefined();
  });

  it("keeps at most its limit of devices, forgetting the longest unused first", async () => {
    const { live, reads } = counted();
    await live.changeRuleStates([1, 2, 3].map((deviceId) => ({ deviceId, set: { fix: deviceId } })));
    const cache = new StateCache({ live, maxDevices: 2 });
    for (const id of [1, 2, 3]) cache.remember(id, { fix: id });
    await cache.load([2, 3]);
    expect(reads()).toBe(0);
    await cache.load([1]);
    expect(reads()).toBe(1);
  });
});

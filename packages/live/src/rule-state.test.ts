import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LiveState } from "@fleet/contracts";
import { hasService, redisTest } from "@fleet/testkit";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryLive, createRedisLive, type LiveStore, type RuleState } from "./index.js";

interface Harness {
  store: LiveStore;
  cleanup(): Promise<void>;
}

function state(deviceId: number): LiveState {
  return {
    deviceId, positionId: deviceId * 1000, uniqueId: `imei-${deviceId}`, protocol: "osmand", latitude: 54.6872, longitude: 25.2797, altitude: 0, course: 0,
    speedKmh: 0, fixTime: 1_732_000_000_000, serverTime: 1_732_000_000_250, attributes: {}, movedAt: 1_731_999_990_000, odometerKm: 0, tail: [],
  };
}

/** Shaped like what the rules service keeps: per detector, per alert. */
function ruleState(deviceId: number): RuleState {
  return {
    "overspeed:12": { since: 1_732_000_000_000 + deviceId, maxKmh: 97.5 },
    "geofence:9": { inside: [3, 7] },
    driverCard: `D-${deviceId}`,
  };
}

/** The rule-state behaviour both live adapters must share; `make` gives each test a fresh, empty store. */
function ruleStateContract(name: string, make: () => Promise<Harness>) {
  describe(`live store rule states: ${name}`, () => {
    let h: Harness;
    beforeEach(async () => {
      h = await make();
    });
    afterEach(async () => {
      await h.cleanup();
    });

    it("round-trips several devices' states in one call, and leaves out devices without one", async () => {
      await h.store.changeRuleStates([1, 2, 3].map((deviceId) => ({ deviceId, set: ruleState(deviceId) })));
      const got = await h.store.getRuleStates([3, 404, 1, 2, 1]);
      expect([...got.keys()].sort()).toEqual([1, 2, 3]);
      for (const id of [1, 2, 3]) expect(got.get(id)).toEqual(ruleState(id));
      expect((await h.store.getRuleStates([])).size).toBe(0);
      expect((await h.store.getRuleStates([404])).size).toBe(0);
      await h.store.changeRuleStates([]);
    });

    it("sets the members a change names and removes those it unsets, leaving the others as they were", async () => {
      await h.store.changeRuleStates([{ deviceId: 1, set: ruleState(1) }]);
      await h.store.changeRuleStates([{ deviceId: 1, set: { driverCard: "D-2", fix: 5 }, unset: ["geofence:9", "never-there"] }]);
      expect((await h.store.getRuleStates([1])).get(1)).toEqual({ "overspeed:12": ruleState(1)["overspeed:12"], driverCard: "D-2", fix: 5 });
    });

    it("reads one member of each device's state, for the devices whose state has it", async () => {
      await h.store.changeRuleStates([
        { deviceId: 1, set: { fix: 1_732_000_000_000, ...ruleState(1) } },
        { deviceId: 2, set: ruleState(2) },
        { deviceId: 3, set: { fix: { at: 3 } } },
      ]);
      const got = await h.store.getRuleStateMember([1, 2, 3, 404, 1], "fix");
      expect([...got].sort(([a], [b]) => a - b)).toEqual([[1, 1_732_000_000_000], [3, { at: 3 }]]);
      expect((await h.store.getRuleStateMember([], "fix")).size).toBe(0);
    });

    it("deletes a device's state when a change leaves it no member (unset, or set to undefined), in the same call as writes", async () => {
      await h.store.changeRuleStates([1, 2, 3].map((deviceId) => ({ deviceId, set: ruleState(deviceId) })));
      await h.store.changeRuleStates([
        { deviceId: 1, set: {}, unset: Object.keys(ruleState(1)) },
        { deviceId: 2, set: { "overspeed:12": undefined, "geofence:9": undefined }, unset: ["driverCard"] },
        { deviceId: 4, set: ruleState(4) },
        { deviceId: 5, set: {}, unset: ["x"] },
      ]);
      expect([...(await h.store.getRuleStates([1, 2, 3, 4, 5])).keys()].sort()).toEqual([3, 4]);
    });

    it("deleteStates removes the devices' rule states too, and only theirs", async () => {
      await h.store.putStates([1, 2].map((id) => ({ state: state(id), userIds: [10] })));
      await h.store.changeRuleStates([1, 2, 3].map((deviceId) => ({ deviceId, set: ruleState(deviceId) })));
      await h.store.deleteStates([1, 3]);
      expect([...(await h.store.getRuleStates([1, 2, 3])).keys()]).toEqual([2]);
      expect([...(await h.store.getStates([1, 2])).keys()]).toEqual([2]);
    });

    it("keeps rule states apart from live states: neither write touches the other or the change index", async () => {
      await h.store.changeRuleStates([{ deviceId: 1, set: ruleState(1) }]);
      expect((await h.store.getStates([1])).size).toBe(0);
      expect((await h.store.changedSince(10, 0)).deviceIds).toEqual([]);
      // A rule state does not count as a live state: a state restored from history still lands.
      await h.store.restoreStates([{ state: state(1), userIds: [10] }]);
      await h.store.putStates([{ state: state(1), userIds: [10] }]);
      expect((await h.store.getStates([1])).get(1)).toEqual(state(1));
      expect((await h.store.getRuleStates([1])).get(1)).toEqual(ruleState(1));
    });

    it("returns copies: mutating what was put or what was read leaves the stored state as it was", async () => {
      const put = ruleState(1);
      await h.store.changeRuleStates([{ deviceId: 1, set: put }]);
      put.driverCard = "changed after put";
      const read = (await h.store.getRuleStates([1])).get(1)!;
      (read["geofence:9"] as { inside: number[] }).inside.push(99);
      read.extra = true;
      expect((await h.store.getRuleStates([1])).get(1)).toEqual(ruleState(1));
    });

    it("reads back what JSON gives on either adapter: undefined dropped, NaN as null, a Date as its string", async () => {
      const at = new Date(1_732_000_000_000);
      await h.store.changeRuleStates([{ deviceId: 1, set: { a: undefined, n: Number.NaN, at, list: [1, undefined] } }]);
      expect((await h.store.getRuleStates([1])).get(1)).toStrictEqual({ n: null, at: at.toISOString(), list: [1, null] });
    });

    it("fails a batch holding a member JSON cannot hold, writing none of it", async () => {
      await expect(h.store.changeRuleStates([{ deviceId: 1, set: ruleState(1) }, { deviceId: 2, set: { big: 1n } }])).rejects.toThrow();
      await expect(h.store.changeRuleStates([{ deviceId: 1, set: [] as unknown as RuleState }])).rejects.toThrow(TypeError);
      expect((await h.store.getRuleStates([1, 2])).size).toBe(0);
    });

    it("writes and reads 2,500 devices' states in one call each", async () => {
      const ids = Array.from({ length: 2500 }, (_, i) => i + 1);
      await h.store.changeRuleStates(ids.map((deviceId) => ({ deviceId, set: ruleState(deviceId) })));
      const got = await h.store.getRuleStates(ids);
      expect(got.size).toBe(2500);
      expect(got.get(2222)).toEqual(ruleState(2222));
    });
  });
}

ruleStateContract("memory", async () => {
  const store = createMemoryLive();
  return { store, cleanup: () => store.close() };
});

// Skips when no Redis answers on the test URL, as live.test.ts does.
describe.runIf(hasService("redis"))("redis", () => {
  ruleStateContract("redis", async () => {
    const t = redisTest("live-rules");
    const store = createRedisLive({ url: t.url, keyPrefix: t.keyPrefix });
    return {
      store,
      cleanup: async () => {
        await store.close();
        await t.cleanup();
      },
    };
  });

  describe("redis rule-state layout", () => {
    let t: ReturnType<typeof redisTest>;
    let raw: Redis;
    let store: LiveStore;
    let warnings: { obj: object; msg?: string }[];
    beforeEach(() => {
      t = redisTest("live-rules");
      raw = new Redis(t.url);
      warnings = [];
      store = createRedisLive({ url: t.url, keyPrefix: t.keyPrefix, logger: { warn: (obj, msg) => warnings.push({ obj, msg }) } });
    });
    afterEach(async () => {
      await store.close();
      await raw.quit();
      await t.cleanup();
    });

    it("keeps each device's rule state as a hash of member JSON under its own prefixed key, gone when no member is left", async () => {
      await store.changeRuleStates([{ deviceId: 1, set: ruleState(1) }]);
      const key = `${t.keyPrefix}live:rules:1`;
      const hash = await raw.hgetall(key);
      expect(Object.fromEntries(Object.entries(hash).map(([k, v]) => [k, JSON.parse(v)]))).toEqual(ruleState(1));
      await store.changeRuleStates([{ deviceId: 1, set: {}, unset: Object.keys(ruleState(1)) }]);
      expect(await raw.exists(key)).toBe(0);
    });

    it("reads a member that is not JSON as missing, keeping the state's others, without failing the batch or logging the value", async () => {
      await store.changeRuleStates([{ deviceId: 1, set: ruleState(1) }]);
      await raw.hset(`${t.keyPrefix}live:rules:1`, "driverCard", "{not json, card D-SECRET");
      await raw.hset(`${t.keyPrefix}live:rules:2`, "fix", "{not json");
      const got = await store.getRuleStates([1, 2]);
      expect([...got.keys()]).toEqual([1]);
      expect(got.get(1)).toEqual({ "overspeed:12": ruleState(1)["overspeed:12"], "geofence:9": ruleState(1)["geofence:9"] });
      expect((await store.getRuleStateMember([2], "fix")).size).toBe(0);
      expect(warnings.map((w) => (w.obj as { deviceId: number }).deviceId)).toEqual([1, 2]);
      expect(JSON.stringify(warnings)).not.toContain("SECRET");
      // The next write replaces it.
      await store.changeRuleStates([{ deviceId: 1, set: ruleState(1) }]);
      expect((await store.getRuleStates([1])).get(1)).toEqual(ruleState(1));
    });

    it("does not read a state an earlier version stored as one JSON string, nor fail on it", async () => {
      await raw.set(`${t.keyPrefix}live:rule:7`, JSON.stringify(ruleState(7)));
      expect((await store.getRuleStates([7])).size).toBe(0);
      await store.changeRuleStates([{ deviceId: 7, set: { fix: 1 } }]);
      expect((await store.getRuleStates([7])).get(7)).toEqual({ fix: 1 });
    });
  });
});

describe("memory store snapshot: rule states", () => {
  let dir: string;
  let snapshotPath: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "live-rules-"));
    snapshotPath = path.join(dir, "live.json");
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps rule states, and their deletions, across close and reopen at the same path", async () => {
    const first = createMemoryLive({ snapshotPath });
    await first.putStates([{ state: state(5), userIds: [1] }]);
    await first.changeRuleStates([5, 6, 7].map((deviceId) => ({ deviceId, set: ruleState(deviceId) })));
    await first.changeRuleStates([{ deviceId: 6, set: {}, unset: Object.keys(ruleState(6)) }]);
    await first.deleteStates([7]);
    await first.close();

    const second = createMemoryLive({ snapshotPath });
    const got = await second.getRuleStates([5, 6, 7]);
    expect([...got.keys()]).toEqual([5]);
    expect(got.get(5)).toEqual(ruleState(5));
    expect((await second.getStates([5])).get(5)).toEqual(state(5));
    await second.close();
  });

  it("saves at close when only rule states changed", async () => {
    const first = createMemoryLive({ snapshotPath });
    await first.changeRuleStates([{ deviceId: 5, set: ruleState(5) }]);
    await first.close();
    expect(JSON.parse(await readFile(snapshotPath, "utf8")).rules).toEqual([[5, ruleState(5)]]);
    const second = createMemoryLive({ snapshotPath });
    expect((await second.getRuleStates([5])).get(5)).toEqual(ruleState(5));
    await second.close();
  });

  it("loads a snapshot written before rule states were kept, in either older shape", async () => {
    const at = Date.now();
    await writeFile(snapshotPath, JSON.stringify({ states: [[5, state(5)]], changes: [[1, [[5, at]]]], clock: at }));
    const store = createMemoryLive({ snapshotPath });
    expect((await store.getStates([5])).get(5)).toEqual(state(5));
    expect((await store.changedSince(1, 0)).deviceIds).toEqual([5]);
    expect((await store.getRuleStates([5])).size).toBe(0);
    await store.close();

    await writeFile(snapshotPath, JSON.stringify([[5, JSON.stringify(state(5))]]));
    const oldest = createMemoryLive({ snapshotPath });
    expect((await oldest.getStates([5])).get(5)).toEqual(state(5));
    expect((await oldest.getRuleStates([5])).size).toBe(0);
    await oldest.close();
  });

  it("skips snapshot rule entries that are not a device id and an object, keeping the rest", async () => {
    const rules = [[5, ruleState(5)], [6, "text"], ["7", ruleState(7)], [8, [1]], [9, {}], "junk"];
    await writeFile(snapshotPath, JSON.stringify({ states: [], rules, changes: [], clock: 0 }));
    const store = createMemoryLive({ snapshotPath });
    const got = await store.getRuleStates([5, 6, 7, 8, 9]);
    expect([...got.keys()]).toEqual([5]);
    await store.close();
  });
});

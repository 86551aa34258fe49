import { describe, expect, it } from "vitest";
import type { LiveState } from "@fleet/contracts";
import { createMemoryLive, type LiveStore } from "@fleet/live";
import { liveStateCache } from "./live-states.js";

const state = (deviceId: number, positionId: number): LiveState => ({
  deviceId,
  positionId,
  uniqueId: `d${deviceId}`,
  protocol: "osmand",
  latitude: 54 + positionId / 1000,
  longitude: 25,
  altitude: 0,
  course: 0,
  speedKmh: 0,
  fixTime: positionId * 1000,
  serverTime: Date.now(),
  attributes: {},
  movedAt: 0,
  odometerKm: 0,
  tail: Array.from({ length: 10 }, (_, i) => ({ id: positionId * 100 + i, fixTime: positionId * 1000 - (10 - i), latitude: 54, longitude: 25 + i / 1000 })),
});

/** The live store, counting the devices whose states it is asked for, and able to hold an answer back. */
function counted(live: LiveStore) {
  const asked: number[][] = [];
  let nextGate: Promise<void> | undefined;
  const store: LiveStore = {
    ...live,
    async getStates(ids, tailMax) {
      asked.push([...ids]);
      const gate = nextGate;
      nextGate = undefined;
      const answer = await live.getStates(ids, tailMax);
      await gate;
      return answer;
    },
  };
  return {
    store,
    asked,
    /** Holds back the next read's answer (read at once) until the returned function is called. */
    holdNext() {
      let release!: () => void;
      nextGate = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
  };
}

/** Past the store clock's millisecond: a change in the same millisecond as a read is listed again by the next. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

const positions = (m: Map<number, LiveState>) => Object.fromEntries([...m].map(([id, s]) => [id, s.positionId]));

describe("the states cache of the whole-fleet lists", () => {
  it("reads only the states that changed since the user's last read", async () => {
    const live = createMemoryLive();
    await live.putStates([1, 2, 3].map((id) => ({ state: state(id, 10), userIds: [7] })));
    await tick();
    const c = counted(live);
    const cache = liveStateCache(c.store, { maxDevices: 100 });

    expect(positions(await cache.ofUser(7, [1, 2, 3, 4], 5))).toEqual({ 1: 10, 2: 10, 3: 10 });
    await tick();
    expect(positions(await cache.ofUser(7, [1, 2, 3, 4], 5))).toEqual({ 1: 10, 2: 10, 3: 10 });
    await live.putStates([{ state: state(2, 11), userIds: [7] }]);
    expect(positions(await cache.ofUser(7, [1, 2, 3, 4], 5))).toEqual({ 1: 10, 2: 11, 3: 10 });
    // Device 4 has no state, so it is asked for each time.
    expect(c.asked).toEqual([[1, 2, 3, 4], [4], [2, 4]]);
  });

  it("gives a user the newest state of a device another user's read kept", async () => {
    const live = createMemoryLive();
    await live.putStates([{ state: state(1, 10), userIds: [7, 8] }]);
    const cache = liveStateCache(live, { maxDevices: 100 });
    await cache.ofUser(7, [1], 5);
    await cache.ofUser(8, [1], 5);
    await live.putStates([{ state: state(1, 11), userIds: [7, 8] }]);
    expect(positions(await cache.ofUser(7, [1], 5))).toEqual({ 1: 11 });
    expect(positions(await cache.ofUser(8, [1], 5))).toEqual({ 1: 11 });
  });

  it("does not keep an answer read before the device was found changed", async () => {
    const live = createMemoryLive();
    await live.putStates([{ state: state(1, 10), userIds: [7, 8] }]);
    const c = counted(live);
    const cache = liveStateCache(c.store, { maxDevices: 100 });
    await cache.ofUser(7, [1], 5);

    // User 8's first read gets position 10, and its answer is held back...
    const release = c.holdNext();
    const slow = cache.ofUser(8, [1], 5);
    while (c.asked.length < 2) await tick();
    // ...while the device moves and user 7's read finds the move and keeps it.
    await live.putStates([{ state: state(1, 11), userIds: [7, 8] }]);
    await tick();
    expect(positions(await cache.ofUser(7, [1], 5))).toEqual({ 1: 11 });
    release();
    expect(positions(await slow)).toEqual({ 1: 10 });
    await tick();
    expect(positions(await cache.ofUser(7, [1], 5))).toEqual({ 1: 11 });
  });

  it("holds at most maxDevices states, reading the others again", async () => {
    const live = createMemoryLive();
    await live.putStates([1, 2, 3].map((id) => ({ state: state(id, 10), userIds: [7] })));
    await tick();
    const c = counted(live);
    const cache = liveStateCache(c.store, { maxDevices: 2 });
    await cache.ofUser(7, [1, 2, 3], 5);
    await tick();
    expect(positions(await cache.ofUser(7, [1, 2, 3], 5))).toEqual({ 1: 10, 2: 10, 3: 10 });
    expect(c.asked).toEqual([[1, 2, 3], [1]]);
  });

  it("reads a kept state again for a list that shows more of its tail, and gives each list at least the tail it asks for", async () => {
    const live = createMemoryLive();
    await live.putStates([{ state: state(1, 10), userIds: [7, 8] }]);
    await tick();
    const c = counted(live);
    const cache = liveStateCache(c.store, { maxDevices: 100 });
    expect((await cache.ofUser(7, [1], 3)).get(1)?.tail.map((p) => p.id)).toEqual([1007, 1008, 1009]);
    expect((await cache.ofUser(8, [1], 8)).get(1)?.tail).toHaveLength(8);
    await tick();
    expect((await cache.ofUser(7, [1], 3)).get(1)?.tail.length).toBeGreaterThanOrEqual(3);
    expect(c.asked).toEqual([[1], [1]]);
  });
});

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { TAIL_MAX, type LiveState, type TailPoint } from "@fleet/contracts";
import { hasService, redisTest, sleep } from "@fleet/testkit";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLive, createMemoryLive, createRedisLive, type LiveStore } from "./index.js";

interface Harness {
  store: LiveStore;
  cleanup(): Promise<void>;
}


function state(deviceId: number, overrides: Partial<LiveState> = {}): LiveState {
  return {
    deviceId,
    positionId: deviceId * 1000 + 1,
    uniqueId: `imei-${deviceId}`,
    protocol: "osmand",
    latitude: 54.6872,
    longitude: 25.2797,
    altitude: 112.5,
    course: 271.3,
    speedKmh: 48.2,
    fixTime: 1_732_000_000_000,
    serverTime: 1_732_000_000_250,
    attributes: { ignition: true, sat: 9, driveruniqueid: "D-17", battery: 3.91 },
    movedAt: 1_731_999_990_000,
    odometerKm: 12_345.678,
    tail: [
      { id: deviceId * 1000, fixTime: 1_731_999_995_000, latitude: 54.687, longitude: 25.279 },
      { id: deviceId * 1000 + 1, fixTime: 1_732_000_000_000, latitude: 54.6872, longitude: 25.2797 },
    ],
    ...overrides,
  };
}

/** The behaviour every live adapter must share; `make` gives each test a fresh, empty store. */
function liveContract(name: string, make: () => Promise<Harness>) {
  describe(`live store contract: ${name}`, () => {
    let h: Harness;
    beforeEach(async () => {
      h = await make();
    });
    afterEach(async () => {
      await h.cleanup();
    });

    it("round-trips every field of a state", async () => {
      const s = state(1);
      await h.store.putStates([{ state: s, userIds: [10] }]);
      const got = await h.store.getStates([1]);
      expect(got.get(1)).toEqual(s);
    });

    it("omits unknown ids and accepts empty input", async () => {
      await h.store.putStates([{ state: state(1), userIds: [] }]);
      const got = await h.store.getStates([1, 2, 3]);
      expect([...got.keys()]).toEqual([1]);
      expect((await h.store.getStates([])).size).toBe(0);
      await h.store.putStates([]);
      await h.store.markChanged([]);
      await h.store.deleteStates([]);
    });

    it("overwrites a device's state with the newer one", async () => {
      await h.store.putStates([{ state: state(1), userIds: [10] }]);
      await h.store.putStates([{ state: state(1, { positionId: 99, speedKmh: 0 }), userIds: [10] }]);
      expect((await h.store.getStates([1])).get(1)).toMatchObject({ positionId: 99, speedKmh: 0 });
    });

    it("restores states only where a device has none", async () => {
      await h.store.putStates([{ state: state(1, { positionId: 50 }), userIds: [10] }]);
      await h.store.restoreStates([state(1, { positionId: 7 }), state(2, { positionId: 8 })].map((s) => ({ state: s, userIds: [10] })));
      const got = await h.store.getStates([1, 2]);
      expect(got.get(1)?.positionId).toBe(50);
      expect(got.get(2)).toEqual(state(2, { positionId: 8 }));
      await h.store.restoreStates([]);
    });

    it("changedSince returns changes at or after since, not before", async () => {
      await h.store.putStates([{ state: state(1), userIds: [10] }]);
      // Stamps have ms resolution and a change in the same ms as `now` is (rightly)
      // reported again; waiting makes "device 1 is older than now" certain.
      await sleep(5);
      const first = await h.store.changedSince(10, 0);
      expect(first.deviceIds).toEqual([1]);

      await h.store.putStates([{ state: state(2), userIds: [10] }]);
      const second = await h.store.changedSince(10, first.now);
      expect(second.deviceIds).toEqual([2]);
      expect(second.now).toBeGreaterThanOrEqual(first.now);
    });

    it("keeps each user's index apart", async () => {
      await h.store.putStates([
        { state: state(1), userIds: [10] },
        { state: state(2), userIds: [10, 20] },
      ]);
      expect((await h.store.changedSince(10, 0)).deviceIds.sort()).toEqual([1, 2]);
      expect((await h.store.changedSince(20, 0)).deviceIds).toEqual([2]);
      expect((await h.store.changedSince(30, 0)).deviceIds).toEqual([]);
    });

    it("markChanged indexes a device without writing a state", async () => {
      await h.store.markChanged([{ deviceId: 5, userIds: [10] }]);
      expect((await h.store.changedSince(10, 0)).deviceIds).toEqual([5]);
      expect((await h.store.getStates([5])).size).toBe(0);
    });

    it("markChanged is a record change; a new state is not", async () => {
      await h.store.putStates([{ state: state(1), userIds: [10] }]);
      await h.store.markChanged([{ deviceId: 2, userIds: [10, 20] }]);
      expect((await h.store.recordsChangedSince(10, 0)).deviceIds).toEqual([2]);
      expect((await h.store.recordsChangedSince(20, 0)).deviceIds).toEqual([2]);
      expect((await h.store.changedSince(10, 0)).deviceIds.sort()).toEqual([1, 2]);
      await sleep(5);
      const { now } = await h.store.recordsChangedSince(10, 0);
      expect((await h.store.recordsChangedSince(10, now)).deviceIds).toEqual([]);
    });

    it("markEvents marks the device changed (not its record) and each event once, per user", async () => {
      const { now: before } = await h.store.changedSince(10, 0);
      await h.store.markEvents([
        { userId: 10, deviceId: 3, eventIds: [101, 102] },
        { userId: 20, deviceId: 3, eventIds: [201] },
      ]);
      expect((await h.store.changedSince(10, before)).deviceIds).toEqual([3]);
      expect((await h.store.recordsChangedSince(10, 0)).deviceIds).toEqual([]);
      await sleep(5);
      const { now } = await h.store.changedSince(10, 0);
      expect((await h.store.eventsMarked(10, before, now)).sort()).toEqual([101, 102]);
      expect(await h.store.eventsMarked(20, before, now)).toEqual([201]);
      expect(await h.store.eventsMarked(30, before, now)).toEqual([]);
      // Windows that meet list each event once: [before, now) had them all, [now, …) has none.
      expect(await h.store.eventsMarked(10, now, now + 60_000)).toEqual([]);
    });

    it("eventsMarked leaves out events marked at its end, for the window that starts there", async () => {
      await h.store.markEvents([{ userId: 10, deviceId: 3, eventIds: [7] }]);
      await sleep(5);
      const { now } = await h.store.changedSince(10, 0);
      const [marked] = await h.store.eventsMarked(10, 0, now);
      expect(marked).toBe(7);
      await h.store.markEvents([{ userId: 10, deviceId: 3, eventIds: [8] }]);
      await sleep(5);
      const { now: later } = await h.store.changedSince(10, 0);
      const split = [...(await h.store.eventsMarked(10, 0, now)), ...(await h.store.eventsMarked(10, now, later))];
      expect(split).toEqual([7, 8]);
    });

    it("lists a device that went offline since, once, and again when it comes back", async () => {
      const offlineAfterMs = 300;
      const { now: start } = await h.store.changedSince(10, 0);
      await h.store.putStates([{ state: state(1, { serverTime: start }), userIds: [10] }]);
      await sleep(5);
      const first = await h.store.changedSince(10, start, offlineAfterMs);
      expect(first.deviceIds).toEqual([1]);
      // Still online: nothing to list.
      const second = await h.store.changedSince(10, first.now, offlineAfterMs);
      expect(second.deviceIds).toEqual([]);
      await sleep(offlineAfterMs + 50);
      // It went offline between the second poll and now; nothing was written.
      const third = await h.store.changedSince(10, second.now, offlineAfterMs);
      expect(third.deviceIds).toEqual([1]);
      expect(third.now - start).toBeGreaterThan(offlineAfterMs);
      await sleep(5);
      expect((await h.store.changedSince(10, third.now, offlineAfterMs)).deviceIds).toEqual([]);
      // Without the setting, a silent device is never listed.
      expect((await h.store.changedSince(10, second.now)).deviceIds).toEqual([]);
      // Back online: a new state is a change.
      await h.store.putStates([{ state: state(1, { serverTime: Date.now() }), userIds: [10] }]);
      expect((await h.store.changedSince(10, third.now, offlineAfterMs)).deviceIds).toEqual([1]);
    });

    it("a restored state is seen (it goes offline on time) but not changed", async () => {
      const offlineAfterMs = 200;
      const { now: start } = await h.store.changedSince(10, 0);
      await h.store.restoreStates([{ state: state(3, { serverTime: start }), userIds: [10] }]);
      await sleep(5);
      const first = await h.store.changedSince(10, start, offlineAfterMs);
      expect(first.deviceIds).toEqual([]);
      await sleep(offlineAfterMs + 50);
      expect((await h.store.changedSince(10, first.now, offlineAfterMs)).deviceIds).toEqual([3]);
      // Where a state exists, a restore writes and indexes nothing.
      await h.store.restoreStates([{ state: state(3, { serverTime: Date.now(), positionId: 1 }), userIds: [10, 20] }]);
      expect((await h.store.changedSince(20, 0, offlineAfterMs)).deviceIds).toEqual([]);
    });

    it("deleteStates removes only the named states", async () => {
      await h.store.putStates([1, 2, 3].map((id) => ({ state: state(id), userIds: [10] })));
      await h.store.deleteStates([2, 3, 404]);
      expect([...(await h.store.getStates([1, 2, 3])).keys()]).toEqual([1]);
    });

    it("gives a lease to one caller until its time ends, then to the next", async () => {
      const tries = await Promise.all([1, 2, 3].map(() => h.store.claim("sweep", 300)));
      expect(tries.filter(Boolean)).toHaveLength(1);
      expect(await h.store.claim("sweep", 300)).toBe(false);
      // Leases of other names are apart.
      expect(await h.store.claim("other", 300)).toBe(true);
      await new Promise((r) => setTimeout(r, 400));
      expect(await h.store.claim("sweep", 300)).toBe(true);
    });

    it("writes 2,500 entries in one putStates, each in every one of its users' indexes", async () => {
      const ids = Array.from({ length: 2500 }, (_, i) => i + 1);
      const serverTime = Date.now() - 60_000;
      await h.store.putStates(ids.map((id) => ({ state: state(id, { serverTime }), userIds: id % 2 === 0 ? [10, 20] : [10] })));
      const got = await h.store.getStates(ids);
      expect(got.size).toBe(2500);
      expect(got.get(2222)).toEqual(state(2222, { serverTime }));
      const byNumber = (a: number, b: number) => a - b;
      expect((await h.store.changedSince(10, 0)).deviceIds.sort(byNumber)).toEqual(ids);
      expect((await h.store.changedSince(20, 0)).deviceIds.sort(byNumber)).toEqual(ids.filter((id) => id % 2 === 0));
      // Seen at their serverTime: all went offline 30 s after it, inside a window from before then.
      expect((await h.store.changedSince(20, Number.MAX_SAFE_INTEGER - 1, 30_000)).deviceIds).toEqual([]);
      expect((await h.store.changedSince(20, serverTime, 30_000)).deviceIds.length).toBe(1250);
    });

    it("reads back each tail as written: grown a point at a time past the cap, rewritten out of order, emptied", async () => {
      let tail: TailPoint[] = [];
      const point = (id: number): TailPoint => ({ id, fixTime: 1_732_000_000_000 + id * 1000, latitude: 54 + id / 10_000, longitude: 25.123456789 });
      for (let id = 1; id <= 40; id++) {
        // The tracker's way: the same point objects, the oldest dropped past TAIL_MAX.
        tail = [...tail.slice(Math.max(0, tail.length - TAIL_MAX + 1)), point(id)];
        // Two positions between some writes, as when a batch holds both.
        if (id % 7 === 0) continue;
        await h.store.putStates([{ state: state(1, { positionId: id, tail }), userIds: [10] }]);
        if (id % 5 === 0 || id === 40) expect((await h.store.getStates([1])).get(1)!.tail).toEqual(tail);
      }
      expect(tail).toHaveLength(TAIL_MAX);
      const late = [...tail.slice(1, 10), point(10.5), ...tail.slice(10)];
      await h.store.putStates([{ state: state(1, { tail: late }), userIds: [10] }]);
      expect((await h.store.getStates([1])).get(1)!.tail).toEqual(late);
      await h.store.putStates([{ state: state(1, { tail: [] }), userIds: [10] }]);
      expect((await h.store.getStates([1])).get(1)!.tail).toEqual([]);
    });

    it("reads only the newest tailMax points of each tail when asked", async () => {
      const s = state(1);
      await h.store.putStates([{ state: s, userIds: [10] }, { state: state(2, { tail: [] }), userIds: [10] }]);
      const got = await h.store.getStates([1, 2], 1);
      expect(got.get(1)).toEqual({ ...s, tail: s.tail.slice(-1) });
      expect(got.get(2)!.tail).toEqual([]);
      expect((await h.store.getStates([1], 0)).get(1)).toEqual({ ...s, tail: [] });
      expect((await h.store.getStates([1], 30)).get(1)).toEqual(s);
    });

    it("reports a clock close to this machine's (a sanity check, not a timing test)", async () => {
      const { now } = await h.store.changedSince(10, 0);
      expect(Math.abs(now - Date.now())).toBeLessThan(5_000);
    });
  });
}

liveContract("memory", async () => {
  const store = createMemoryLive();
  return { store, cleanup: () => store.close() };
});

// Skips when no Redis answers on the test URL (a developer machine without
// infra/up.sh); global setup prints why, and in CI the run fails instead.
describe.runIf(hasService("redis"))("redis", () => {
  liveContract("redis", async () => {
    const t = redisTest("live");
    const store = createRedisLive({ url: t.url, keyPrefix: t.keyPrefix });
    return {
      store,
      cleanup: async () => {
        await store.close();
        await t.cleanup();
      },
    };
  });

  describe("redis layout", () => {
    let t: ReturnType<typeof redisTest>;
    let raw: Redis;
    let store: LiveStore;
    beforeEach(() => {
      t = redisTest("live");
      raw = new Redis(t.url);
      store = createRedisLive({ url: t.url, keyPrefix: t.keyPrefix });
    });
    afterEach(async () => {
      await store.close();
      await raw.quit();
      await t.cleanup();
    });

    it("applies keyPrefix to the keys the scripts write", async () => {
      await store.putStates([{ state: state(1), userIds: [10] }]);
      expect(await raw.exists(`${t.keyPrefix}live:dev:1`)).toBe(1);
      expect(await raw.zscore(`${t.keyPrefix}live:chg:10`, "1")).not.toBeNull();
    });

    it("keeps a tail in a list beside its state, and deletes both", async () => {
      await store.putStates([{ state: state(1), userIds: [10] }]);
      expect(await raw.llen(`${t.keyPrefix}live:dev:1:tail`)).toBe(2);
      expect(JSON.parse((await raw.get(`${t.keyPrefix}live:dev:1`))!)).not.toHaveProperty("tail");
      await store.deleteStates([1]);
      expect(await raw.exists(`${t.keyPrefix}live:dev:1`, `${t.keyPrefix}live:dev:1:tail`)).toBe(0);
    });

    it("reads a state written with its tail inside, as before tails had a list, and replaces it on the next write", async () => {
      const old = state(1);
      await raw.set(`${t.keyPrefix}live:dev:1`, JSON.stringify(old));
      expect((await store.getStates([1])).get(1)).toEqual(old);
      expect((await store.getStates([1], 1)).get(1)!.tail).toEqual(old.tail.slice(-1));
      const read = (await store.getStates([1])).get(1)!;
      const next = { ...read, positionId: 9, tail: [...read.tail, { id: 9, fixTime: 1_732_000_009_000, latitude: 54.7, longitude: 25.3 }] };
      await store.putStates([{ state: next, userIds: [10] }]);
      expect((await store.getStates([1])).get(1)).toEqual(next);
    });

    it("keeps the event index per user and trims it like the others", async () => {
      const key = `${t.keyPrefix}live:evt:10`;
      await raw.zadd(key, Date.now() - 25 * 3600_000, "70");
      await store.markEvents([{ userId: 10, deviceId: 8, eventIds: [71, 72] }]);
      expect((await raw.zrange(key, 0, -1)).sort()).toEqual(["71", "72"]);
      expect(await raw.pttl(key)).toBeGreaterThan(0);
    });

    it("trims index entries older than 24 h on write", async () => {
      const key = `${t.keyPrefix}live:chg:10`;
      await raw.zadd(key, Date.now() - 25 * 3600_000, "7");
      await store.markChanged([{ deviceId: 8, userIds: [10] }]);
      expect(await raw.zrange(key, 0, -1)).toEqual(["8"]);
      expect(await raw.pttl(key)).toBeGreaterThan(0);
    });
  });
});

describe("createLive", () => {
  it("picks memory without a Redis URL", async () => {
    const store = createLive({});
    expect(store.kind).toBe("memory");
    await store.close();
  });
});

describe("memory store snapshot", () => {
  it("keeps states across close and reopen at the same path", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "live-"));
    const snapshotPath = path.join(dir, "live.json");
    try {
      const first = createMemoryLive({ snapshotPath });
      await first.putStates([{ state: state(5), userIds: [1] }]);
      await first.close();
      const second = createMemoryLive({ snapshotPath });
      expect((await second.getStates([5])).get(5)).toEqual(state(5));
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps the changed-since index across a restart: a poll from before it still sees what changed", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "live-"));
    const snapshotPath = path.join(dir, "live.json");
    try {
      const first = createMemoryLive({ snapshotPath });
      await first.putStates([{ state: state(5), userIds: [1] }]);
      const { now: polledAt } = await first.changedSince(1, 0);
      await sleep(5);
      await first.putStates([{ state: state(6), userIds: [1] }]);
      await first.markChanged([{ deviceId: 7, userIds: [1, 2] }]);
      await first.markEvents([{ userId: 1, deviceId: 6, eventIds: [60] }]);
      await first.close();

      const second = createMemoryLive({ snapshotPath });
      expect((await second.changedSince(1, polledAt + 1)).deviceIds.sort()).toEqual([6, 7]);
      expect((await second.changedSince(2, 0)).deviceIds).toEqual([7]);
      expect((await second.recordsChangedSince(1, 0)).deviceIds).toEqual([7]);
      expect(await second.eventsMarked(1, polledAt + 1, Number.MAX_SAFE_INTEGER)).toEqual([60]);
      // The clock goes on from where it was: a change now is stamped after every kept one.
      const { now } = await second.changedSince(1, 0);
      expect(now).toBeGreaterThan(polledAt);
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads a snapshot written before the index was kept", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "live-"));
    const snapshotPath = path.join(dir, "live.json");
    try {
      await writeFile(snapshotPath, JSON.stringify([[5, JSON.stringify(state(5))]]));
      const store = createMemoryLive({ snapshotPath });
      expect((await store.getStates([5])).get(5)).toEqual(state(5));
      expect((await store.changedSince(1, 0)).deviceIds).toEqual([]);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads a snapshot whose states were written as strings of JSON", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "live-"));
    try {
      const snapshotPath = path.join(dir, "live.json");
      const at = Date.now();
      await writeFile(snapshotPath, JSON.stringify({ states: [[5, JSON.stringify(state(5))]], changes: [[1, [[5, at]]]], clock: at }));
      const store = createMemoryLive({ snapshotPath });
      expect((await store.getStates([5])).get(5)).toEqual(state(5));
      expect((await store.changedSince(1, 0)).deviceIds).toEqual([5]);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("starts empty when the snapshot is missing or unreadable", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "live-"));
    try {
      await writeFile(path.join(dir, "bad.json"), "{not json");
      const store = createMemoryLive({ snapshotPath: path.join(dir, "bad.json") });
      expect((await store.getStates([1])).size).toBe(0);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

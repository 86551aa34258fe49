import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryBus, type DeliveredMessage } from "@fleet/bus";
import type { RawPosition } from "@fleet/contracts";
import { distanceKm } from "@fleet/geo";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createMemoryLive, type LiveStore } from "@fleet/live";
import { tempChdbDir } from "@fleet/testkit";
import { DeviceDirectory, type DeviceInfo } from "./handlers/device-directory.js";
import { UnregisteredCounter } from "./handlers/unregistered.js";
import { createPipeline, type Pipeline } from "./pipeline.js";

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const device: DeviceInfo = { id: 1, imei: "known", userIds: [7], minMovingSpeed: 6 };
const other: DeviceInfo = { id: 2, imei: "other", userIds: [8], minMovingSpeed: 6 };

let offset = 0;
function message(value: unknown, key = "known"): DeliveredMessage {
  return { key, value: Buffer.from(typeof value === "string" ? value : JSON.stringify(value)), partition: 0, offset: String(offset++) };
}
const T0 = Date.UTC(2025, 0, 1);
/** A position `ms` after T0. */
function raw(id: number, ms: number, uniqueId = "known"): RawPosition {
  return { id, uniqueId, protocol: "osmand", latitude: 54 + id * 0.001, longitude: 25, altitude: 1, course: 0, speed: 20, fixTime: T0 + ms, serverTime: T0 + ms + 100, attributes: {} };
}

describe("tracker pipeline on the embedded stores", () => {
  let dir: Awaited<ReturnType<typeof tempChdbDir>>;
  let history: HistoryStore;
  let live: LiveStore;
  let unregistered: UnregisteredCounter;
  let pipeline: Pipeline;

  beforeEach(async () => {
    dir = await tempChdbDir();
    history = createChdbHistory({ path: dir.path });
    await history.migrate();
    live = createMemoryLive();
    unregistered = new UnregisteredCounter();
    pipeline = await pipelineOver(live);
  });

  /** While set, looking up the "other" device waits for it. */
  let otherLookup: Promise<void> | undefined;

  async function pipelineOver(store: LiveStore, flushMs = 5, liveLingerMs?: number): Promise<Pipeline> {
    const directory = new DeviceDirectory({
      findByImei: async (imei) => {
        if (imei === other.imei) await otherLookup;
        return [device, other].find((d) => d.imei === imei);
      },
      changedSince: async () => ({ devices: [], readAt: new Date() }),
    });
    return createPipeline({ directory, unregistered, history, live: store, producer: await createMemoryBus().producer(), logger: silent, flushRows: 1000, flushMs, liveLingerMs, enrichedTopic: "enriched" });
  }

  afterEach(async () => {
    await history.close();
    await dir.cleanup();
  });

  it("writes history and live state, gives back messages that are not positions, counts unknown devices", async () => {
    const notJson = message("not json");
    const wrongShape = message({ id: "x" });
    const rejected = await pipeline.handleBatch([message(raw(1, 1_000)), notJson, wrongShape, message(raw(2, 2_000)), message(raw(3, 3_000, "stranger"), "stranger")]);
    expect(rejected.map((r) => r.message)).toEqual([notJson, wrongShape]);
    expect(rejected.map((r) => r.error.message)).toEqual([expect.stringMatching(/^not JSON/), expect.stringMatching(/^not a position: \/\w+ /)]);
    expect(await history.count()).toBe(2);
    expect(pipeline.stats()).toEqual({ positions: 2, unregistered: 1, invalid: 2, restored: 0, resent: 0 });
    const state = (await live.getStates([1])).get(1)!;
    expect(state.positionId).toBe(2);
    expect((await live.changedSince(7, 0)).deviceIds).toEqual([1]);
    const written: { uniqueId: string; count: number }[] = [];
    await unregistered.flush(async (entries) => void written.push(...entries));
    expect(written).toMatchObject([{ uniqueId: "stranger", count: 1 }]);
  });

  it("drops a fix its device sent again under another id, in the same batch or a later one, and writes a replayed one again", async () => {
    const again = (p: RawPosition, id: number) => ({ ...p, id, serverTime: p.serverTime + 5_000 });
    const [a, b] = [raw(1, 1_000), raw(2, 2_000)];
    await pipeline.handleBatch([message(a), message(again(a, 11)), message(b)]);
    await pipeline.handleBatch([message(again(b, 12)), message(again(a, 13))]);
    // The same fix time elsewhere is another fix, and a replay (same id) is written again, once.
    await pipeline.handleBatch([message({ ...raw(3, 2_000), id: 14 }), message(b)]);
    const rows = await history.query({ deviceId: 1, fromMs: 0, toMs: 1e13 });
    expect(rows.map((r) => r.id)).toEqual([1, 2, 14]);
    expect(pipeline.stats()).toMatchObject({ positions: 4, resent: 3 });
  });

  it("drops a resent buffer older than the device's whole tail, found in history", async () => {
    const track = Array.from({ length: 40 }, (_, i) => raw(100 + i, 10_000 + i * 1000));
    await pipeline.handleBatch(track.map((p) => message(p)));
    // The whole buffer again, under new ids, as a tracker that lost the answer sends it.
    await pipeline.handleBatch(track.map((p, i) => message({ ...p, id: 1000 + i })));
    expect((await history.query({ deviceId: 1, fromMs: 0, toMs: 1e13 })).map((r) => r.id)).toEqual(track.map((p) => p.id));
    expect(pipeline.stats()).toMatchObject({ positions: 40, resent: 40 });
  });

  it("asks history for the predecessor of a fix older than the whole tail", async () => {
    const track = Array.from({ length: 40 }, (_, i) => raw(100 + i, 10_000 + i * 1000));
    await pipeline.handleBatch(track.map((p) => message(p)));
    const first = await history.query({ deviceId: 1, fromMs: 0, toMs: 1e13 });
    // The same fixes again (a replay): the first one is older than the 30-point tail.
    await pipeline.handleBatch(track.slice(2).map((p) => message(p)));
    const again = await history.query({ deviceId: 1, fromMs: 0, toMs: 1e13 });
    expect(again).toEqual(first);
    expect(again[2]!.distanceKm).toBeGreaterThan(0.1);
  });

  it("keeps its own states between a partition's batches, and reads the store again after a gap in its offsets", async () => {
    const at = (o: number, p: RawPosition) => ({ ...message(p), offset: String(o) });
    await pipeline.handleBatch([at(0, raw(300, 1_000))]);
    // Another tracker had the partition for a while and left a state far along.
    const theirs = { ...(await live.getStates([1])).get(1)!, positionId: 305, fixTime: T0 + 5_000, odometerKm: 500 };
    await live.putStates([{ state: theirs, userIds: [7] }]);

    await pipeline.handleBatch([at(1, raw(301, 2_000))]);
    expect((await live.getStates([1])).get(1)!.odometerKm).toBeLessThan(1); // its own state, right after its own batch

    await live.putStates([{ state: theirs, userIds: [7] }]);
    await pipeline.handleBatch([at(6, raw(306, 6_000))]);
    expect((await live.getStates([1])).get(1)!.odometerKm).toBeGreaterThan(500);
  });

  it("writes the states of batches from several partitions handled at once in one call to the live store", async () => {
    const calls: number[][] = [];
    const counted: LiveStore = {
      ...live,
      putStates: (entries) => {
        calls.push(entries.map((e) => e.state.deviceId));
        return live.putStates(entries);
      },
    };
    // A linger far longer than the test: only "every batch in hand has added" can start the flush.
    const shared = await pipelineOver(counted, 60_000, 60_000);
    const on = (partition: number, p: RawPosition) => ({ ...message(p, p.uniqueId), partition });
    await Promise.all([shared.handleBatch([on(0, raw(400, 1_000))]), shared.handleBatch([on(1, raw(401, 1_000, "other"))])]);
    expect(calls).toEqual([[1, 2]]);
    expect([...(await live.getStates([1, 2])).keys()].sort()).toEqual([1, 2]);
    expect((await live.changedSince(8, 0)).deviceIds).toEqual([2]);
  });

  it("writes a batch's live states without waiting for history's linger or for a batch still being prepared", async () => {
    let release!: () => void;
    otherLookup = new Promise((resolve) => (release = resolve));
    const slowHistory = await pipelineOver(live, 60_000);
    const on = (partition: number, p: RawPosition) => ({ ...message(p, p.uniqueId), partition });
    const first = slowHistory.handleBatch([on(0, raw(500, 1_000))]);
    const second = slowHistory.handleBatch([on(1, raw(501, 1_000, "other"))]);
    let seen = false;
    for (let i = 0; i < 200 && !seen; i++) {
      seen = (await live.getStates([1])).has(1);
      if (!seen) await new Promise((r) => setTimeout(r, 10));
    }
    release();
    otherLookup = undefined;
    expect(seen).toBe(true);
    await slowHistory.drain();
    await Promise.all([first, second]);
    expect((await live.getStates([2])).has(2)).toBe(true);
  });

  it("restores a lost live state from history before the device's next position, so counters continue", async () => {
    // Moving at 20 knots a second apart: the engine (by motion) runs the whole time.
    const track = Array.from({ length: 12 }, (_, i) => raw(200 + i, i * 1000));
    await pipeline.handleBatch(track.slice(0, 11).map((p) => message(p)));
    const before = (await live.getStates([1])).get(1)!;
    expect(before.engineSeconds).toBe(10);

    // The live store lost everything (a flushed Redis, a lost live.json).
    const emptied = createMemoryLive();
    const after = await pipelineOver(emptied);
    await after.handleBatch([message(track[11]!)]);
    const state = (await emptied.getStates([1])).get(1)!;
    const step = (await history.query({ deviceId: 1, fromMs: 0, toMs: 1e13 })).at(-1)!.distanceKm;
    expect(step).toBeGreaterThan(0.1);
    // Restored as the track's length, unrounded; the tracker adds steps rounded to 1e-6 km.
    expect(state.odometerKm).toBeCloseTo(before.odometerKm + step, 5);
    expect(state.engineSeconds).toBe(11);
    expect(state.tail.map((t) => t.id)).toEqual(track.map((p) => p.id));
    expect(after.stats().restored).toBe(1);
  });

  it("ends with the same odometer whether a device's fixes came in order or its buffer came after its live fixes", async () => {
    // A zigzag road, a fix every 10 s: the late fixes are off the straight line between their neighbours.
    const zig = (id: number, i: number, uniqueId: string): RawPosition => ({ ...raw(id, i * 10_000, uniqueId), latitude: 54 + i * 0.001, longitude: 25 + (i % 2) * 0.002 });
    await pipeline.handleBatch(Array.from({ length: 20 }, (_, i) => message(zig(400 + i, i, "known"))));
    const inOrder = (await live.getStates([1])).get(1)!.odometerKm;
    expect(inOrder).toBeGreaterThan(2);

    // The other device drives the same road: fixes 0-4 live, then the live fix 19, then the buffer 5-18 in two batches, the second sent twice.
    const sent = (ids: number[]) => pipeline.handleBatch(ids.map((i) => message(zig(600 + i, i, "other"), "other")));
    await sent([0, 1, 2, 3, 4]);
    await sent([19]);
    await sent([5, 6, 7, 8, 9, 10, 11]);
    await sent([12, 13, 14, 15, 16, 17, 18]);
    await sent([12, 13, 14, 15, 16, 17, 18]);
    expect((await live.getStates([2])).get(2)!.odometerKm).toBeCloseTo(inOrder, 5);
  });

  it("adds a buffer sent after more live fixes than the tail holds, oldest or newest first, and a replay of it once", async () => {
    // 80 fixes on a zigzag road; fixes 10-29 reach the tracker last, after the 50 live ones.
    const zig = (i: number, uniqueId: string): RawPosition => ({ ...raw((uniqueId === "known" ? 1000 : 2000) + i, i * 10_000, uniqueId), latitude: 54 + i * 0.001, longitude: 25 + (i % 2) * 0.002 });
    const path = Array.from({ length: 79 }, (_, i) => distanceKm({ lat: zig(i, "known").latitude, lng: zig(i, "known").longitude }, { lat: zig(i + 1, "known").latitude, lng: zig(i + 1, "known").longitude })).reduce((a, b) => a + b, 0);
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
    const sent = (uniqueId: string, ids: number[]) => pipeline.handleBatch(ids.map((i) => message(zig(i, uniqueId), uniqueId)));

    await sent("known", range(0, 10));
    await sent("known", range(30, 80));
    await sent("known", range(10, 20));
    const last = range(20, 30);
    await sent("known", last);
    await sent("known", last);
    expect((await live.getStates([1])).get(1)!.odometerKm).toBeCloseTo(path, 5);

    await sent("other", range(0, 10));
    await sent("other", range(30, 80));
    await sent("other", range(10, 30).reverse());
    expect((await live.getStates([2])).get(2)!.odometerKm).toBeCloseTo(path, 5);
  });

  it("moves the live position on past a fix dated a day ahead once true fixes every 20 s pass a minute after it", async () => {
    const at = (id: number, arrived: number, fixTime = arrived): RawPosition => ({ ...raw(id, 0), fixTime: T0 + fixTime, serverTime: T0 + arrived });
    await pipeline.handleBatch([message(at(1, 0)), message(at(2, 2_000, 86_400_000))]);
    for (let k = 1; k <= 4; k++) await pipeline.handleBatch([message(at(2 + k, 2_000 + k * 20_000))]);
    const state = (await live.getStates([1])).get(1)!;
    // 20, 40 and 60 s after it the glitch holds; at 80 s the true fix passes it.
    expect([state.positionId, state.fixTime, state.serverTime]).toEqual([6, T0 + 82_000, T0 + 82_000]);
  });
});

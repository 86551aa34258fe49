import type { HistoryRow } from "@fleet/contracts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryStore } from "../src/port.js";
import { trackTotalsCases } from "./track-totals.js";

/**
 * One isolated place for history (a temp directory, a fresh database). `open` makes
 * a store over it and may be called again after `close` to test persistence.
 */
export interface HistoryHarness {
  open(): HistoryStore;
  cleanup(): Promise<void>;
}

const T0 = Date.UTC(2024, 0, 31, 23, 59, 58, 123);
/** km in a degree of latitude, by @fleet/geo's haversine (R = 6371.0088 km). */
const KM_PER_DEGREE = (6371.0088 * Math.PI) / 180;

export function row(overrides: Partial<HistoryRow> & Pick<HistoryRow, "id">): HistoryRow {
  return {
    deviceId: 1,
    uniqueId: "123456789012345",
    protocol: "osmand",
    latitude: 54.687157,
    longitude: 25.279652,
    altitude: 112.5,
    course: 270,
    speedKmh: 42.5,
    distanceKm: 0.125,
    fixTime: T0 + overrides.id * 1000,
    serverTime: T0 + overrides.id * 1000 + 7,
    valid: true,
    engineOn: false,
    attributes: {},
    ...overrides,
  };
}

/** Rows `first..first+n-1` of one device, a second apart. */
function rows(deviceId: number, first: number, n: number): HistoryRow[] {
  return Array.from({ length: n }, (_, i) => row({ id: first + i, deviceId, fixTime: T0 + i * 1000 }));
}

export function historyContract(name: string, makeHarness: () => Promise<HistoryHarness>): void {
  describe(`history contract: ${name}`, () => {
    let harness: HistoryHarness;
    let store: HistoryStore;

    beforeEach(async () => {
      harness = await makeHarness();
      store = harness.open();
      await store.migrate();
    });

    afterEach(async () => {
      await store.close();
      await harness.cleanup();
    });

    it("migrates twice without error and without changing data", async () => {
      await store.insert([row({ id: 1 })]);
      await store.migrate();
      expect(await store.count()).toBe(1);
    });

    it("round-trips every field exactly", async () => {
      const original = row({
        id: 9_007_199_254_740_000, // near 2^53: UInt64 survives the trip as a number
        deviceId: 4_000_000_001,
        uniqueId: "imei-Ω-\"quoted\"\\slash",
        protocol: "teltonika",
        latitude: -33.868820123,
        longitude: -151.209295987,
        altitude: -12.25,
        course: 359.5,
        speedKmh: 88.75,
        distanceKm: 1.234567891,
        fixTime: Date.UTC(2024, 1, 29, 12, 34, 56, 789),
        serverTime: Date.UTC(2024, 1, 29, 12, 34, 57, 1),
        valid: false,
        engineOn: true,
        attributes: { ignition: true, motion: false, sat: 7, power: 12.6, rfid: "00AB\n'x'", event: "" },
      });
      await store.insert([original]);
      const got = await store.query({ deviceId: original.deviceId, fromMs: original.fixTime, toMs: original.fixTime });
      expect(got).toEqual([original]);
      expect(typeof got[0]!.id).toBe("number");
      expect(got[0]!.valid).toBe(false);
    });

    it("orders by fixTime, then id, regardless of insert order", async () => {
      const a = row({ id: 30, fixTime: T0 + 3000 });
      const b = row({ id: 10, fixTime: T0 + 1000 });
      const c = row({ id: 21, fixTime: T0 + 2000 });
      const d = row({ id: 20, fixTime: T0 + 2000 });
      await store.insert([a, b]);
      await store.insert([c, d]);
      const got = await store.query({ deviceId: 1, fromMs: T0, toMs: T0 + 10_000 });
      expect(got.map((r) => r.id)).toEqual([10, 20, 21, 30]);
    });

    it("finds a device's previous row in time order, ties broken by id", async () => {
      await store.insert([row({ id: 10, fixTime: T0 + 1000 }), row({ id: 20, fixTime: T0 + 2000 }), row({ id: 21, fixTime: T0 + 2000 }), row({ id: 99, deviceId: 2, fixTime: T0 + 1500 })]);
      expect((await store.previous(1, { fixTime: T0 + 3000, id: 1 }))?.id).toBe(21);
      expect((await store.previous(1, { fixTime: T0 + 2000, id: 21 }))?.id).toBe(20);
      expect((await store.previous(1, { fixTime: T0 + 2000, id: 20 }))?.id).toBe(10);
      expect(await store.previous(1, { fixTime: T0 + 1000, id: 10 })).toBeUndefined();
      expect(await store.previous(3, { fixTime: T0 + 9000, id: 1 })).toBeUndefined();
    });

    it("finds a device's row at or after a point in time order, the point itself when stored", async () => {
      await store.insert([row({ id: 10, fixTime: T0 + 1000 }), row({ id: 20, fixTime: T0 + 2000 }), row({ id: 21, fixTime: T0 + 2000 }), row({ id: 99, deviceId: 2, fixTime: T0 + 1500 })]);
      expect((await store.following(1, { fixTime: T0 + 1500, id: 50 }))?.id).toBe(20);
      expect((await store.following(1, { fixTime: T0 + 2000, id: 21 }))?.id).toBe(21);
      expect((await store.following(1, { fixTime: T0 + 2000, id: 20 }))?.id).toBe(20);
      expect((await store.following(1, { fixTime: T0 + 1000, id: 11 }))?.id).toBe(20);
      expect(await store.following(1, { fixTime: T0 + 2000, id: 22 })).toBeUndefined();
      expect(await store.following(3, { fixTime: T0, id: 1 })).toBeUndefined();
    });

    it("filters by device and an inclusive time range, across a month boundary", async () => {
      await store.insert([...rows(1, 1, 5), ...rows(2, 101, 5)]);
      // T0 is two seconds before a month (and so a partition) boundary.
      const got = await store.query({ deviceId: 1, fromMs: T0 + 1000, toMs: T0 + 3000 });
      expect(got.map((r) => r.id)).toEqual([2, 3, 4]);
      expect(await store.query({ deviceId: 3, fromMs: T0, toMs: T0 + 10_000 })).toEqual([]);
      expect(await store.query({ deviceId: 1, fromMs: T0 + 3001, toMs: T0 + 3999 })).toEqual([]);
    });

    it("pages with limit and offset", async () => {
      await store.insert(rows(1, 1, 10));
      const q = { deviceId: 1, fromMs: T0, toMs: T0 + 60_000 };
      expect((await store.query({ ...q, limit: 3 })).map((r) => r.id)).toEqual([1, 2, 3]);
      expect((await store.query({ ...q, limit: 3, offset: 3 })).map((r) => r.id)).toEqual([4, 5, 6]);
      expect((await store.query({ ...q, offset: 8 })).map((r) => r.id)).toEqual([9, 10]);
      expect(await store.query({ ...q, limit: 5, offset: 10 })).toEqual([]);
    });

    it("counts with and without filters", async () => {
      await store.insert([...rows(1, 1, 5), ...rows(2, 101, 3)]);
      expect(await store.count()).toBe(8);
      expect(await store.count({ deviceId: 2 })).toBe(3);
      expect(await store.count({ fromMs: T0 + 1000 })).toBe(6);
      expect(await store.count({ toMs: T0 + 1000 })).toBe(4);
      expect(await store.count({ deviceId: 1, fromMs: T0 + 1000, toMs: T0 + 2000 })).toBe(2);
      expect(await store.count({ deviceId: 9 })).toBe(0);
    });

    it("reads a replayed batch once (at-least-once delivery leaves history unchanged)", async () => {
      const batch = [...rows(1, 1, 5), ...rows(2, 101, 5)];
      await store.insert(batch);
      const before = await store.query({ deviceId: 1, fromMs: T0, toMs: T0 + 60_000 });
      await store.insert(batch);
      await store.insert(batch.slice(2, 7));
      expect(await store.count()).toBe(10);
      expect(await store.count({ deviceId: 2 })).toBe(5);
      expect(await store.query({ deviceId: 1, fromMs: T0, toMs: T0 + 60_000 })).toEqual(before);
    });

    it("reads a range with each position's fields: the rows query reads, and JSON members of their stored values", async () => {
      const odd = row({
        id: 9_007_199_254_740_000,
        deviceId: 7,
        protocol: 'te"l\\tonika/Ω',
        latitude: -33.868820123,
        longitude: -151.209295987,
        course: 359.5,
        speedKmh: 88.75,
        valid: false,
        fixTime: T0 + 500,
        serverTime: T0 + 900,
        attributes: { power: "12.5", note: "<a href='x'>\"&\"</a>\t\n" },
      });
      const batch = [...rows(7, 1, 3), odd, row({ id: 4, deviceId: 8 })];
      await store.insert(batch);
      await store.insert(batch);
      const range = { deviceId: 7, fromMs: T0, toMs: T0 + 60_000 };
      const got = await store.queryWithFields(range);
      const keys = Object.keys(odd) as (keyof HistoryRow)[];
      expect(got.map((p) => Object.fromEntries(keys.map((k) => [k, p[k]])))).toEqual(await store.query(range));
      expect(got.map((p) => p.id)).toEqual([1, odd.id, 2, 3]);
      expect(JSON.parse(`${Buffer.from(got[1]!.fields).toString("utf8")}}`)).toEqual({
        id: odd.id,
        device_id: 7,
        item_id: `i${odd.id}`,
        sort: Math.floor(odd.fixTime / 1000),
        latitude: odd.latitude,
        longitude: odd.longitude,
        lat: odd.latitude,
        lng: odd.longitude,
        course: 359.5,
        valid: "0",
        protocol: odd.protocol,
      });
      expect(await store.queryWithFields({ deviceId: 9, fromMs: T0, toMs: T0 + 60_000 })).toEqual([]);
      // queryRows: the same rows and texts, without the fields.
      const plain = await store.queryRows(range);
      expect(plain.map((p) => Object.fromEntries(keys.map((k) => [k, p[k]])))).toEqual(await store.query(range));
      expect(plain.map((p) => p.attributesText)).toEqual(got.map((p) => p.attributesText));
      expect(await store.queryRows({ deviceId: 9, fromMs: T0, toMs: T0 + 60_000 })).toEqual([]);
    });

    it("tells whether a row's attributes hold a text, in that row's attributes only", async () => {
      const carded = [
        row({ id: 1, deviceId: 7, attributes: { rfid: "A1" } }),
        row({ id: 2, deviceId: 7, protocol: '"rfid"', uniqueId: '"rfid"', attributes: { power: 12 } }),
        row({ id: 3, deviceId: 7, attributes: { reader: "rfid", Ω: "ß" } }),
        row({ id: 5, deviceId: 7, attributes: { note: 'a "rfid" in a text is escaped' } }),
        row({ id: 4, deviceId: 7, attributes: {} }),
      ];
      await store.insert(carded);
      const range = { deviceId: 7, fromMs: T0, toMs: T0 + 60_000 };
      for (const read of [await store.queryRows(range), await store.queryWithFields(range)]) {
        expect(read.map((r) => r.attributesHold('"rfid"'))).toEqual([true, false, true, false, false]);
        expect(read.map((r) => r.attributesHold('"Ω"'))).toEqual([false, false, true, false, false]);
        expect(read.map((r) => r.attributesHold("absent"))).toEqual([false, false, false, false, false]);
        // Once the text is decoded, it answers from the text.
        expect(read[0]!.attributesText).toBe('{"rfid":"A1"}');
        expect(read[0]!.attributesHold('"A1"')).toBe(true);
      }
    });

    it("deletes only the named ids of the named devices", async () => {
      // Device 2 owns id 102; device 1 is named, but id 102 is not one of its rows.
      await store.insert([...rows(1, 1, 5), ...rows(2, 101, 5), ...rows(3, 201, 2)]);
      await store.deletePositions([1], [2, 4, 102]);
      expect((await store.query({ deviceId: 1, fromMs: T0, toMs: T0 + 60_000 })).map((r) => r.id)).toEqual([1, 3, 5]);
      expect(await store.count({ deviceId: 2 })).toBe(5);
      await store.deletePositions([2, 3], [101, 202]);
      expect((await store.query({ deviceId: 2, fromMs: T0, toMs: T0 + 60_000 })).map((r) => r.id)).toEqual([102, 103, 104, 105]);
      expect((await store.query({ deviceId: 3, fromMs: T0, toMs: T0 + 60_000 })).map((r) => r.id)).toEqual([201]);
      await store.deletePositions([], [1]);
      await store.deletePositions([1], []);
      expect(await store.count()).toBe(8);
    });

    it("rejects invalid ids without deleting anything", async () => {
      await store.insert(rows(1, 1, 3));
      await expect(store.deletePositions([1], [1, -2])).rejects.toThrow(RangeError);
      expect(await store.count()).toBe(3);
    });

    it("keeps data across close and reopen", async () => {
      const batch = rows(1, 1, 3);
      await store.insert(batch);
      await store.close();
      store = harness.open();
      await store.migrate();
      expect(await store.query({ deviceId: 1, fromMs: T0, toMs: T0 + 60_000 })).toEqual(batch);
    });

    it("restores each device's live state: latest fix, the track's length and engine time, last move, tail", async () => {
      // Device 1: 40 fixes a minute apart heading north, 0.5 km each, inserted out of order (the
      // stored steps say 9.9 km: the odometer is the track's length, not their sum); the engine
      // runs from fix 5 to fix 14 (9 minutes between fixes on at both ends) and again at 30-31.
      const track = Array.from({ length: 40 }, (_, i) =>
        row({ id: 1000 + i, fixTime: T0 + i * 60_000, latitude: 54 + (i * 0.5) / KM_PER_DEGREE, longitude: 25, distanceKm: 9.9, speedKmh: i === 33 ? 30 : 2, engineOn: (i >= 5 && i <= 14) || i === 30 || i === 31, attributes: { n: i } }),
      );
      await store.insert(track.slice(20));
      await store.insert(track.slice(0, 20));
      await store.insert(track.slice(10, 15)); // a replay: read once
      // Device 2 never moves; device 3 has no history.
      await store.insert([row({ id: 5, deviceId: 2, fixTime: T0 + 5000, speedKmh: 1, distanceKm: 0 }), row({ id: 6, deviceId: 2, fixTime: T0 + 9000, speedKmh: 1, distanceKm: 0.25 })]);
      // Device 4: 1 km north a minute, with fix 3 a GPS spike 100 km off (reached and left at 6,000 km/h): measured across.
      await store.insert(
        [0, 1, 2, 100, 4, 5].map((km, i) => row({ id: 50 + i, deviceId: 4, fixTime: T0 + i * 60_000, latitude: 54 + (i === 3 ? km : i) / KM_PER_DEGREE, longitude: 25, distanceKm: 0 })),
      );

      const states = await store.lastStates([
        { id: 1, minMovingSpeed: 6 },
        { id: 2, minMovingSpeed: 6 },
        { id: 3, minMovingSpeed: 6 },
        { id: 4, minMovingSpeed: 6 },
      ]);
      expect([...states.keys()].sort()).toEqual([1, 2, 4]);
      const last = track[39]!;
      expect(states.get(1)).toEqual({
        deviceId: 1,
        positionId: last.id,
        uniqueId: last.uniqueId,
        protocol: last.protocol,
        latitude: last.latitude,
        longitude: last.longitude,
        altitude: last.altitude,
        course: last.course,
        speedKmh: 2,
        fixTime: last.fixTime,
        serverTime: last.serverTime,
        attributes: { n: 39 },
        movedAt: track[33]!.fixTime,
        odometerKm: expect.closeTo(19.5, 6),
        engineOn: false,
        engineSeconds: 10 * 60,
        tail: track.slice(10).map((r) => ({ id: r.id, fixTime: r.fixTime, latitude: r.latitude, longitude: r.longitude })),
      });
      expect(states.get(2)).toMatchObject({ positionId: 6, movedAt: T0 + 5000, odometerKm: 0, engineSeconds: 0, tail: [{ id: 5 }, { id: 6 }] });
      expect(states.get(4)!.odometerKm).toBeCloseTo(5, 5);
      expect(await store.lastStates([])).toEqual(new Map());
    });

    it("gives each device's latest fix time, a replay or a deleted fix changing nothing", async () => {
      await store.insert([...rows(1, 0, 5), ...rows(2, 100, 3)]);
      const replay = rows(1, 0, 5)[4]!;
      await store.insert([replay]);
      await store.insert([row({ id: 900, deviceId: 2, fixTime: T0 + 999_000 })]);
      await store.deletePositions([2], [900]);
      const latest = await store.latestFixTimes([1, 2, 3]);
      expect(latest).toEqual(new Map([
        [1, rows(1, 0, 5)[4]!.fixTime],
        [2, rows(2, 100, 3)[2]!.fixTime],
      ]));
      expect(await store.latestFixTimes([])).toEqual(new Map());
    });

    it("inserts an empty batch as a no-op", async () => {
      await store.insert([]);
      expect(await store.count()).toBe(0);
    });

    it("takes a 50k-row batch in one insert", async () => {
      const big = Array.from({ length: 50_000 }, (_, i) =>
        row({ id: i + 1, deviceId: (i % 50) + 1, fixTime: T0 + i * 100, attributes: { sat: i % 12, ignition: i % 2 === 0 } }),
      );
      await store.insert(big);
      expect(await store.count()).toBe(50_000);
      expect(await store.count({ deviceId: 7 })).toBe(1000);
    });

    trackTotalsCases(() => store);
  });
}

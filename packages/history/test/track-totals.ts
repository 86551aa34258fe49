import type { HistoryRow } from "@fleet/contracts";
import { GroupStatus, segmentTrack } from "@fleet/trips";
import { TrackBuilder } from "@fleet/trips/testing";
import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../src/port.js";
import type { TrackTotals, TrackTotalsDevice } from "../src/track-totals.js";

/*
 * The engine's track totals against @fleet/trips' segmentTrack over the same stored rows:
 * general information reads the first, get_history and drives and stops the second, and the
 * two must never disagree. The limits are ones a Float32 holds (see track-totals.ts).
 */

const T0 = Date.UTC(2026, 2, 10, 6, 0, 0);
const DAY = 86_400_000;

interface Case {
  device: TrackTotalsDevice;
  rows: HistoryRow[];
}

/** Drives, stops long and short, a gap with no data parked (1 km in 15 minutes), and a stop at its end. */
function mixedDay(deviceId: number): Case {
  const b = new TrackBuilder(T0, { deviceId, firstId: deviceId * 100_000 });
  b.fix().drive(300).stand(600).drive(120, 95).stand(60).drive(300, 90).gap(900, 1).fix().drive(60, 97.25).stand(400);
  return { device: { deviceId, minMovingSpeedKmh: 6, hasEngineSensor: false }, rows: b.rows };
}

/** Reports every 4 minutes while driving (longer than a stop), with a tunnel, a parked spell asleep and an hour without data. */
function sparseDay(deviceId: number): Case {
  const b = new TrackBuilder(T0 + 5 * 3_600_000, { deviceId, firstId: deviceId * 100_000, everyS: 240 });
  b.fix().drive(2400).gap(600, 10).fix().drive(960, 95).gap(1200, 0.5).fix().drive(480).gap(3600, 70).fix().drive(960);
  return { device: { deviceId, minMovingSpeedKmh: 6, hasEngineSensor: false }, rows: b.rows };
}

/** GPS spikes driving and parked, a fix away for two fixes (driven, not a spike), and a spike as the last fix. */
function spikyDay(deviceId: number): Case {
  const b = new TrackBuilder(T0 + 9 * 3_600_000, { deviceId, firstId: deviceId * 100_000 });
  b.fix().drive(300).spike(33).drive(300).stand(600).spike(5, 0).stand(300).drive(120).spike(20).spike(20).drive(200).spike(40);
  return { device: { deviceId, minMovingSpeedKmh: 6, hasEngineSensor: false }, rows: b.rows };
}

/** A tracker that sends a heartbeat every 20 minutes while parked with the ignition off, drives off after 40 silent minutes, parks 2 minutes after its last moving fix, and drives off again already 600 m away at its first fix. */
function heartbeatDay(deviceId: number): Case {
  const parked = { speedKmh: 0, engineOn: false };
  const b = new TrackBuilder(T0 + 2 * 3_600_000, { deviceId, firstId: deviceId * 100_000 });
  b.fix().drive(600).stand(0, parked).gap(1200).fix(parked).gap(1200).fix(parked).gap(2400, 0.1).fix().drive(900).gap(120, 0.05).fix(parked).gap(1200).fix(parked);
  // Drives off 600 m before its first fix: 7.2 km/h over the silence, but it began parked with the ignition off.
  b.gap(300, 0.6).fix().drive(300);
  return { device: { deviceId, minMovingSpeedKmh: 6, hasEngineSensor: true }, rows: b.rows };
}

/** Starts standing (a short stop, but the range cut it), moves with the engine off, idles, a higher minimum speed, and two silent hours with the engine on at both ends. */
function engineDay(deviceId: number): Case {
  const b = new TrackBuilder(T0 + 3_600_000, { deviceId, firstId: deviceId * 100_000 });
  b.fix({ speedKmh: 0 }).stand(100).drive(200, 92).drive(100, 8).drive(100, 95).stand(300, { engineOn: false }).drive(120, 30, { engineOn: false }).stand(500).drive(60);
  // Two hours without data, the engine on at both ends: no engine time (ENGINE_STEP_MAX_MS).
  b.gap(7200, 1).fix().drive(60);
  return { device: { deviceId, minMovingSpeedKmh: 10, hasEngineSensor: true }, rows: b.rows };
}

/** Positions of one instant under a later id somewhere else, and a replayed batch: each counted once. */
function duplicatedDay(deviceId: number): Case {
  const { rows } = mixedDay(deviceId);
  const sameInstant = rows.filter((_, i) => i % 9 === 4).map((r) => ({ ...r, id: r.id + 50_000, latitude: r.latitude + 0.3, speedKmh: 140 }));
  return { device: { deviceId, minMovingSpeedKmh: 6, hasEngineSensor: false }, rows: [...rows, ...sameInstant] };
}

/** A random walk: speeds about every limit, gaps, engine flips; the same each run. */
function randomDays(deviceId: number, fixes: number): Case {
  let seed = deviceId * 7919;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const rows: HistoryRow[] = [];
  let t = T0;
  let lat = 50 + deviceId / 10;
  let lng = 20;
  let moving = true;
  for (let i = 0; i < fixes; i++) {
    const r = rand();
    t += r < 0.02 ? 200_000 + Math.floor(rand() * 900_000) : 1_000 * (5 + Math.floor(rand() * 20));
    if (rand() < 0.05) moving = !moving;
    const speedKmh = moving ? [5, 6, 7.5, 40, 89.5, 90, 90.5, 120][Math.floor(rand() * 8)]! : rand() < 0.8 ? 0 : 3;
    lat += moving ? (rand() - 0.3) * 0.002 : (rand() - 0.5) * 0.00001;
    lng += moving ? (rand() - 0.3) * 0.002 : (rand() - 0.5) * 0.00001;
    rows.push({ id: deviceId * 100_000 + i, deviceId, uniqueId: `r${deviceId}`, protocol: "osmand", latitude: lat, longitude: lng, altitude: 0, course: 0, speedKmh, distanceKm: 0, fixTime: t, serverTime: t, valid: true, engineOn: rand() < 0.85, attributes: {} });
  }
  return { device: { deviceId, minMovingSpeedKmh: 6, hasEngineSensor: deviceId % 2 === 0 }, rows };
}

/** What segmentTrack makes of the rows, as the engine's totals name it. */
function segmented(rows: readonly HistoryRow[], device: TrackTotalsDevice, minStopMs: number, limitKmh: number): TrackTotals {
  const seg = segmentTrack(rows, { minMovingSpeedKmh: device.minMovingSpeedKmh, hasEngineSensor: device.hasEngineSensor, minStopMs });
  const above = seg.points.map((p) => p.speedKmh > limitKmh);
  return {
    fixes: seg.points.length,
    startMs: seg.points[0]!.fixTime,
    endMs: seg.points.at(-1)!.fixTime,
    distanceKm: seg.totals.distanceKm,
    driveMs: seg.totals.driveMs,
    stopMs: seg.totals.stopMs,
    stops: seg.groups.filter((g) => g.status === GroupStatus.stop).length,
    topSpeedKmh: seg.totals.topSpeedKmh,
    overspeeds: above.filter((a, i) => a && (i === 0 || !above[i - 1])).length,
    engineWorkMs: seg.totals.engineWorkMs,
    engineIdleMs: seg.totals.engineIdleMs,
    groups: seg.groups
      .filter((g) => g.status === GroupStatus.drive || g.status === GroupStatus.stop)
      .map((g) => ({
        status: g.status === GroupStatus.drive ? "drive" : "stop",
        startMs: g.startMs,
        endMs: g.endMs,
        distanceKm: g.distanceKm,
        topSpeedKmh: g.topSpeedKmh,
        engineWorkMs: g.engineWorkMs,
        engineIdleMs: g.engineIdleMs,
        latitude: seg.points[g.first]!.latitude,
        longitude: seg.points[g.first]!.longitude,
      })),
  };
}

function expectAgreement(got: TrackTotals | undefined, want: TrackTotals): void {
  expect(got).toBeDefined();
  const { distanceKm, groups, ...rest } = got!;
  const { distanceKm: wantKm, groups: wantGroups, ...wantRest } = want;
  expect(rest).toEqual(wantRest);
  expect(distanceKm).toBeCloseTo(wantKm, 9);
  expect(groups.map((g) => ({ ...g, distanceKm: g.distanceKm.toFixed(9) }))).toEqual(wantGroups.map((g) => ({ ...g, distanceKm: g.distanceKm.toFixed(9) })));
  expect(wantGroups.length).toBeGreaterThan(0);
}

export function trackTotalsCases(store: () => HistoryStore): void {
  describe("track totals", () => {
    const range = { fromMs: T0 - DAY, toMs: T0 + 40 * DAY };

    it("agree with segmentTrack over the stored rows, trusting the read order or sorting first", async () => {
      const cases = [mixedDay(1), engineDay(2), duplicatedDay(3), randomDays(4, 3000), randomDays(5, 3000), sparseDay(6), spikyDay(7), heartbeatDay(8)];
      // Out of order, in two batches, and one batch replayed.
      const all = cases.flatMap((c) => c.rows);
      const shuffled = all.map((r, i) => ({ r, k: (i * 7919) % all.length })).sort((a, b) => a.k - b.k).map((x) => x.r);
      await store().insert(shuffled.slice(0, 4000));
      await store().insert(shuffled.slice(4000));
      await store().insert(shuffled.slice(0, 500));
      expect(cases[0]!.rows.some((r) => r.speedKmh > 90)).toBe(true);

      for (const [minStopMs, limit] of [[180_000, 90], [300_000, 95], [3_600_000, 90]] as const) {
        for (const sortFirst of [false, true]) {
          const got = await store().trackTotals({ devices: cases.map((c) => c.device), ...range, minStopMs, speedLimitKmh: limit, sortFirst, groups: true });
          for (const c of cases) {
            const stored = await store().query({ deviceId: c.device.deviceId, ...range });
            expectAgreement(got.get(c.device.deviceId), segmented(stored, c.device, minStopMs, limit));
          }
        }
      }
    });

    it("counts a whole stop and drive for the hand-made day", async () => {
      const day = mixedDay(1);
      await store().insert(day.rows);
      const got = (await store().trackTotals({ devices: [day.device], ...range, minStopMs: 180_000, speedLimitKmh: 90, groups: true })).get(1)!;
      expect((await store().trackTotals({ devices: [day.device], ...range, minStopMs: 180_000, speedLimitKmh: 90 })).get(1)).toEqual({ ...got, groups: [] });
      // Stops: 10 min, the 15 min gap, the 400 s at the end; the 60 s one stays in its drive.
      expect(got.stops).toBe(3);
      expect(got.stopMs).toBe(600_000 + 900_000 + 400_000);
      expect(got.overspeeds).toBe(2);
      expect(got.topSpeedKmh).toBe(97.25);
      expect(got.driveMs + got.stopMs).toBe(got.endMs - got.startMs);
      expect(got.groups.map((g) => [g.status, (g.endMs - g.startMs) / 1000])).toEqual([
        // Each stop begins at its first standing fix, 10 s after the drive's last moving one.
        ["drive", 300 + 10],
        ["stop", 600],
        ["drive", 120 + 60 + 300 + 10],
        ["stop", 900],
        ["drive", 60 + 10],
        ["stop", 400],
      ]);
    });

    it("leaves out devices with no fix in the range, and answers a single fix as one instant", async () => {
      const one = new TrackBuilder(T0, { deviceId: 8, firstId: 800 }).fix({ speedKmh: 0 }).rows;
      await store().insert([...one, ...new TrackBuilder(T0 + 60 * DAY, { deviceId: 9, firstId: 900 }).fix().drive(60).rows]);
      const devices = [8, 9, 10].map((deviceId) => ({ deviceId, minMovingSpeedKmh: 6, hasEngineSensor: false }));
      const got = await store().trackTotals({ devices, ...range, minStopMs: 180_000, speedLimitKmh: 90, groups: true });
      expect([...got.keys()]).toEqual([8]);
      expect(got.get(8)).toMatchObject({ fixes: 1, stops: 1, stopMs: 0, driveMs: 0, distanceKm: 0, startMs: T0, endMs: T0 });
      expect(got.get(8)!.groups).toEqual([{ status: "stop", startMs: T0, endMs: T0, distanceKm: 0, topSpeedKmh: 0, engineWorkMs: 0, engineIdleMs: 0, latitude: 54, longitude: 25 }]);
      expect(await store().trackTotals({ devices: [], ...range, minStopMs: 180_000, speedLimitKmh: 90 })).toEqual(new Map());
    });
  });
}

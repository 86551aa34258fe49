import type { HistoryRow } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { segmentTrack } from "./segment.js";
import { TrackBuilder } from "./testing.js";
import { GroupStatus, type Group, type SegmentOptions } from "./types.js";

/*
 * Constructed tracks with known answers, checked group by group. The builder reports
 * every 10 s; see TrackBuilder for what drive / stand / gap write.
 */

const T0 = Date.UTC(2026, 2, 10, 8, 0, 0);
const OPTS: SegmentOptions = { minMovingSpeedKmh: 6, hasEngineSensor: true };
const { start, drive, stop, end } = GroupStatus;

/** A group as the tests compare it: whole seconds, km to the metre. */
function shown(g: Group) {
  return {
    status: g.status,
    first: g.first,
    last: g.last,
    s: g.durationMs / 1000,
    km: Math.round(g.distanceKm * 1000) / 1000,
    top: g.topSpeedKmh,
    work: g.engineWorkMs / 1000,
    idle: g.engineIdleMs / 1000,
  };
}

const groupsOf = (rows: HistoryRow[], opts: Partial<SegmentOptions> = {}) => segmentTrack(rows, { ...OPTS, ...opts }).groups.map(shown);
const marker = (status: number, at: number) => ({ status, first: at, last: at, s: 0, km: 0, top: 0, work: 0, idle: 0 });

/** Drive 5 min, stand 10 min with the engine running, drive 5 min: fixes 0–30, 31–91, 92–121. */
const tenMinuteStop = () => new TrackBuilder(T0).fix().drive(300).stand(600).drive(300).rows;

describe("segmentTrack", () => {
  it("makes one drive of a drive", () => {
    const seg = segmentTrack(new TrackBuilder(T0).fix().drive(600).rows, OPTS);
    expect(seg.groups.map(shown)).toEqual([marker(start, 0), { status: drive, first: 0, last: 60, s: 600, km: 10, top: 60, work: 600, idle: 0 }, marker(end, 60)]);
    expect(seg.groups[1]!.averageSpeedKmh).toBeCloseTo(60, 9);
    expect(seg.totals).toMatchObject({ driveMs: 600_000, stopMs: 0, topSpeedKmh: 60 });
    expect(seg.totals.distanceKm).toBeCloseTo(10, 9);
  });

  it("keeps a 2-minute traffic stop inside the drive, its standing time counted as engine idle", () => {
    // Fixes 0–30 driving, 31–43 standing (120 s between the first and last), 44–73 driving.
    const seg = segmentTrack(new TrackBuilder(T0).fix().drive(300).stand(120).drive(300).rows, OPTS);
    expect(seg.groups.map(shown)).toEqual([marker(start, 0), { status: drive, first: 0, last: 73, s: 730, km: 10, top: 60, work: 610, idle: 120 }, marker(end, 73)]);
    expect(seg.groups[1]!.averageSpeedKmh).toBeCloseTo(10 / (730 / 3600), 9);
  });

  it("makes a 10-minute stop a stop, sharing its first and last fix with the drives beside it", () => {
    const seg = segmentTrack(tenMinuteStop(), OPTS);
    expect(seg.groups.map(shown)).toEqual([
      marker(start, 0),
      { status: drive, first: 0, last: 31, s: 310, km: 5, top: 60, work: 310, idle: 0 },
      { status: stop, first: 31, last: 91, s: 600, km: 0, top: 0, work: 0, idle: 600 },
      { status: drive, first: 91, last: 121, s: 300, km: 5, top: 60, work: 300, idle: 0 },
      marker(end, 121),
    ]);
    expect(seg.totals).toMatchObject({ driveMs: 610_000, stopMs: 600_000, engineIdleMs: 600_000, engineWorkMs: 610_000, engineHoursMs: 1_210_000 });
    expect(seg.groups.map((g) => [g.startMs - T0, g.endMs - T0])).toEqual([
      [0, 0],
      [0, 310_000],
      [310_000, 910_000],
      [910_000, 1_210_000],
      [1_210_000, 1_210_000],
    ]);
  });

  it("turns a spell into a stop at exactly the minimum stop length, and follows `stops`", () => {
    const spell = (s: number) => new TrackBuilder(T0).fix().drive(300).stand(s).drive(300).rows;
    expect(groupsOf(spell(170)).map((g) => g.status)).toEqual([start, drive, end]);
    expect(groupsOf(spell(180)).map((g) => [g.status, g.s])).toEqual([
      [start, 0],
      [drive, 310],
      [stop, 180],
      [drive, 300],
      [end, 0],
    ]);
    // With stops = 60 s the 2-minute traffic stop is a stop.
    expect(groupsOf(spell(120), { minStopMs: 60_000 }).map((g) => [g.status, g.s])).toEqual([
      [start, 0],
      [drive, 310],
      [stop, 120],
      [drive, 300],
      [end, 0],
    ]);
  });

  /** Fixes 0–30 driving up to 300 s, no data for `seconds` over `km`, then fix 31 and 32–61 driving on. */
  const aroundGap = (seconds: number, km = 0) => new TrackBuilder(T0).fix().drive(300).gap(seconds, km).fix().drive(300).rows;
  /** What aroundGap makes when its gap is a stop. The fixes around the gap are moving ones, so the stop's top speed counts neither; the engine ran at both ends, so the gap is engine time, as the tracker counts it. */
  const gapStop = (seconds: number, km = 0) => [
    marker(start, 0),
    { status: drive, first: 0, last: 30, s: 300, km: 5, top: 60, work: 300, idle: 0 },
    { status: stop, first: 30, last: 31, s: seconds, km, top: 0, work: 0, idle: seconds },
    { status: drive, first: 31, last: 61, s: 300, km: 5, top: 60, work: 300, idle: 0 },
    marker(end, 61),
  ];

  it("ends a drive at a gap with no data longer than a stop, the gap being the stop", () => {
    expect(groupsOf(aroundGap(600))).toEqual(gapStop(600));
    // A gap shorter than a stop between moving fixes stays in the drive.
    const short = aroundGap(120, 2);
    expect(groupsOf(short)).toEqual([marker(start, 0), { status: drive, first: 0, last: 61, s: 720, km: 12, top: 60, work: 720, idle: 0 }, marker(end, 61)]);
  });

  it("drives through a gap longer than a stop that the device crossed faster than it moves", () => {
    // A tracker that reports every 2 minutes while driving, cut with one-minute stops (a report's default).
    const sparse = new TrackBuilder(T0, { everyS: 120 }).fix().drive(1200).rows;
    expect(groupsOf(sparse, { minStopMs: 60_000 })).toEqual([marker(start, 0), { status: drive, first: 0, last: 10, s: 1200, km: 20, top: 60, work: 1200, idle: 0 }, marker(end, 10)]);
    // 10 minutes without data, 10 km further on (60 km/h): a tunnel, not a stop.
    expect(groupsOf(aroundGap(600, 10))).toEqual([marker(start, 0), { status: drive, first: 0, last: 61, s: 1200, km: 20, top: 60, work: 1200, idle: 0 }, marker(end, 61)]);
    // 10 minutes, 0.5 km further on (3 km/h, under the 6 km/h minimum): parked while the tracker slept.
    expect(groupsOf(aroundGap(600, 0.5))).toEqual(gapStop(600, 0.5));
    // An hour or more without data is a stop however far the device went (Traccar's stopGap).
    expect(groupsOf(aroundGap(3600, 60))).toEqual(gapStop(3600, 60));
    // Past an hour, what the engine did is unknown: no engine time, though it ran at both ends.
    expect(groupsOf(aroundGap(7200, 60))).toEqual(gapStop(7200, 60).map((g) => (g.status === stop ? { ...g, idle: 0 } : g)));
  });

  it("starts and ends a drive at its moving fixes when the tracker only sends a heartbeat while parked", () => {
    // Parked with the ignition off from fix 61, a heartbeat every 20 minutes (62–64), silent for 40
    // minutes while still parked, then fix 65 already driving; at the end, 40 minutes of silence
    // 100 m on and a parked heartbeat (fix 246).
    const parked = { speedKmh: 0, engineOn: false };
    const b = new TrackBuilder(T0).fix().drive(600).stand(0, parked);
    for (let i = 0; i < 3; i++) b.gap(1200).fix(parked);
    const rows = b.gap(2400, 0.1).fix().drive(1800).gap(2400, 0.1).fix(parked).rows;
    const hourStops = groupsOf(rows, { minStopMs: 3_600_000 });
    expect(hourStops.map((g) => [g.status, g.first, g.last, g.s, g.km])).toEqual([
      [start, 0, 0, 0, 0],
      [drive, 0, 61, 610, 10],
      // The silence before fix 65 is part of the stop, however long a stop must be: the drive began at 65, not at the last heartbeat.
      [stop, 61, 65, 6000, 0.1],
      [drive, 65, 245, 1800, 30],
      [stop, 245, 246, 2400, 0.1],
      [end, 246, 246, 0, 0],
    ]);
    expect(groupsOf(rows, { minStopMs: 300_000 }).map((g) => [g.status, g.first, g.last])).toEqual(hourStops.map((g) => [g.status, g.first, g.last]));
  });

  it("starts a drive at its first fix when it began parked with the ignition off, however far that fix is", () => {
    // A heartbeat at 0-1 (ignition off), 5 silent minutes, then fix 2 driving 600 m away (7.2 km/h over the silence, above 6).
    const parked = { speedKmh: 0, engineOn: false };
    const rows = new TrackBuilder(T0).fix(parked).gap(300).fix(parked).gap(300, 0.6).fix().drive(300).rows;
    expect(groupsOf(rows, { minStopMs: 3_600_000 }).map((g) => [g.status, g.first, g.last, g.s])).toEqual([
      [start, 0, 0, 0],
      [stop, 0, 2, 600],
      [drive, 2, 32, 300],
      [end, 32, 32, 0],
    ]);
    // Without an engine sensor nothing says it was parked: the silence crossed above the minimum speed is driven.
    expect(groupsOf(rows, { minStopMs: 3_600_000, hasEngineSensor: false }).map((g) => [g.status, g.first, g.last])).toEqual([
      [start, 0, 0],
      [stop, 0, 1],
      [drive, 1, 32],
      [end, 32, 32],
    ]);
  });

  it("makes a stop of a spell parked with the ignition off, whatever the GPS speed says, with no engine time", () => {
    // GPS drift of 8 km/h while parked, above the 6 km/h minimum, but the ignition is off.
    const rows = new TrackBuilder(T0).fix().drive(300).stand(1200, { engineOn: false, speedKmh: 8 }).drive(300).rows;
    expect(groupsOf(rows)).toEqual([
      marker(start, 0),
      // The step into the parked spell has the engine off at one end: not engine time.
      { status: drive, first: 0, last: 31, s: 310, km: 5, top: 60, work: 300, idle: 0 },
      { status: stop, first: 31, last: 151, s: 1200, km: 0, top: 8, work: 0, idle: 0 },
      { status: drive, first: 151, last: 181, s: 300, km: 5, top: 60, work: 290, idle: 0 },
      marker(end, 181),
    ]);
    // A device without an engine sensor has only its speed to go by: the drift is driving.
    expect(groupsOf(rows, { hasEngineSensor: false }).map((g) => g.status)).toEqual([start, drive, end]);
  });

  it("adds no distance for a GPS spike, driving or parked, measuring across it from the fix before", () => {
    const clean = new TrackBuilder(T0).fix().drive(300).drive(10).drive(300).stand(600).stand(0).stand(300).rows;
    const spiky = new TrackBuilder(T0).fix().drive(300).spike(33).drive(300).stand(600).spike(5, 0).stand(300).rows;
    expect(spiky.map((r) => r.fixTime)).toEqual(clean.map((r) => r.fixTime));
    const [a, b] = [segmentTrack(clean, OPTS), segmentTrack(spiky, OPTS)];
    expect(b.totals.distanceKm).toBeCloseTo(a.totals.distanceKm, 9);
    expect(b.groups.map(shown).map((g) => [g.status, g.km])).toEqual(a.groups.map(shown).map((g) => [g.status, g.km]));
    // Drives' average speeds stay under their top speeds.
    for (const g of b.groups) if (g.status === drive) expect(g.averageSpeedKmh).toBeLessThanOrEqual(g.topSpeedKmh + 1e-9);
  });

  it("counts a fix away for two fixes, or one at the end of the track, as driven: only a lone spike is left out", () => {
    const km = (rows: HistoryRow[]) => segmentTrack(rows, OPTS).totals.distanceKm;
    // Out 33 km and back, each way one 10 s step of the drive further on than the fix before it.
    expect(km(new TrackBuilder(T0).fix().drive(300).spike(33).spike(33).drive(300).rows) - km(new TrackBuilder(T0).fix().drive(300).drive(20).drive(300).rows)).toBeCloseTo(66 - 1 / 3, 6);
    expect(km(new TrackBuilder(T0).fix().drive(300).spike(33).rows) - km(new TrackBuilder(T0).fix().drive(310).rows)).toBeCloseTo(33, 6);
  });

  it("gives the same groups for positions that arrived out of order", () => {
    const rows = tenMinuteStop();
    const shuffled = rows.map((r, i) => ({ r, key: (i * 7919) % rows.length })).sort((a, b) => a.key - b.key).map((x) => x.r);
    expect(shuffled).not.toEqual(rows);
    expect(segmentTrack(shuffled, OPTS)).toEqual(segmentTrack(rows, OPTS));
  });

  it("counts a position written twice, or two positions of one instant, once", () => {
    const rows = tenMinuteStop();
    const again = rows.filter((_, i) => i % 5 === 0);
    // Same fix times under new ids, somewhere else: the lower id (the first written) is kept.
    const sameInstant = rows.filter((_, i) => i % 7 === 0).map((r) => ({ ...r, id: r.id + 10_000, latitude: r.latitude + 0.5 }));
    const seg = segmentTrack([...sameInstant, ...rows, ...again], OPTS);
    expect(seg.points).toEqual(rows);
    expect(seg).toEqual(segmentTrack(rows, OPTS));
  });

  it("cuts a track crossing midnight only where the vehicle stopped", () => {
    const t = Date.UTC(2026, 2, 10, 23, 50, 0);
    // Drives 23:50–23:55, stands until 00:05 (across midnight), drives until 00:10.
    const seg = segmentTrack(new TrackBuilder(t).fix().drive(300).stand(600).drive(300).rows, OPTS);
    expect(seg.groups.map((g) => [g.status, new Date(g.startMs).toISOString().slice(11, 19), new Date(g.endMs).toISOString().slice(11, 19)])).toEqual([
      [start, "23:50:00", "23:50:00"],
      [drive, "23:50:00", "23:55:10"],
      [stop, "23:55:10", "00:05:10"],
      [drive, "00:05:10", "00:10:10"],
      [end, "00:10:10", "00:10:10"],
    ]);
    const across = segmentTrack(new TrackBuilder(t).fix().drive(1200).rows, OPTS);
    expect(across.groups.map(shown)[1]).toEqual({ status: drive, first: 0, last: 120, s: 1200, km: 20, top: 60, work: 1200, idle: 0 });
  });

  it("makes a stop of standing at either end of the track, however short", () => {
    const rows = new TrackBuilder(T0).fix({ speedKmh: 0 }).stand(50).drive(300).stand(30).rows;
    expect(groupsOf(rows).map((g) => [g.status, g.first, g.last, g.s])).toEqual([
      [start, 0, 0, 0],
      [stop, 0, 6, 60],
      [drive, 6, 37, 310],
      [stop, 37, 40, 30],
      [end, 40, 40, 0],
    ]);
  });

  it("answers a single fix with start, one group and end, and an empty track with nothing", () => {
    expect(groupsOf(new TrackBuilder(T0).fix({ speedKmh: 0 }).rows).map((g) => g.status)).toEqual([start, stop, end]);
    expect(groupsOf(new TrackBuilder(T0).fix().rows).map((g) => g.status)).toEqual([start, drive, end]);
    expect(segmentTrack([], OPTS).groups).toEqual([]);
  });

  it("takes engine hours from an engine-hours sensor where it reads", () => {
    const rows = tenMinuteStop();
    // A counter that runs at half the clock while the engine runs; no reading on fix 40.
    const hoursAt = (r: HistoryRow) => (r.id === 41 ? null : (r.fixTime - T0) / 3_600_000 / 2);
    const g = segmentTrack(rows, { ...OPTS, engineHoursAt: hoursAt }).groups;
    const s = (ms: number) => Math.round(ms) / 1000;
    expect(g.map((x) => [x.status, s(x.engineWorkMs), s(x.engineIdleMs), s(x.engineHoursMs)])).toEqual([
      [start, 0, 0, 0],
      [drive, 155, 0, 155],
      // The two steps around fix 40 fall back to the engine state: 2 × 10 s in full.
      [stop, 0, 310, 310],
      [drive, 150, 0, 150],
      [end, 0, 0, 0],
    ]);
  });

  it("sums fuel used from a fuel level sensor, leaving fillings, thefts and sensor noise out", () => {
    const rows = tenMinuteStop();
    // 1 l a minute while driving, a 40 l filling and a 20 l theft in the stop (idling: each in
    // one step), ±0.2 l of noise while standing, and a 6 l fall in one step of the second drive,
    // over the 5 l theft threshold: a theft as the alert and the fuel thefts report find it.
    const levelAt = (r: HistoryRow) => {
      const i = r.id - 1;
      const used = Math.min(i, 31) * (1 / 6) + Math.max(0, i - 91) * (1 / 6) + (i >= 100 ? 6 : 0);
      return 100 - used + (i >= 60 ? 40 : 0) - (i >= 75 ? 20 : 0) + (i > 31 && i < 91 ? (i % 2 ? 0.2 : -0.2) : 0);
    };
    const seg = segmentTrack(rows, { ...OPTS, fuel: { levelAt, minFilling: 5, minTheft: 5 } });
    expect(seg.groups.map((g) => Math.round(g.fuelConsumed * 1000) / 1000)).toEqual([0, 31 / 6, 0, 29 / 6, 0].map((x) => Math.round(x * 1000) / 1000));
    // The theft's step holds a sixth of a litre burnt too, which goes with it.
    expect(seg.totals.fuelConsumed).toBeCloseTo(60 / 6, 9);
  });

  it("leaves out fuel siphoned over many fixes of a stop with the engine off, as the fuel thefts report finds it", () => {
    // 1 l a minute driving; parked with the engine off, 2 l siphoned a fix for ten fixes (20 l), then a 12 l filling in 3 l steps.
    const rows = new TrackBuilder(T0).fix().drive(300).stand(600, { engineOn: false }).drive(300).rows;
    const parked = rows.filter((r) => r.speedKmh === 0 && !r.engineOn).map((r) => r.id);
    const at = (id: number) => parked.indexOf(id);
    const levelAt = (r: HistoryRow) => {
      const i = r.id - 1;
      const driven = Math.min(i, 31) * (1 / 6) + Math.max(0, i - 92) * (1 / 6);
      const p = at(r.id);
      const stop = r.id > parked.at(-1)! ? 20 - 12 : p < 0 ? 0 : Math.min(Math.max(0, p - 5), 10) * 2 - Math.min(Math.max(0, p - 30), 4) * 3;
      return 100 - driven - stop;
    };
    const seg = segmentTrack(rows, { ...OPTS, fuel: { levelAt, minFilling: 10, minTheft: 10 } });
    const [, first, stop, second] = seg.groups;
    expect(stop!.fuelConsumed).toBeCloseTo(0, 9);
    expect(first!.fuelConsumed + second!.fuelConsumed).toBeCloseTo(seg.totals.fuelConsumed, 9);
    expect(seg.totals.fuelConsumed).toBeLessThan(12);
  });

  it("leaves out a filling and a siphoning in the same stop, in either order", () => {
    // Parked with the engine off: +30 l in one fix, then 2 l siphoned a fix for ten fixes (or the other way round).
    for (const fillFirst of [true, false]) {
      const rows = new TrackBuilder(T0).fix().drive(300).stand(600, { engineOn: false }).drive(300).rows;
      const parked = rows.filter((r) => r.speedKmh === 0 && !r.engineOn).map((r) => r.id);
      const levelAt = (r: HistoryRow) => {
        const driven = rows.filter((x) => x.id <= r.id && x.speedKmh > 0).length * 0.2;
        const p = r.id > parked.at(-1)! ? parked.length : parked.indexOf(r.id);
        if (p < 0) return 60 - driven;
        const filled = p >= (fillFirst ? 2 : 30) ? 30 : 0;
        const siphoned = Math.min(Math.max(0, p - (fillFirst ? 6 : 2)), 10) * 2;
        return 60 - driven + filled - siphoned;
      };
      const seg = segmentTrack(rows, { ...OPTS, fuel: { levelAt, minFilling: 10, minTheft: 10 } });
      const driving = rows.filter((x) => x.speedKmh > 0).length - 1;
      expect(seg.totals.fuelConsumed, fillFirst ? "fill, then siphon" : "siphon, then fill").toBeCloseTo(driving * 0.2, 6);
    }
  });

  it("measures a siphoning from the stop's first fix, wherever in the stop it starts", () => {
    // Driving 0.2 l a fix; parked with the engine off, 2 l a fix for ten fixes from the k-th parked fix; driving again.
    for (const k of [0, 1, 2, 9]) {
      const rows = new TrackBuilder(T0).fix().drive(300).stand(600, { engineOn: false }).drive(300).rows;
      const parked = rows.filter((r) => r.speedKmh === 0 && !r.engineOn).map((r) => r.id);
      const levelAt = (r: HistoryRow) => {
        const driven = rows.filter((x) => x.id <= r.id && x.speedKmh > 0).length * 0.2;
        const p = parked.indexOf(r.id);
        const siphoned = (p < 0 ? (r.id > parked.at(-1)! ? 10 : 0) : Math.min(Math.max(0, p - k + 1), 10)) * 2;
        return 100 - driven - siphoned;
      };
      const seg = segmentTrack(rows, { ...OPTS, fuel: { levelAt, minFilling: 10, minTheft: 10 } });
      const driving = rows.filter((x) => x.speedKmh > 0).length - 1;
      // The first fix of a siphoning that starts the stop is measured from the move's last level, as report 12 does.
      expect(seg.totals.fuelConsumed, `from parked fix ${k}`).toBeCloseTo(driving * 0.2 + (k === 0 ? 2 : 0), 6);
    }
  });

  it("names the driver card in effect when a group starts, else the first one read in it", () => {
    const rows = tenMinuteStop().map((r) => (r.id === 50 ? { ...r, attributes: { rfid: "CARD-B" } } : r.id === 10 ? { ...r, attributes: { rfid: "CARD-A" } } : r));
    const driverKeyAt = (r: HistoryRow) => (typeof r.attributes.rfid === "string" ? r.attributes.rfid : null);
    expect(segmentTrack(rows, { ...OPTS, driverKeyAt }).groups.map((g) => g.driverKey)).toEqual([null, "CARD-A", "CARD-A", "CARD-B", "CARD-B"]);
  });
});

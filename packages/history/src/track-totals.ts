import type { HistoryDriver } from "./driver.js";
import { checkEpochMs, checkUint } from "./filter.js";
import { toSafeNumber } from "./rows.js";
import { trackCutSql } from "./track-cut-sql.js";

/*
 * A track's totals and its drives and stops, worked out by the engine without its rows
 * leaving it: what general information and drives and stops need of a fleet's month, which
 * would otherwise be millions of rows decoded and cut in JS. The cut is @fleet/trips'
 * segmentTrack, step for step (the history contract checks the two agree), so a report's
 * totals match get_history's groups:
 *
 * - fixes in time order, one per instant (the lowest id);
 * - a fix moves when its speed is above the device's minimum and, for a device with an
 *   engine sensor, its engine runs;
 * - step k stands when it is longer than a stop or neither end moves; each run of standing
 *   steps is a stop when it lasts `minStopMs` or touches either end of the track;
 * - engine time is a step's length when the engine ran at both ends, idle when it stands;
 * - an overspeed is each run of fixes above the limit.
 *
 * What needs a sensor's formula (engine-hours counters, fuel levels) is not here: a device
 * with such a sensor is cut in JS.
 */

export interface TrackTotalsDevice {
  deviceId: number;
  /** km/h: a fix moves only above it. */
  minMovingSpeedKmh: number;
  /** The device tells its engine by a sensor: a fix moves only with its engine on. */
  hasEngineSensor: boolean;
}

export interface TrackTotalsQuery {
  devices: readonly TrackTotalsDevice[];
  fromMs: number;
  toMs: number;
  minStopMs: number;
  /** km/h; runs of fixes above it are counted. */
  speedLimitKmh: number;
  /** Also each device's drives and stops (a third more work). */
  groups?: boolean;
  /** Sort each track in the engine rather than first trust the order it reads them in (see track-cut-sql.ts): the same answer, slower. */
  sortFirst?: boolean;
}

/** A drive or a stop as segmentTrack's groups give it, with where it began. */
export interface TrackGroup {
  status: "drive" | "stop";
  startMs: number;
  endMs: number;
  distanceKm: number;
  /** A stop's counts only its standing fixes. */
  topSpeedKmh: number;
  engineWorkMs: number;
  engineIdleMs: number;
  /** The group's first fix. */
  latitude: number;
  longitude: number;
}

/** segmentTrack's totals of one device's track, with its stop count and overspeeds, and its drives and stops. */
export interface TrackTotals {
  /** Fixes, one per instant. */
  fixes: number;
  startMs: number;
  endMs: number;
  distanceKm: number;
  driveMs: number;
  stopMs: number;
  stops: number;
  topSpeedKmh: number;
  overspeeds: number;
  engineWorkMs: number;
  engineIdleMs: number;
  /** Drives and stops in time order (no start and end markers); empty unless asked for. */
  groups: TrackGroup[];
}

type Int = string | number;

interface TotalsRow {
  device_id: string | number;
  in_order: boolean | number;
  fixes: string | number;
  start_ms: string | number;
  end_ms: string | number;
  distance_km: number;
  top_speed: number;
  overspeeds: string | number;
  engine_idle_ms: string | number;
  engine_work_ms: string | number;
  stops: string | number;
  stop_ms: string | number;
  // The groups' columns come only when asked for (trackCutSql's `groups`).
  g_status?: Int[];
  g_start_ms?: Int[];
  g_end_ms?: Int[];
  g_km?: number[];
  g_top?: number[];
  g_idle_ms?: Int[];
  g_work_ms?: Int[];
  g_latitude?: number[];
  g_longitude?: number[];
}

function groupsOf(r: TotalsRow): TrackGroup[] {
  const { g_status, g_start_ms, g_end_ms, g_km, g_top, g_idle_ms, g_work_ms, g_latitude, g_longitude } = r;
  if (!g_status || !g_start_ms || !g_end_ms || !g_km || !g_top || !g_idle_ms || !g_work_ms || !g_latitude || !g_longitude) return [];
  return g_status.map((status, i) => ({
    status: toSafeNumber(status) === 1 ? "drive" : "stop",
    startMs: toSafeNumber(g_start_ms[i]!),
    endMs: toSafeNumber(g_end_ms[i]!),
    distanceKm: g_km[i]!,
    topSpeedKmh: g_top[i]!,
    engineWorkMs: toSafeNumber(g_work_ms[i]!),
    engineIdleMs: toSafeNumber(g_idle_ms[i]!),
    latitude: g_latitude[i]!,
    longitude: g_longitude[i]!,
  }));
}

function totalsOf(r: TotalsRow): TrackTotals {
  const startMs = toSafeNumber(r.start_ms);
  const endMs = toSafeNumber(r.end_ms);
  const stopMs = toSafeNumber(r.stop_ms);
  return {
    fixes: toSafeNumber(r.fixes),
    startMs,
    endMs,
    distanceKm: r.distance_km,
    // Drives fill the time between stops, so the two make up the whole track.
    driveMs: endMs - startMs - stopMs,
    stopMs,
    stops: toSafeNumber(r.stops),
    topSpeedKmh: r.top_speed,
    overspeeds: toSafeNumber(r.overspeeds),
    engineWorkMs: toSafeNumber(r.engine_work_ms),
    engineIdleMs: toSafeNumber(r.engine_idle_ms),
    groups: groupsOf(r),
  };
}

/** Each device's track totals over the range; a device without a fix there is absent. */
export async function trackTotals(driver: HistoryDriver, db: string, q: TrackTotalsQuery): Promise<Map<number, TrackTotals>> {
  const out = new Map<number, TrackTotals>();
  if (q.devices.length === 0) return out;
  for (const d of q.devices) {
    checkUint("deviceId", d.deviceId);
    if (!Number.isFinite(d.minMovingSpeedKmh)) throw new RangeError(`minimum moving speed of device ${d.deviceId} is not a number`);
  }
  if (!Number.isFinite(q.speedLimitKmh) || !Number.isSafeInteger(q.minStopMs) || q.minStopMs < 0) throw new RangeError("speed limit and minimum stop must be finite, the stop whole ms");
  const range = { fromMs: checkEpochMs("fromMs", q.fromMs), toMs: checkEpochMs("toMs", q.toMs) };
  const pass = async (devices: readonly TrackTotalsDevice[], sorted: boolean) => {
    const rows = await driver.select<TotalsRow>(trackCutSql(db, sorted, q.groups === true), {
      devices: devices.map((d) => d.deviceId),
      minSpeeds: devices.map((d) => d.minMovingSpeedKmh),
      sensed: devices.map((d) => (d.hasEngineSensor ? 1 : 0)),
      minStopMs: q.minStopMs,
      speedLimitKmh: q.speedLimitKmh,
      ...range,
    });
    const unsorted = new Set<number>();
    for (const r of rows) {
      const id = toSafeNumber(r.device_id);
      if (r.in_order === true || r.in_order === 1) out.set(id, totalsOf(r));
      else unsorted.add(id);
    }
    return devices.filter((d) => unsorted.has(d.deviceId));
  };
  const sortFirst = q.sortFirst === true;
  const again = await pass(q.devices, sortFirst);
  if (again.length > 0 && !sortFirst) await pass(again, true);
  return out;
}

import type { HistoryDriver } from "./driver.js";
import { checkEpochMs, checkUint } from "./filter.js";
import { toSafeNumber } from "./rows.js";

/*
 * A track's totals worked out by the engine, without its rows leaving it: what general
 * information needs of a fleet's month, which would otherwise be millions of rows decoded
 * and cut in JS. The cut is @fleet/trips' segmentTrack, step for step (the history contract
 * checks the two agree), so a report's totals match get_history's groups:
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
  /** Sort each track in the engine rather than first trust the order it reads them in (see `fixes`): the same answer, slower. */
  sortFirst?: boolean;
}

/** segmentTrack's totals of one device's track, with its stop count and overspeeds. */
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
}

const RANGE = (db: string) => `FROM ${db}.positions FINAL
WHERE device_id IN {devices:Array(UInt64)}
  AND fix_time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
  AND fix_time <= fromUnixTimestamp64Milli({toMs:Int64}, 'UTC')
GROUP BY device_id`;

/**
 * Each device's fixes as arrays of their columns, in time order then id. The engine reads a
 * device's rows in the table's order (device, time, id), and each array takes them as read,
 * so sorting them all again would be most of the work; that order is not promised, though,
 * so `in_order` says whether it held and the device is asked again `sorted` when it did not.
 */
function fixes(db: string, sorted: boolean): string {
  if (!sorted) {
    return `SELECT device_id, groupArray(toUnixTimestamp64Milli(fix_time)) AS t0, groupArray(id) AS i0,
    arrayAll((a, b, pa, pb) -> a > pa OR (a = pa AND b > pb), t0, i0, arrayPushFront(arrayPopBack(t0), -1), arrayPushFront(arrayPopBack(i0), 0)) AS in_order,
    groupArray(latitude) AS la0, groupArray(longitude) AS lo0, groupArray(speed) AS sp0, groupArray(engine_on) AS en0
${RANGE(db)}`;
  }
  const by = "groupArray(bitShiftLeft(toUInt128(toUnixTimestamp64Milli(fix_time)), 64) + id)";
  return `SELECT device_id, true AS in_order, arrayMap(k -> toInt64(bitShiftRight(k, 64)), arraySort(${by})) AS t0,
    arraySort((x, k) -> k, groupArray(latitude), ${by}) AS la0, arraySort((x, k) -> k, groupArray(longitude), ${by}) AS lo0,
    arraySort((x, k) -> k, groupArray(speed), ${by}) AS sp0, arraySort((x, k) -> k, groupArray(engine_on), ${by}) AS en0
${RANGE(db)}`;
}

/**
 * - max_block_size: the devices' arrays leave the GROUP BY a device to a block, so each level
 *   works on one device's arrays while they are in cache, and only one device's are held at a
 *   time (reading is not slowed: a block read from the table is still a granule or more);
 * - max_bytes_before_external_group_by: a fleet's month of arrays is gathered on disk past 1 GiB;
 * - min_count_to_compile_expression: the levels' expressions are compiled on the first report,
 *   not the third (a quarter less work).
 */
const SETTINGS = "max_block_size = 1, max_bytes_before_external_group_by = 1073741824, compile_expressions = 1, min_count_to_compile_expression = 0";

/*
 * Each level works on one device's arrays, in time order. Levels are subqueries rather than
 * aliases of one SELECT: an alias is inlined where it is used, and these arrays are used
 * several times each. Speeds stay Float32, as stored, and are compared with Float32 limits:
 * a speed read back as its shortest decimal (as JS reads it) compares with a limit the same
 * way then, for any limit a Float32 holds (whole and half km/h).
 */
const TOTALS_SQL = (db: string, sorted: boolean) => `
SELECT device_id, in_order, fixes, start_ms, end_ms, distance_km, top_speed, overspeeds, engine_idle_ms, engine_work_ms, stops, stop_ms
FROM (
  SELECT device_id, in_order, fixes, start_ms, end_ms, distance_km, top_speed, overspeeds, engine_idle_ms, engine_work_ms,
      arrayMap((a, b) -> a - b, ends, starts) AS run_ms,
      arrayMap((d, a, b) -> d >= {minStopMs:Int64} OR a = start_ms OR b = end_ms, run_ms, starts, ends) AS is_stop,
      if(fixes = 1, toUInt64(NOT first_moving), arrayCount(is_stop)) AS stops,
      arraySum(arrayMap((d, s) -> if(s, d, 0), run_ms, is_stop)) AS stop_ms
  FROM (
    SELECT device_id, in_order, fixes, start_ms, end_ms, distance_km, top_speed, overspeeds, first_moving,
        arraySum(arrayMap((d, s) -> if(s, d, 0), engine_step, still)) AS engine_idle_ms,
        arraySum(engine_step) - engine_idle_ms AS engine_work_ms,
        arrayFilter((x, s, p) -> s AND NOT p, prev_t, still, arrayPushFront(arrayPopBack(still), 0)) AS starts,
        arrayFilter((x, s, n) -> s AND NOT n, t, still, arrayPushBack(arrayPopFront(still), 0)) AS ends
    FROM (
      SELECT device_id, in_order, distance_km, t, prev_t, length(t) AS fixes, t[1] AS start_ms, t[-1] AS end_ms, arrayMax(sp) AS top_speed,
          arrayCount((v, p, i) -> v > limit AND (i = 1 OR p <= limit), sp, arrayPushFront(arrayPopBack(sp), 0), arrayEnumerate(sp)) AS overspeeds,
          arrayMap((v, e) -> v > min_speed AND (NOT sensed OR e != 0), sp, eng) AS moving,
          moving[1] AS first_moving,
          arrayMap((a, b, m, pm, i) -> i > 1 AND (a - b > {minStopMs:Int64} OR (NOT m AND NOT pm)), t, prev_t, moving, arrayPushFront(arrayPopBack(moving), 1), arrayEnumerate(t)) AS still,
          arrayMap((a, b, e, pe) -> if(e != 0 AND pe != 0, a - b, 0), t, prev_t, eng, arrayPushFront(arrayPopBack(eng), 0)) AS engine_step
      FROM (
        SELECT device_id, in_order, t, sp, eng, distance_km, arrayPushFront(arrayPopBack(t), t[1]) AS prev_t,
            toFloat32({speedLimitKmh:Float64}) AS limit,
            toFloat32(transform(device_id, {devices:Array(UInt64)}, {minSpeeds:Array(Float64)}, 0.0)) AS min_speed,
            transform(device_id, {devices:Array(UInt64)}, {sensed:Array(UInt8)}, 0) != 0 AS sensed
        FROM (
          SELECT device_id, in_order,
              arrayFilter((x, f) -> f, t0, first_of_instant) AS t,
              arrayFilter((x, f) -> f, sp0, first_of_instant) AS sp,
              arrayFilter((x, f) -> f, en0, first_of_instant) AS eng,
              arrayFilter((x, f) -> f, la0, first_of_instant) AS lat,
              arrayFilter((x, f) -> f, lo0, first_of_instant) AS lng,
              arrayMap(x -> cos(x * 0.017453292519943295), lat) AS cos_lat,
              -- @fleet/geo's haversine (R = 6371.0088 km), each fix from the one before.
              arraySum(arrayMap((la, lo, pla, plo, c, pc) -> 12742.0176 * asin(least(1, sqrt(
                      pow(sin((la - pla) * 0.008726646259971648), 2) + c * pc * pow(sin((lo - plo) * 0.008726646259971648), 2)))),
                  lat, lng, arrayPushFront(arrayPopBack(lat), lat[1]), arrayPushFront(arrayPopBack(lng), lng[1]),
                  cos_lat, arrayPushFront(arrayPopBack(cos_lat), cos_lat[1]))) AS distance_km
          FROM (
            SELECT device_id, in_order, t0, la0, lo0, sp0, en0,
                arrayMap((a, b) -> a != b, t0, arrayPushFront(arrayPopBack(t0), -1)) AS first_of_instant
            FROM (
${fixes(db, sorted)}
            )
          )
        )
      )
    )
  )
)
SETTINGS ${SETTINGS}`;

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
    const rows = await driver.select<TotalsRow>(TOTALS_SQL(db, sorted), {
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

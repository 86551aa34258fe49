/*
 * The statement that cuts each device's track in the engine (see track-totals.ts for what it
 * answers and why). Each level works on one device's arrays, in time order, 1-based. Levels are
 * subqueries rather than aliases of one SELECT: an alias is inlined wherever it is used, and
 * these arrays are used several times each. Speeds stay Float32, as stored, and are compared
 * with Float32 limits: a speed read back as its shortest decimal (as JS reads it) compares with
 * a limit the same way then, for any limit a Float32 holds (whole and half km/h).
 */
import { ENGINE_STEP_MAX_MS } from "@fleet/contracts";
import { GAP_MS, GPS_JUMP_KMH, STOP_GAP_MS } from "@fleet/trips";

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

/** The array shifted one place later (`first` in front, its last element dropped): each element's predecessor. */
const before = (a: string, first: string) => `arrayPushFront(arrayPopBack(${a}), ${first})`;
/** The array shifted one place earlier (`last` behind): each element's successor. */
const after = (a: string, last: string) => `arrayPushBack(arrayPopFront(${a}), ${last})`;

/**
 * @fleet/geo's haversine, in km, of a step `dla`, `dlo` degrees long between latitudes whose
 * cosines are `c` and `pc`. sin(x) * sin(x), not pow(sin(x), 2): the same number, a third of the
 * statement's time less.
 */
export const haversine = (dla: string, dlo: string, c: string, pc: string) =>
  `12742.0176 * asin(least(1, sqrt(sin((${dla}) * 0.008726646259971648) * sin((${dla}) * 0.008726646259971648) + ${c} * ${pc} * sin((${dlo}) * 0.008726646259971648) * sin((${dlo}) * 0.008726646259971648))))`;

/** The groups' columns; unnamed, the levels that make them are not worked out. */
const GROUP_COLUMNS = ", g_status, g_start_ms, g_end_ms, g_km, g_top, g_idle_ms, g_work_ms, g_latitude, g_longitude";

/**
 * Per device: its totals, and (`groups`) its drives and stops as arrays (g_*, one element a group, in time
 * order). A group spans fixes [g_from, g_to]; drives and stops share their edge fixes.
 */
export const trackCutSql = (db: string, sorted: boolean, groups: boolean) => `
SELECT device_id, in_order, fixes, start_ms, end_ms, distance_km, top_speed, overspeeds, engine_idle_ms, engine_work_ms, stops, stop_ms${groups ? GROUP_COLUMNS : ""}
FROM (
  SELECT *,
      arrayMap((a, b) -> (a + 1, toUInt64(b - a)), g_from, g_to) AS steps_in,
      arrayMap((a, b) -> (a, toUInt64(b - a + 1)), g_from, g_to) AS fixes_in,
      arrayMap(a -> (a, toUInt64(1)), g_from) AS first_fix,
      arrayReduceInRanges('any', first_fix, t) AS g_start_ms,
      arrayReduceInRanges('any', arrayMap(b -> (b, toUInt64(1)), g_to), t) AS g_end_ms,
      arrayReduceInRanges('sum', steps_in, km) AS g_km,
      arrayMap((s, all, standing) -> if(s = 2, standing, all), g_status,
          arrayReduceInRanges('max', fixes_in, sp), arrayReduceInRanges('max', fixes_in, arrayMap((v, m) -> if(m, toFloat32(0), v), sp, moving))) AS g_top,
      arrayReduceInRanges('sum', steps_in, arrayMap((e, s) -> if(s, e, 0), engine_step, still)) AS g_idle_ms,
      arrayReduceInRanges('sum', steps_in, arrayMap((e, s) -> if(s, 0, e), engine_step, still)) AS g_work_ms,
      arrayReduceInRanges('any', first_fix, lat) AS g_latitude,
      arrayReduceInRanges('any', first_fix, lng) AS g_longitude
  FROM (
    SELECT *,
        -- Drives fill the time between stops: [1, a1], [a1, b1], [b1, a2], ... [bk, n], drives at odd places; an empty drive at either end is none.
        if(fixes = 1, [toInt64(1), 1], arrayConcat([toInt64(1)], arrayFlatten(arrayMap((a, b) -> [a, b], stop_from, stop_to)), [fixes])) AS bounds,
        arrayMap((a, b) -> fixes = 1 OR a < b, arrayPopBack(bounds), arrayPopFront(bounds)) AS kept,
        arrayFilter((x, k) -> k, arrayPopBack(bounds), kept) AS g_from,
        arrayFilter((x, k) -> k, arrayPopFront(bounds), kept) AS g_to,
        if(fixes = 1, [if(first_moving, 1, 2)], arrayFilter((x, k) -> k, arrayMap(i -> if(i % 2 = 1, 1, 2), arrayEnumerate(kept)), kept)) AS g_status
    FROM (
      SELECT *,
          -- Each run of standing steps spans fixes [run_from, run_to]: a stop if it lasts the minimum or touches either end.
          arrayMap(i -> toInt64(i) - 1, arrayFilter((i, s, p) -> s AND NOT p, arrayEnumerate(still), still, ${before("still", "0")})) AS run_from,
          arrayMap(i -> toInt64(i), arrayFilter((i, s, n) -> s AND NOT n, arrayEnumerate(still), still, ${after("still", "0")})) AS run_to,
          arrayMap((a, b) -> b - a, arrayFilter((x, s, p) -> s AND NOT p, prev_t, still, ${before("still", "0")}), arrayFilter((x, s, n) -> s AND NOT n, t, still, ${after("still", "0")})) AS run_ms,
          arrayMap((d, a, b) -> d >= {minStopMs:Int64} OR a = 1 OR b = fixes, run_ms, run_from, run_to) AS is_stop,
          arrayFilter((x, k) -> k, run_from, is_stop) AS stop_from,
          arrayFilter((x, k) -> k, run_to, is_stop) AS stop_to,
          if(fixes = 1, toUInt64(NOT first_moving), length(stop_from)) AS stops,
          arraySum(arrayMap((d, k) -> if(k, d, 0), run_ms, is_stop)) AS stop_ms,
          arraySum(arrayMap((d, s) -> if(s, d, 0), engine_step, still)) AS engine_idle_ms,
          arraySum(engine_step) - engine_idle_ms AS engine_work_ms
      FROM (
        SELECT device_id, in_order, t, prev_t, sp, lat, lng, km, toInt64(length(t)) AS fixes, t[1] AS start_ms, t[-1] AS end_ms,
            arraySum(km) AS distance_km, arrayMax(sp) AS top_speed,
            arrayCount((v, p, i) -> v > limit AND (i = 1 OR p <= limit), sp, ${before("sp", "0")}, arrayEnumerate(sp)) AS overspeeds,
            arrayMap((v, e) -> v > min_speed AND (NOT sensed OR e != 0), sp, eng) AS moving,
            moving[1] AS first_moving,
            -- Step k (from fix k - 1 to fix k) stands when neither end moves; when it is longer than a stop or
            -- than GAP_MS and was crossed no faster than the device moves or began parked with the engine off;
            -- or when it is longer than a stop and lasted STOP_GAP_MS (@fleet/trips' TrackFacts.still).
            arrayMap((a, b, m, pm, pe, d, i) -> i > 1 AND ((NOT m AND NOT pm) OR (a - b > least({minStopMs:Int64}, ${GAP_MS}) AND (d * 3600000 <= gap_speed * (a - b) OR (sensed AND NOT pm AND pe = 0))) OR (a - b > {minStopMs:Int64} AND a - b >= ${STOP_GAP_MS})),
                t, prev_t, moving, ${before("moving", "1")}, ${before("eng", "1")}, km, arrayEnumerate(t)) AS still,
            arrayMap((a, b, e, pe) -> if(e != 0 AND pe != 0 AND a - b <= ${ENGINE_STEP_MAX_MS}, a - b, 0), t, prev_t, eng, ${before("eng", "0")}) AS engine_step
        FROM (
          -- A GPS spike (a fix reached and left faster than GPS_JUMP_KMH, between steps that are not) adds
          -- nothing: its step is 0 km and the step after it is measured from the fix before it (@fleet/trips'
          -- stepDistances). Most devices have none, and skip the remeasuring.
          SELECT *,
              arrayMap((d, a, b) -> d * 3600000 > ${GPS_JUMP_KMH} * (a - b), km_raw, t, prev_t) AS fast,
              arrayFilter((i, f, nf, pf, nnf) -> f AND nf AND NOT pf AND NOT nnf,
                  arrayEnumerate(fast), fast, ${after("fast", "0")}, ${before("fast", "0")}, ${after(after("fast", "0"), "0")}) AS spikes,
              if(empty(spikes), km_raw, arrayMap((d, i) -> if(has(spikes, i), 0, if(has(spikes, i - 1), ${haversine("lat[i] - lat[i - 2]", "lng[i] - lng[i - 2]", "cos_lat[i]", "cos_lat[i - 2]")}, d)),
                  km_raw, arrayEnumerate(km_raw))) AS km
          FROM (
          SELECT device_id, in_order, t, sp, eng, lat, lng, cos_lat, ${before("t", "t[1]")} AS prev_t,
              -- @fleet/geo's haversine (R = 6371.0088 km), each fix from the one before; 0 for the first.
              arrayMap((dla, dlo, c, pc) -> ${haversine("dla", "dlo", "c", "pc")},
                  arrayDifference(lat), arrayDifference(lng), cos_lat, ${before("cos_lat", "cos_lat[1]")}) AS km_raw,
              toFloat32({speedLimitKmh:Float64}) AS limit,
              toFloat32(transform(device_id, {devices:Array(UInt64)}, {minSpeeds:Array(Float64)}, 0.0)) AS min_speed,
              -- Unrounded, as segmentTrack compares a gap's average speed with it.
              transform(device_id, {devices:Array(UInt64)}, {minSpeeds:Array(Float64)}, 0.0) AS gap_speed,
              transform(device_id, {devices:Array(UInt64)}, {sensed:Array(UInt8)}, 0) != 0 AS sensed
          FROM (
            SELECT device_id, in_order,
                arrayFilter((x, f) -> f, t0, first_of_instant) AS t,
                arrayFilter((x, f) -> f, sp0, first_of_instant) AS sp,
                arrayFilter((x, f) -> f, en0, first_of_instant) AS eng,
                arrayFilter((x, f) -> f, la0, first_of_instant) AS lat,
                arrayFilter((x, f) -> f, lo0, first_of_instant) AS lng,
                arrayMap(x -> cos(x * 0.017453292519943295), lat) AS cos_lat
            FROM (
              SELECT device_id, in_order, t0, la0, lo0, sp0, en0,
                  arrayMap((a, b) -> a != b, t0, ${before("t0", "-1")}) AS first_of_instant
              FROM (
${fixes(db, sorted)}
              )
            )
          )
          )
        )
      )
    )
  )
)
SETTINGS ${SETTINGS}`;

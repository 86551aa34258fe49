import { ENGINE_STEP_MAX_MS, TAIL_MAX, type LiveState, type TailPoint } from "@fleet/contracts";
import { GPS_JUMP_KMH } from "@fleet/trips";
import type { HistoryDriver } from "./driver.js";
import { toSafeNumber } from "./rows.js";
import { haversine } from "./track-cut-sql.js";

/** What restoring a device's live state needs to know of it. */
export interface RestoreDevice {
  id: number;
  /** km/h at or above which a fix counts as moving (the device's min_moving_speed). */
  minMovingSpeed: number;
}

interface SummaryRecord {
  device_id: string | number;
  odometer_km: number;
  engine_ms: string | number;
  moved_ms: string | number;
  first_ms: string | number;
  last_id: string | number;
  last_unique_id: string;
  last_protocol: string;
  last_latitude: number;
  last_longitude: number;
  last_altitude: number;
  last_course: number;
  last_speed: number;
  last_fix_ms: string | number;
  last_server_ms: string | number;
  last_attributes: string;
  last_engine_on: number;
}

interface TailRecord {
  device_id: string | number;
  id: string | number;
  fix_ms: string | number;
  latitude: number;
  longitude: number;
}

/** km between the fixes `a` and `b` of a row's window (`` for the row, `1` the one before it...). */
const km = (a: string, b: string) => haversine(`la${b} - la${a}`, `lo${b} - lo${a}`, `cos(radians(la${b}))`, `cos(radians(la${a}))`);
/** Step k back (from fix k + 1 back to fix k back) was crossed faster than GPS_JUMP_KMH. */
const fast = (k: number) => `h${k + 1} AND ${km(String(k + 1), k === 0 ? "" : String(k))} * 3600000 > ${GPS_JUMP_KMH} * (t${k === 0 ? "" : k} - t${k + 1})`;

/**
 * Per device: its latest row, the GPS odometer, engine time summed the way the tracker sums it
 * (the time between consecutive fixes with the engine on at both), and the last fix at or
 * above its moving speed. The odometer is the track's length in time order measured as the
 * tracker's odometer measures it, not the stored steps (a late fix's stored step and the one
 * after it both span it): each fix from the one before, and a fix that makes the one before it
 * a GPS spike (reached and left faster than GPS_JUMP_KMH, from a step that was not) measured
 * from the fix before the spike instead. One pass over the devices' rows, ordered by the sort
 * key; `transform` maps each device to its own moving speed. Output names differ from column
 * names: ClickHouse lets an alias shadow a column inside aggregates.
 */
const SUMMARY = (db: string) => `
SELECT device_id,
       sum(if(${fast(0)} AND ${fast(1)} AND NOT (${fast(2)}), ${km("2", "")} - ${km("2", "1")}, if(h1, ${km("1", "")}, 0))) AS odometer_km,
       sum(if(engine_on = 1 AND prev_on = 1 AND t - t1 <= ${ENGINE_STEP_MAX_MS}, t - t1, 0)) AS engine_ms,
       maxIf(t, speed >= transform(device_id, {ids:Array(UInt64)}, {speeds:Array(Float64)}, 0.)) AS moved_ms,
       min(t) AS first_ms,
       argMax(id, (t, id)) AS last_id,
       argMax(unique_id, (t, id)) AS last_unique_id,
       argMax(protocol, (t, id)) AS last_protocol,
       argMax(latitude, (t, id)) AS last_latitude,
       argMax(longitude, (t, id)) AS last_longitude,
       argMax(altitude, (t, id)) AS last_altitude,
       argMax(course, (t, id)) AS last_course,
       argMax(speed, (t, id)) AS last_speed,
       max(t) AS last_fix_ms,
       argMax(server_ms, (t, id)) AS last_server_ms,
       argMax(attributes, (t, id)) AS last_attributes,
       argMax(engine_on, (t, id)) AS last_engine_on
FROM (
  SELECT device_id, id, unique_id, protocol, latitude, longitude, altitude, course, speed, attributes, engine_on,
         toUnixTimestamp64Milli(fix_time) AS t,
         toUnixTimestamp64Milli(server_time) AS server_ms,
         toFloat64(latitude) AS la, toFloat64(longitude) AS lo,
         lagInFrame(engine_on, 1, 0) OVER w AS prev_on,
         ${[1, 2, 3]
           .map((k) => `lagInFrame(toUInt8(1), ${k}, 0) OVER w AS h${k}, lagInFrame(toUnixTimestamp64Milli(fix_time), ${k}, 0) OVER w AS t${k},
         lagInFrame(toFloat64(latitude), ${k}, 0.) OVER w AS la${k}, lagInFrame(toFloat64(longitude), ${k}, 0.) OVER w AS lo${k}`)
           .join(",\n         ")}
  FROM ${db}.positions FINAL
  WHERE device_id IN {ids:Array(UInt64)}
  WINDOW w AS (PARTITION BY device_id ORDER BY fix_time, id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW)
)
GROUP BY device_id`;

const TAIL = (db: string) => `
SELECT device_id, id, toUnixTimestamp64Milli(fix_time) AS fix_ms, latitude, longitude
FROM ${db}.positions FINAL
WHERE device_id IN {ids:Array(UInt64)}
ORDER BY device_id, fix_time DESC, id DESC
LIMIT ${TAIL_MAX} BY device_id`;

const LATEST = (db: string) => `
SELECT device_id, toUnixTimestamp64Milli(max(fix_time)) AS fix_ms
FROM ${db}.positions
WHERE device_id IN {ids:Array(UInt64)}
GROUP BY device_id`;

/**
 * Each device's latest stored fix time (epoch ms); devices without a fix are absent. Reads
 * two sort-key columns without FINAL: a replayed row has its original's time, so collapsing
 * replays cannot change a maximum, and lightweight-deleted rows are masked from every read.
 */
export async function latestFixTimes(driver: HistoryDriver, db: string, deviceIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (deviceIds.length === 0) return out;
  const records = await driver.select<{ device_id: string | number; fix_ms: string | number }>(LATEST(db), { ids: [...deviceIds] });
  for (const r of records) out.set(toSafeNumber(r.device_id), toSafeNumber(r.fix_ms));
  return out;
}

/**
 * The live state each device would have if the tracker had kept it: for a live store that
 * lost it (flushed, replaced, its snapshot gone). Devices with no stored position are absent.
 * Reads each device's whole history once: a recovery path, not a per-position one.
 */
export async function lastStates(driver: HistoryDriver, db: string, devices: readonly RestoreDevice[]): Promise<Map<number, LiveState>> {
  const out = new Map<number, LiveState>();
  if (devices.length === 0) return out;
  const ids = devices.map((d) => d.id);
  const params = { ids, speeds: devices.map((d) => d.minMovingSpeed) };
  const [summaries, tails] = await Promise.all([driver.select<SummaryRecord>(SUMMARY(db), params), driver.select<TailRecord>(TAIL(db), { ids })]);

  const tailOf = new Map<number, TailPoint[]>();
  for (const t of tails) {
    const deviceId = toSafeNumber(t.device_id);
    const list = tailOf.get(deviceId) ?? [];
    list.push({ id: toSafeNumber(t.id), fixTime: toSafeNumber(t.fix_ms), latitude: t.latitude, longitude: t.longitude });
    tailOf.set(deviceId, list);
  }
  for (const s of summaries) {
    const deviceId = toSafeNumber(s.device_id);
    const moved = toSafeNumber(s.moved_ms);
    out.set(deviceId, {
      deviceId,
      positionId: toSafeNumber(s.last_id),
      uniqueId: s.last_unique_id,
      protocol: s.last_protocol,
      latitude: s.last_latitude,
      longitude: s.last_longitude,
      altitude: s.last_altitude,
      course: s.last_course,
      // Float32 in the table: back to the two decimals the tracker rounds speeds to.
      speedKmh: Math.round(s.last_speed * 100) / 100,
      fixTime: toSafeNumber(s.last_fix_ms),
      serverTime: toSafeNumber(s.last_server_ms),
      attributes: JSON.parse(s.last_attributes) as LiveState["attributes"],
      // Never moving: the tracker keeps the first fix's time.
      movedAt: moved > 0 ? moved : toSafeNumber(s.first_ms),
      odometerKm: Math.round(s.odometer_km * 1e6) / 1e6,
      engineOn: s.last_engine_on !== 0,
      engineSeconds: toSafeNumber(s.engine_ms) / 1000,
      // Newest first from the query; the live state keeps them oldest first.
      tail: (tailOf.get(deviceId) ?? []).reverse(),
    });
  }
  return out;
}

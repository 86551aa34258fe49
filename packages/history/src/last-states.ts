import { ENGINE_STEP_MAX_MS, TAIL_MAX, type LiveState, type TailPoint } from "@fleet/contracts";
import type { HistoryDriver } from "./driver.js";
import { toSafeNumber } from "./rows.js";

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

/**
 * Per device: its latest row, the GPS odometer as the sum of stored distances, engine time
 * summed the way the tracker sums it (the time between consecutive fixes with the engine on
 * at both), and the last fix at or above its moving speed. One pass over the devices' rows,
 * ordered by the sort key; `transform` maps each device to its own moving speed. Output
 * names differ from column names: ClickHouse lets an alias shadow a column inside aggregates.
 */
const SUMMARY = (db: string) => `
SELECT device_id,
       sum(distance) AS odometer_km,
       sum(if(engine_on = 1 AND prev_on = 1 AND fix_ms - prev_ms <= ${ENGINE_STEP_MAX_MS}, fix_ms - prev_ms, 0)) AS engine_ms,
       maxIf(fix_ms, speed >= transform(device_id, {ids:Array(UInt64)}, {speeds:Array(Float64)}, 0.)) AS moved_ms,
       min(fix_ms) AS first_ms,
       argMax(id, (fix_ms, id)) AS last_id,
       argMax(unique_id, (fix_ms, id)) AS last_unique_id,
       argMax(protocol, (fix_ms, id)) AS last_protocol,
       argMax(latitude, (fix_ms, id)) AS last_latitude,
       argMax(longitude, (fix_ms, id)) AS last_longitude,
       argMax(altitude, (fix_ms, id)) AS last_altitude,
       argMax(course, (fix_ms, id)) AS last_course,
       argMax(speed, (fix_ms, id)) AS last_speed,
       max(fix_ms) AS last_fix_ms,
       argMax(server_ms, (fix_ms, id)) AS last_server_ms,
       argMax(attributes, (fix_ms, id)) AS last_attributes,
       argMax(engine_on, (fix_ms, id)) AS last_engine_on
FROM (
  SELECT device_id, id, unique_id, protocol, latitude, longitude, altitude, course, speed, distance, attributes, engine_on,
         toUnixTimestamp64Milli(fix_time) AS fix_ms,
         toUnixTimestamp64Milli(server_time) AS server_ms,
         lagInFrame(engine_on, 1, 0) OVER w AS prev_on,
         lagInFrame(toUnixTimestamp64Milli(fix_time), 1, 0) OVER w AS prev_ms
  FROM ${db}.positions FINAL
  WHERE device_id IN {ids:Array(UInt64)}
  WINDOW w AS (PARTITION BY device_id ORDER BY fix_time, id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
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

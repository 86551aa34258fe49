import type { HistoryRow } from "@fleet/contracts";

/** The `positions` columns in insert order; every INSERT names them explicitly. */
export const POSITION_COLUMNS = [
  "id",
  "device_id",
  "unique_id",
  "protocol",
  "fix_time",
  "server_time",
  "latitude",
  "longitude",
  "altitude",
  "course",
  "speed",
  "distance",
  "valid",
  "engine_on",
  "attributes",
] as const;

/**
 * One `positions` row as SELECT_POSITION_COLUMNS returns it in JSONEachRow.
 * 64-bit integers arrive as strings from a ClickHouse server (its default
 * `output_format_json_quote_64bit_integers=1`) and as numbers from chDB, so both are accepted.
 */
export interface PositionSelectRecord {
  id: string | number;
  device_id: string | number;
  unique_id: string;
  protocol: string;
  fix_time_ms: string | number;
  server_time_ms: string | number;
  latitude: number;
  longitude: number;
  altitude: number;
  course: number;
  speed: number;
  distance: number;
  valid: number;
  engine_on: number;
  attributes: string;
}

/**
 * Times leave as epoch ms through toUnixTimestamp64Milli, under aliases that differ
 * from the column names: ClickHouse lets a SELECT alias shadow a column in WHERE
 * and ORDER BY, which would compare the filters against numbers.
 */
export const SELECT_POSITION_COLUMNS = `id, device_id, unique_id, protocol,
    toUnixTimestamp64Milli(fix_time) AS fix_time_ms,
    toUnixTimestamp64Milli(server_time) AS server_time_ms,
    latitude, longitude, altitude, course, speed, distance, valid, engine_on, attributes`;

/**
 * Formats epoch ms as DateTime64 text input, 'YYYY-MM-DD HH:MM:SS.mmm' in UTC: the one
 * form every ClickHouse version reads the same way (a bare integer is read as seconds
 * or as ticks depending on its digits). toISOString costs ~1 µs, a lot for two per row
 * in a 20k-row flush, so it runs once per distinct minute of a batch (fixes of one
 * batch cluster in time) and the seconds are appended arithmetically.
 */
export function dateTime64Formatter(): (ms: number) => string {
  const minutes = new Map<number, string>();
  return (ms) => {
    if (!Number.isSafeInteger(ms)) throw new RangeError(`not an epoch-ms integer: ${ms}`);
    const minute = Math.floor(ms / 60_000);
    let prefix = minutes.get(minute);
    if (prefix === undefined) {
      prefix = new Date(minute * 60_000).toISOString().slice(0, 17).replace("T", " ");
      minutes.set(minute, prefix);
    }
    const inMinute = ms - minute * 60_000;
    const sec = Math.floor(inMinute / 1000);
    const milli = inMinute - sec * 1000;
    return `${prefix}${sec < 10 ? "0" : ""}${sec}.${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}`;
  };
}

/**
 * One batch as JSONCompactEachRow tuples, in POSITION_COLUMNS order (times as
 * 'YYYY-MM-DD HH:MM:SS.mmm' UTC text); the formatter's cache lives as long as the batch.
 */
export function toInsertTuples(rows: readonly HistoryRow[]): unknown[][] {
  const dateTime64 = dateTime64Formatter();
  return rows.map((row) => [
    row.id,
    row.deviceId,
    row.uniqueId,
    row.protocol,
    dateTime64(row.fixTime),
    dateTime64(row.serverTime),
    row.latitude,
    row.longitude,
    row.altitude,
    row.course,
    row.speedKmh,
    row.distanceKm,
    row.valid ? 1 : 0,
    row.engineOn ? 1 : 0,
    JSON.stringify(row.attributes),
  ]);
}

/** UInt64/Int64 from JSON output; ids and epoch ms stay below 2^53. */
export function toSafeNumber(v: string | number): number {
  const n = typeof v === "number" ? v : Number(v);
  if (!Number.isSafeInteger(n)) throw new RangeError(`64-bit value outside the safe integer range: ${v}`);
  return n;
}

export function fromSelectRecord(r: PositionSelectRecord): HistoryRow {
  return {
    id: toSafeNumber(r.id),
    deviceId: toSafeNumber(r.device_id),
    uniqueId: r.unique_id,
    protocol: r.protocol,
    latitude: r.latitude,
    longitude: r.longitude,
    altitude: r.altitude,
    course: r.course,
    speedKmh: r.speed,
    distanceKm: r.distance,
    fixTime: toSafeNumber(r.fix_time_ms),
    serverTime: toSafeNumber(r.server_time_ms),
    valid: r.valid !== 0,
    engineOn: r.engine_on !== 0,
    attributes: JSON.parse(r.attributes) as HistoryRow["attributes"],
  };
}

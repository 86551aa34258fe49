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
 * One `positions` row as a JSON text of HistoryRow, written by the engine: the whole answer
 * is then one JSON.parse (see JSON_ARRAY_SETTINGS), with no record to map nor `attributes`
 * to parse again per row (stored as JSON text, it goes out as it is). A device-day is
 * ~8,600 rows; parsing them line by line, then their attributes, was a fifth of get_history.
 * Ids and epoch ms stay below 2^53; floats print in their shortest exact form, as in JSON output.
 */
export const POSITION_JSON = `concat('{"id":', toString(id),
    ',"deviceId":', toString(device_id),
    ',"uniqueId":', toJSONString(unique_id),
    ',"protocol":', toJSONString(protocol),
    ',"latitude":', toString(latitude),
    ',"longitude":', toString(longitude),
    ',"altitude":', toString(altitude),
    ',"course":', toString(course),
    ',"speedKmh":', toString(speed),
    ',"distanceKm":', toString(distance),
    ',"fixTime":', toString(toUnixTimestamp64Milli(fix_time)),
    ',"serverTime":', toString(toUnixTimestamp64Milli(server_time)),
    ',"valid":', if(valid != 0, 'true', 'false'),
    ',"engineOn":', if(engine_on != 0, 'true', 'false'),
    ',"attributes":', attributes, '}')`;

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

import type { HistoryDriver, QueryParams } from "./driver.js";
import { toSafeNumber } from "./rows.js";

/** One device's fixes in an inclusive time range, epoch ms. */
export interface PositionRange {
  deviceId: number;
  fromMs: number;
  toMs: number;
}

/** A minute holding rows of a range: its start (epoch ms) and how many rows it holds. */
export type MinuteCount = readonly [minuteMs: number, rows: number];

function rangeFilter(r: PositionRange): { where: string; params: QueryParams } {
  if (!Number.isSafeInteger(r.deviceId) || r.deviceId < 0) throw new RangeError(`deviceId must be a non-negative integer, got ${r.deviceId}`);
  if (!Number.isSafeInteger(r.fromMs) || !Number.isSafeInteger(r.toMs)) throw new RangeError(`fromMs and toMs must be integer epoch-ms, got ${r.fromMs}, ${r.toMs}`);
  return {
    where: `device_id = {deviceId:UInt64}
  AND fix_time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
  AND fix_time <= fromUnixTimestamp64Milli({toMs:Int64}, 'UTC')`,
    params: { deviceId: r.deviceId, fromMs: r.fromMs, toMs: r.toMs },
  };
}

/**
 * Rows per minute of a range, each row once (FINAL), for the non-empty minutes in time order.
 * An index to find the minute that holds the n-th row, so a deep page reads from there
 * rather than past every row before it.
 */
export async function minuteCounts(driver: HistoryDriver, db: string, range: PositionRange): Promise<MinuteCount[]> {
  const { where, params } = rangeFilter(range);
  const rows = await driver.select<{ m: string | number; n: string | number }>(
    `SELECT intDiv(toUnixTimestamp64Milli(fix_time), 60000) AS m, count() AS n
FROM ${db}.positions FINAL
WHERE ${where}
GROUP BY m
ORDER BY m`,
    params,
  );
  return rows.map((r) => [toSafeNumber(r.m) * 60_000, toSafeNumber(r.n)] as const);
}

/**
 * Rows stored in a range, replays not collapsed (no FINAL): read from the primary index and
 * the delete masks, so it costs little however long the range, and it changes with every
 * insert, delete and merge there. A cheap sign that an index built over the range is stale.
 */
export async function storedCount(driver: HistoryDriver, db: string, range: PositionRange): Promise<number> {
  const { where, params } = rangeFilter(range);
  const rows = await driver.select<{ n: string | number }>(`SELECT count() AS n FROM ${db}.positions WHERE ${where}`, params);
  return rows[0] ? toSafeNumber(rows[0].n) : 0;
}

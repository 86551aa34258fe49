import type { HistoryRow } from "@fleet/contracts";
import type { HistoryDriver } from "./driver.js";
import { checkEpochMs, checkUint, positionFilter } from "./filter.js";
import { lastStates, latestFixTimes } from "./last-states.js";
import { migrations as allMigrations, type Migration } from "./migrations.js";
import { minuteCounts, storedCount } from "./pages.js";
import type { HistoryQuery, HistoryStore } from "./port.js";
import { selectPositionsWithFields, selectStoredRows } from "./positions-with-fields.js";
import { POSITION_COLUMNS, POSITION_JSON, toInsertTuples, toSafeNumber } from "./rows.js";
import { trackTotals } from "./track-totals.js";

/** Ids per DELETE statement: query parameters travel in the URL of an HTTP request. */
const DELETE_CHUNK = 5000;

/** Creates the database and the bookkeeping table; both idempotent. */
async function ensureSchemaMigrations(driver: HistoryDriver, db: string): Promise<void> {
  await driver.command(`CREATE DATABASE IF NOT EXISTS ${db}`);
  // ReplacingMergeTree so that two instances migrating at once leave one row per version.
  await driver.command(`CREATE TABLE IF NOT EXISTS ${db}.schema_migrations
(
    version    UInt32,
    name       String,
    applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree
ORDER BY version`);
}

async function appliedVersions(driver: HistoryDriver, db: string): Promise<Set<number>> {
  const rows = await driver.select<{ version: number | string }>(`SELECT version FROM ${db}.schema_migrations FINAL`);
  return new Set(rows.map((r) => Number(r.version)));
}

export async function runMigrations(driver: HistoryDriver, db: string, list: readonly Migration[] = allMigrations): Promise<void> {
  await ensureSchemaMigrations(driver, db);
  const applied = await appliedVersions(driver, db);
  const pending = [...list].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
  for (const m of pending) {
    await driver.command(m.sql(db));
    await driver.insertRows(`${db}.schema_migrations`, ["version", "name"], [[m.version, m.name]]);
  }
}

export async function insertPositions(driver: HistoryDriver, db: string, rows: readonly HistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await driver.insertRows(`${db}.positions`, POSITION_COLUMNS, toInsertTuples(rows));
}

/** FINAL on every read: a replayed batch is stored twice until a merge, but read once. */
export async function selectPositions(driver: HistoryDriver, db: string, q: HistoryQuery): Promise<HistoryRow[]> {
  const { where, params } = positionFilter({ deviceId: q.deviceId, fromMs: q.fromMs, toMs: q.toMs });
  let page = "";
  if (q.limit !== undefined) {
    page += " LIMIT {limit:UInt64}";
    params.limit = checkUint("limit", q.limit);
  }
  if (q.offset !== undefined) {
    page += " OFFSET {offset:UInt64}";
    params.offset = checkUint("offset", q.offset);
  }
  const sql = `SELECT ${POSITION_JSON}
FROM ${db}.positions FINAL
${where}
ORDER BY fix_time, id${page}`;
  return driver.selectJson<HistoryRow>(sql, params);
}

export async function countPositions(driver: HistoryDriver, db: string, filter: { deviceId?: number; fromMs?: number; toMs?: number } = {}): Promise<number> {
  const { where, params } = positionFilter(filter);
  const rows = await driver.select<{ n: string | number }>(`SELECT count() AS n FROM ${db}.positions FINAL ${where}`, params);
  return rows[0] ? toSafeNumber(rows[0].n) : 0;
}

export async function previousPosition(driver: HistoryDriver, db: string, deviceId: number, before: { fixTime: number; id: number }): Promise<HistoryRow | undefined> {
  const sql = `SELECT ${POSITION_JSON}
FROM ${db}.positions FINAL
WHERE device_id = {deviceId:UInt64}
  AND (fix_time < fromUnixTimestamp64Milli({t:Int64}, 'UTC') OR (fix_time = fromUnixTimestamp64Milli({t:Int64}, 'UTC') AND id < {id:UInt64}))
ORDER BY fix_time DESC, id DESC
LIMIT 1`;
  const rows = await driver.selectJson<HistoryRow>(sql, { deviceId: checkUint("deviceId", deviceId), t: checkEpochMs("fixTime", before.fixTime), id: checkUint("id", before.id) });
  return rows[0];
}

/** The device's first row at or after `(fixTime, id)` in time order: the position itself when it is stored. */
export async function followingPosition(driver: HistoryDriver, db: string, deviceId: number, at: { fixTime: number; id: number }): Promise<HistoryRow | undefined> {
  const sql = `SELECT ${POSITION_JSON}
FROM ${db}.positions FINAL
WHERE device_id = {deviceId:UInt64}
  AND (fix_time > fromUnixTimestamp64Milli({t:Int64}, 'UTC') OR (fix_time = fromUnixTimestamp64Milli({t:Int64}, 'UTC') AND id >= {id:UInt64}))
ORDER BY fix_time, id
LIMIT 1`;
  const rows = await driver.selectJson<HistoryRow>(sql, { deviceId: checkUint("deviceId", deviceId), t: checkEpochMs("fixTime", at.fixTime), id: checkUint("id", at.id) });
  return rows[0];
}

/**
 * Lightweight DELETE (a masked-row mutation, valid on ReplacingMergeTree). The
 * sync setting makes the rows invisible before the call returns; it is the
 * default, but read-after-delete depends on it, so it is stated.
 */
export async function deletePositions(driver: HistoryDriver, db: string, deviceIds: readonly number[], ids: readonly number[]): Promise<void> {
  if (deviceIds.length === 0 || ids.length === 0) return;
  // Every id is checked before the first statement, so bad input deletes nothing.
  const devices = deviceIds.map((d) => checkUint("deviceId", d));
  const checked = ids.map((id) => checkUint("id", id));
  for (let i = 0; i < checked.length; i += DELETE_CHUNK) {
    const chunk = checked.slice(i, i + DELETE_CHUNK);
    await driver.command(
      `DELETE FROM ${db}.positions
WHERE device_id IN {deviceIds:Array(UInt64)} AND id IN {ids:Array(UInt64)}
SETTINGS lightweight_deletes_sync = 2`,
      { deviceIds: devices, ids: chunk },
    );
  }
}

/** The HistoryStore port over any driver; both adapters are this plus a transport. */
export function historyStoreOver(driver: HistoryDriver, db: string): HistoryStore {
  return {
    kind: driver.kind,
    migrate: () => runMigrations(driver, db),
    insert: (rows) => insertPositions(driver, db, rows),
    query: (q) => selectPositions(driver, db, q),
    queryWithFields: (q) => selectPositionsWithFields(driver, db, q),
    queryRows: (q) => selectStoredRows(driver, db, q),
    trackTotals: (q) => trackTotals(driver, db, q),
    count: (filter) => countPositions(driver, db, filter),
    previous: (deviceId, before) => previousPosition(driver, db, deviceId, before),
    following: (deviceId, at) => followingPosition(driver, db, deviceId, at),
    lastStates: (devices) => lastStates(driver, db, devices),
    latestFixTimes: (deviceIds) => latestFixTimes(driver, db, deviceIds),
    minuteCounts: (range) => minuteCounts(driver, db, range),
    storedCount: (range) => storedCount(driver, db, range),
    deletePositions: (deviceIds, ids) => deletePositions(driver, db, deviceIds, ids),
    close: () => driver.close(),
  };
}

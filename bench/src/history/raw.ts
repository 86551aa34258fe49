import { drainPending, Session } from "chdb";
import type { TimeRange } from "./layout.js";

/**
 * The raw ClickHouse queries each endpoint measure is set against: the same rows, fetched
 * by the engine in process (chDB on the seeded directory) as JSONEachRow text, not parsed.
 * Written out here rather than taken from @fleet/history, so the baseline is the query
 * itself and not whatever the store's code does around it.
 */
const COLUMNS = `id, device_id, unique_id, protocol,
    toUnixTimestamp64Milli(fix_time) AS fix_time_ms,
    toUnixTimestamp64Milli(server_time) AS server_time_ms,
    latitude, longitude, altitude, course, speed, distance, valid, engine_on, attributes`;

const RANGE = `device_id = {deviceId:UInt64}
  AND fix_time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
  AND fix_time <= fromUnixTimestamp64Milli({toMs:Int64}, 'UTC')`;

export interface RawHistory {
  /** Every position of the device in the range, in time order; the answer's bytes. */
  range(deviceId: number, r: TimeRange): Promise<number>;
  /** One page of `limit` positions at `offset`, in time order; the answer's bytes. */
  page(deviceId: number, r: TimeRange, limit: number, offset: number): Promise<number>;
  /** How many positions the range holds (what a page's total costs). */
  count(deviceId: number, r: TimeRange): Promise<number>;
  /** Parts of the positions table (active), as the engine holds the seed. */
  parts(): Promise<number>;
  close(): Promise<void>;
}

export function openRawHistory(path: string, database = "fleet"): RawHistory {
  const session = new Session(path);
  const bind = (deviceId: number, r: TimeRange) => ({ deviceId, fromMs: r.fromMs, toMs: r.toMs });
  const text = async (sql: string, params: object) => (await session.queryBindAsync(sql, params, { format: "JSONEachRow" })).text();
  return {
    async range(deviceId, r) {
      const out = await text(`SELECT ${COLUMNS} FROM ${database}.positions FINAL WHERE ${RANGE} ORDER BY fix_time, id`, bind(deviceId, r));
      return Buffer.byteLength(out);
    },
    async page(deviceId, r, limit, offset) {
      const out = await text(`SELECT ${COLUMNS} FROM ${database}.positions FINAL WHERE ${RANGE} ORDER BY fix_time, id LIMIT {limit:UInt64} OFFSET {offset:UInt64}`, { ...bind(deviceId, r), limit, offset });
      return Buffer.byteLength(out);
    },
    async count(deviceId, r) {
      const out = await text(`SELECT count() AS n FROM ${database}.positions FINAL WHERE ${RANGE}`, bind(deviceId, r));
      return Number((JSON.parse(out) as { n: number | string }).n);
    },
    async parts() {
      const out = await text(`SELECT count() AS n FROM system.parts WHERE database = {db:String} AND table = 'positions' AND active`, { db: database });
      return Number((JSON.parse(out) as { n: number | string }).n);
    },
    async close() {
      session.close();
      // Until the native teardown lands, no other session (the app's) may open the directory.
      await drainPending();
    },
  };
}

import { drainPending, Session } from "chdb";
import type { TimeRange } from "../history/layout.js";

/**
 * The raw ClickHouse aggregate general information is set against: per device over the same
 * rows, its first and last fix, distance, top speed, time moving and standing (by the fixes'
 * speed), and engine time, computed by the engine in process (chDB on the seeded directory)
 * and returned as JSONEachRow text, not parsed. Written out here, so the baseline is the query
 * itself and not whatever the store's code does around it.
 */
const GENERAL = `SELECT device_id,
    min(fix_time) AS first_fix, max(fix_time) AS last_fix,
    sum(distance) AS distance_km, max(speed) AS top_speed,
    countIf(speed > 6) AS moving_fixes, countIf(speed <= 6) AS standing_fixes,
    countIf(engine_on) AS engine_fixes
  FROM {database:Identifier}.positions FINAL
  WHERE device_id IN {devices:Array(UInt64)}
    AND fix_time >= fromUnixTimestamp64Milli({fromMs:Int64}, 'UTC')
    AND fix_time <= fromUnixTimestamp64Milli({toMs:Int64}, 'UTC')
  GROUP BY device_id ORDER BY device_id`;

export interface RawReports {
  /** The aggregate over the devices' rows in the range; the answer's bytes. */
  general(devices: readonly number[], r: TimeRange): Promise<number>;
  close(): Promise<void>;
}

export function openRawReports(path: string, database = "fleet"): RawReports {
  const session = new Session(path);
  return {
    async general(devices, r) {
      const out = await session.queryBindAsync(GENERAL, { database, devices: [...devices], fromMs: r.fromMs, toMs: r.toMs }, { format: "JSONEachRow" });
      return Buffer.byteLength(out.text());
    },
    async close() {
      session.close();
      await drainPending();
    },
  };
}

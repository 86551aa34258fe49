import { join } from "node:path";
import { createChdbHistory } from "./chdb.js";
import { createClickHouseHistory } from "./clickhouse.js";
import type { HistoryStore } from "./port.js";

/** The history part of the validated configuration (CLICKHOUSE_*, DATA_DIR). */
export interface HistoryConfig {
  clickhouseUrl?: string;
  clickhouseUser?: string;
  clickhousePassword?: string;
  clickhouseDatabase: string;
  dataDir: string;
}

/** A ClickHouse server when CLICKHOUSE_URL is set, else chDB under `${DATA_DIR}/history`. */
export function createHistory(config: HistoryConfig): HistoryStore {
  if (config.clickhouseUrl) {
    return createClickHouseHistory({
      url: config.clickhouseUrl,
      username: config.clickhouseUser,
      password: config.clickhousePassword,
      database: config.clickhouseDatabase,
    });
  }
  return createChdbHistory({ path: join(config.dataDir, "history"), database: config.clickhouseDatabase });
}

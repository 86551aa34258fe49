import { createClient, type ClickHouseClient } from "@clickhouse/client";
import { checkDatabaseName, JSON_ARRAY_SETTINGS, type HistoryDriver, type QueryParams } from "./driver.js";
import type { HistoryStore } from "./port.js";
import { historyStoreOver } from "./store.js";

export interface ClickHouseHistoryOptions {
  /** e.g. http://127.0.0.1:8123 */
  url: string;
  username?: string;
  password?: string;
  /** Created by migrate() if missing. */
  database: string;
}

function clickHouseDriver(client: ClickHouseClient): HistoryDriver {
  let closed = false;
  return {
    kind: "clickhouse",
    async command(sql, params) {
      await client.command({ query: sql, query_params: params });
    },
    async select<T>(sql: string, params?: QueryParams) {
      const rs = await client.query({ query: sql, query_params: params, format: "JSONEachRow" });
      return rs.json<T>();
    },
    async selectJson<T>(sql: string, params?: QueryParams) {
      const rs = await client.query({ query: sql, query_params: params, format: "CustomSeparated", clickhouse_settings: JSON_ARRAY_SETTINGS });
      const text = await rs.text();
      return text.length > 0 ? (JSON.parse(text) as T[]) : [];
    },
    async selectRowBinary(sql, params) {
      // query() parses only the formats it knows; exec() hands back the bytes as they come.
      const { stream } = await client.exec({ query: `${sql}\nFORMAT RowBinary`, query_params: params });
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async insertRows(table, columns, rows) {
      if (rows.length === 0) return;
      // The tracker flushes as soon as its batches in hand are done, which at low traffic
      // means small inserts; the server buffers those itself and answers once they are
      // written (async insert, waited for), so durability is unchanged.
      await client.insert({ table, columns: [...columns], values: [...rows], format: "JSONCompactEachRow", clickhouse_settings: { async_insert: 1, wait_for_async_insert: 1 } });
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

/**
 * History over an existing @clickhouse/client. Tables are always qualified with
 * `database`, so the client itself needs no default database (one that does not
 * exist yet would fail every request, including the CREATE DATABASE).
 */
export function clickHouseHistoryOverClient(client: ClickHouseClient, database: string): HistoryStore {
  return historyStoreOver(clickHouseDriver(client), checkDatabaseName(database));
}

/** History on a ClickHouse server, shared by every tracker and api instance. */
export function createClickHouseHistory(options: ClickHouseHistoryOptions): HistoryStore {
  const database = checkDatabaseName(options.database);
  const client = createClient({
    url: options.url,
    username: options.username,
    password: options.password,
    application: "fleet-history",
  });
  return clickHouseHistoryOverClient(client, database);
}

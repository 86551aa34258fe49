import { drainPending, Session } from "chdb";
import { checkDatabaseName, JSON_ARRAY_SETTINGS, type HistoryDriver, type QueryParams } from "./driver.js";
import type { HistoryStore } from "./port.js";
import { historyStoreOver } from "./store.js";

export interface ChdbHistoryOptions {
  /** Data directory; created if missing, kept across restarts. */
  path: string;
  /** Database inside the data directory. Default "fleet", as CLICKHOUSE_DATABASE. */
  database?: string;
}

function parseJsonEachRow<T>(text: string): T[] {
  const rows: T[] = [];
  for (const line of text.split("\n")) {
    if (line.length > 0) rows.push(JSON.parse(line) as T);
  }
  return rows;
}

/** chDB takes settings in the statement only. */
const JSON_ARRAY_CLAUSE = `\nSETTINGS ${Object.entries(JSON_ARRAY_SETTINGS)
  .map(([k, v]) => `${k} = '${v}'`)
  .join(", ")}`;

function chdbDriver(path: string): HistoryDriver {
  let closed = false;
  // Opened on first use: the engine locks its directory for the whole process, and a
  // process that never reads history (an API instance of this issue) must not hold it.
  let opened: Session | undefined;
  const session = () => (opened ??= new Session(path));
  // Parameterless statements skip queryBindAsync: chdb serialises every bound
  // query process-wide (its parameter state is not per connection), plain ones run in parallel.
  const run = (sql: string, params: QueryParams | undefined, format: string) =>
    params && Object.keys(params).length > 0 ? session().queryBindAsync(sql, params, { format }) : session().queryAsync(sql, { format });
  return {
    kind: "chdb",
    async command(sql, params) {
      await run(sql, params, "TabSeparated");
    },
    async select<T>(sql: string, params?: QueryParams) {
      const result = await run(sql, params, "JSONEachRow");
      return parseJsonEachRow<T>(result.text());
    },
    async selectJson<T>(sql: string, params?: QueryParams) {
      const result = await run(sql + JSON_ARRAY_CLAUSE, params, "CustomSeparated");
      const text = result.text();
      // No rows may come back as no text at all rather than `[]`.
      return text.length > 0 ? (JSON.parse(text) as T[]) : [];
    },
    async selectRowBinary(sql, params) {
      return (await run(sql, params, "RowBinary")).bytes();
    },
    async insertRows(table, columns, rows) {
      if (rows.length === 0) return;
      // The raw passthrough: one Buffer, parsed by the engine's own JSON reader,
      // rather than chdb's row-array path that builds a VALUES literal in JS.
      const payload = Buffer.from(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
      await session().insert({ table, columns, values: payload, format: "JSONCompactEachRow" });
    },
    async close() {
      if (closed) return;
      closed = true;
      if (!opened) return;
      opened.close();
      // close() defers the native teardown while any operation is in flight, and until
      // it lands the process cannot open a session on another directory.
      await drainPending();
    },
  };
}

/**
 * History in process through chDB. The engine binds one data directory per process:
 * a second store on the same path shares it, a store on another path throws until
 * this one is closed. Other processes must go through the API, not the directory.
 */
export function createChdbHistory(options: ChdbHistoryOptions): HistoryStore {
  const db = checkDatabaseName(options.database ?? "fleet");
  return historyStoreOver(chdbDriver(options.path), db);
}

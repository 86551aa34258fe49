import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { uniqueSuffix } from "./fixtures.js";
import { serviceUrls } from "./services.js";

/**
 * A temporary data directory for a chDB history store. Close the store before
 * `cleanup`: chDB binds one data directory per process, so a test file can hold one
 * such store open at a time, and must close it before opening one on another directory.
 *
 *   const { path, cleanup } = await tempChdbDir();
 *   const store = createChdbHistory({ path }); await store.migrate();
 *   ... await store.close(); await cleanup();
 */
export async function tempChdbDir(): Promise<{ path: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "fleet-chdb-"));
  return { path: dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface ClickHouseTestDb {
  url: string;
  username?: string;
  password?: string;
  /** Unique per call; the store's migrate() creates it. */
  database: string;
  /** Drops the database; best effort, never throws. */
  cleanup(): Promise<void>;
}

/**
 * A database name of its own on the ClickHouse server at CLICKHOUSE_URL (only
 * meaningful when `hasService("clickhouse")`). Cleanup talks to the HTTP interface
 * with fetch so testkit needs no ClickHouse client of its own.
 */
export function clickhouseTestDb(label = "test"): ClickHouseTestDb {
  const url = serviceUrls.clickhouse;
  const username = process.env.CLICKHOUSE_USER;
  const password = process.env.CLICKHOUSE_PASSWORD;
  // Only [a-z0-9_] after a letter: usable unquoted as a ClickHouse identifier.
  const database = `test_${label.toLowerCase().replace(/[^a-z0-9_]/g, "_")}_${uniqueSuffix()}`;
  return {
    url,
    username,
    password,
    database,
    async cleanup() {
      const headers: Record<string, string> = {};
      if (username) headers["X-ClickHouse-User"] = username;
      if (password) headers["X-ClickHouse-Key"] = password;
      try {
        const res = await fetch(url, { method: "POST", headers, body: `DROP DATABASE IF EXISTS ${database}` });
        if (!res.ok) console.warn(`[testkit] could not drop ClickHouse database ${database}: ${await res.text()}`);
      } catch (err) {
        console.warn(`[testkit] could not drop ClickHouse database ${database}: ${String(err)}`);
      }
    },
  };
}

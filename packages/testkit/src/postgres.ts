import { randomBytes } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { serviceUrls } from "./services.js";

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serviceUrls.postgres });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database `fleet_test_<random>` on the shared test server
 * (TEST_DATABASE_URL), so tests running at once never see each other's rows.
 * `cleanup` drops it WITH (FORCE), closing connections a failed test left open.
 */
export async function tempPostgresDb(): Promise<{ url: string; cleanup(): Promise<void> }> {
  // Only [0-9a-f_] in the name, so it needs no quoting beyond the double quotes below.
  const name = `fleet_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(serviceUrls.postgres);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async cleanup() {
      if (dropped) return;
      dropped = true;
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/**
 * A temporary data directory for an embedded store (PGlite keeps files under it), holding an
 * empty PGlite cluster: a copy of global setup's template, so the store starts without
 * running initdb. Outside a run with that setup it is an empty directory (PGlite runs initdb).
 */
export async function tempPglite(): Promise<{ dataDir: string; cleanup(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "fleet-pglite-"));
  const template = inject("pgliteTemplate");
  if (template) await cp(template, dataDir, { recursive: true });
  return { dataDir, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

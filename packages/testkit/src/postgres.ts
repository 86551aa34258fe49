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
 * A template global setup made, inside a vitest run; a bench or script that borrows these
 * helpers has no global setup (and vitest's inject throws there), so it starts from nothing.
 */
const template = (key: "postgresTemplate" | "pgliteTemplate"): string | undefined => (process.env.VITEST ? inject(key) || undefined : undefined);

const dbUrl = (name: string) => {
  const url = new URL(serviceUrls.postgres);
  url.pathname = `/${name}`;
  return url.toString();
};

/** A new database `fleet_test_<random>` on the test server, blank or a copy of `template`. */
export async function createPostgresDb(template?: string): Promise<{ name: string; url: string }> {
  // Only [0-9a-f_] in the names, so they need no quoting beyond the double quotes below.
  const name = `fleet_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  return { name, url: dbUrl(name) };
}

/** Drops it WITH (FORCE), closing connections a failed test left open. */
export function dropPostgresDb(name: string): Promise<void> {
  return adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/**
 * A fresh database on the shared test server (TEST_DATABASE_URL), so tests running at once
 * never see each other's rows: a copy of global setup's migrated one, so that migrating it
 * finds nothing to do, or with `blank` (and outside a vitest run) an empty one.
 */
export async function tempPostgresDb(opts: { blank?: boolean } = {}): Promise<{ url: string; cleanup(): Promise<void> }> {
  const { name, url } = await createPostgresDb(opts.blank ? undefined : template("postgresTemplate"));
  let dropped = false;
  return {
    url,
    async cleanup() {
      if (dropped) return;
      dropped = true;
      await dropPostgresDb(name);
    },
  };
}

/**
 * A temporary data directory for an embedded store (PGlite keeps files under it), holding an
 * empty, migrated PGlite cluster: a copy of global setup's, so the store starts without
 * running initdb or the migrations. Outside a run with that setup it is an empty directory.
 */
export async function tempPglite(): Promise<{ dataDir: string; cleanup(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "fleet-pglite-"));
  const from = template("pgliteTemplate");
  if (from) await cp(from, dataDir, { recursive: true });
  return { dataDir, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { DbConfig } from "@fleet/db";
import { serviceUrls, tempPostgresDb } from "@fleet/testkit";
import { defer } from "./harness.js";
import { flushRedisDb, redisDbSize } from "./redis.js";

export type StoreKind = "embedded" | "postgres";

export const storeLabel = (kind: StoreKind) => (kind === "embedded" ? "embedded (PGlite, chDB, memory)" : "Postgres + Redis (chDB history)");

/** Where one run's app keeps its data, and the environment that points it there. */
export interface Store {
  kind: StoreKind;
  dataDir: string;
  /** What the bench opens to seed the records store. */
  db: DbConfig;
  /** The store variables for the app; unset ones select the embedded adapter. */
  env: { DATABASE_URL?: string; REDIS_URL?: string };
  /** Removes what `prepareStore` made (also done by the run's cleanup). */
  release(): Promise<void>;
}

/**
 * A fresh, empty store. Embedded: a temp DATA_DIR (PGlite and chDB in it, the live store
 * in memory). Postgres + Redis: a fresh database on the shared server (testkit's
 * tempPostgresDb, dropped at the end) and a Redis database index of the bench's own,
 * flushed before and after; chDB under the temp DATA_DIR keeps the history in both.
 */
export async function prepareStore(kind: StoreKind, redisDb: number, log: (line: string) => void): Promise<Store> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `fleet-bench-live-${kind}-`));
  const releases = [defer(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }))];
  if (kind === "embedded") {
    return { kind, dataDir, db: { dataDir }, env: {}, release: () => runAll(releases) };
  }
  const pgDb = await tempPostgresDb();
  releases.push(defer("drop the bench database", () => pgDb.cleanup()));
  const redis = new URL(serviceUrls.redis);
  redis.pathname = `/${redisDb}`;
  const redisUrl = redis.toString();
  const keys = await redisDbSize(redisUrl, redisDb);
  if (keys > 0) log(`  Redis database ${redisDb} held ${keys} keys (a previous run's?); flushing it`);
  await flushRedisDb(redisUrl, redisDb);
  releases.push(defer(`flush Redis database ${redisDb}`, () => flushRedisDb(redisUrl, redisDb)));
  log(`  database ${new URL(pgDb.url).pathname.slice(1)}, Redis database ${redisDb}, DATA_DIR ${dataDir}`);
  return { kind, dataDir, db: { databaseUrl: pgDb.url, dataDir }, env: { DATABASE_URL: pgDb.url, REDIS_URL: redisUrl }, release: () => runAll(releases) };
}

/** Runs undo steps newest first, each once. */
async function runAll(steps: (() => Promise<void>)[]): Promise<void> {
  for (const step of [...steps].reverse()) await step();
}

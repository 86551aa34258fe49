import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { createPostgresDb, dropPostgresDb, oncePerRun, probeServices } from "@fleet/testkit";
import { openDb, type DbConfig } from "../src/client.js";

/**
 * Global setup: one migrated, empty store of each kind per test run, which every temporary
 * store copies (tempPglite, tempPostgresDb). Opening a new PGlite directory runs initdb
 * (about 5 s of CPU) and migrating any store takes 1–2 s; the suites open a hundred or so.
 * A copy starts as the migrations leave a store, so a test's migrate() finds nothing to do;
 * tests of migrating itself ask for a blank database (tempPostgresDb({ blank: true })).
 * Every project of the run shares them; each project's teardown comes once all are done.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [pglite, postgres] = await oncePerRun("store-templates", () => Promise.all([pgliteTemplate(), postgresTemplate()]));
  project.provide("pgliteTemplate", pglite.dataDir);
  project.provide("postgresTemplate", postgres?.name ?? "");
  return async () => {
    await Promise.all([pglite.cleanup(), postgres?.cleanup()]);
  };
}

/** Migrates the store and closes it: a template is copied only while nobody is connected to it. */
async function migrated(config: DbConfig): Promise<void> {
  const handle = await openDb(config);
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
}

async function pgliteTemplate(): Promise<{ dataDir: string; cleanup(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "fleet-pglite-template-"));
  await migrated({ dataDir });
  return { dataDir, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

/** Where no PostgreSQL answers there is nothing to copy: its tests skip (or, in CI, testkit's setup fails the run). */
async function postgresTemplate(): Promise<{ name: string; cleanup(): Promise<void> } | undefined> {
  if (!(await probeServices()).postgres) return undefined;
  const db = await createPostgresDb();
  await migrated({ databaseUrl: db.url, dataDir: "unused" });
  return { name: db.name, cleanup: () => dropPostgresDb(db.name) };
}

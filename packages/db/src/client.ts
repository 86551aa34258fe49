import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { listenPglite, listenPostgres, type NoticeHandlers, type NoticeListener } from "./notices.js";
import * as schema from "./schema/index.js";

/**
 * The one database type all query code is written against: the common supertype of the
 * node-postgres and PGlite drizzle databases, so each query exists once for both adapters.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** What `Db.transaction` hands its callback; query functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** A database or an open transaction: read and single-statement query functions take either. */
export type Queryable = Db | Tx;

export interface DbConfig {
  /** A postgres:// URL selects PostgreSQL; unset (or empty) selects embedded PGlite. */
  databaseUrl?: string;
  /** Where PGlite keeps its files (`${dataDir}/pglite`); unused with PostgreSQL. */
  dataDir: string;
  /**
   * Told how many rows each statement outside a transaction returned: what a read costs,
   * for diagnostics and for tests that check a read does not grow with the data.
   */
  onRows?: (rows: number) => void;
}

/** Wraps `client.query` so each result's row count reaches `onRows`. */
function observeRows<C extends { query: (...args: never[]) => Promise<unknown> }>(client: C, onRows: ((rows: number) => void) | undefined): void {
  if (!onRows) return;
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  client.query = (async (...args: unknown[]) => {
    const result = await query(...args);
    const rows = (result as { rows?: unknown[] } | undefined)?.rows;
    onRows(Array.isArray(rows) ? rows.length : 0);
    return result;
  }) as C["query"];
}

export interface DbHandle {
  db: Db;
  kind: "postgres" | "pglite";
  /** Applies the committed migrations in drizzle/; safe to call on every start. */
  migrate(): Promise<void>;
  /** Listens for the notices (pg_notify) on `channel`; resolves once listening. */
  listen(channel: string, handlers: NoticeHandlers): Promise<NoticeListener>;
  close(): Promise<void>;
}

/**
 * The committed migrations, found relative to this module: `../drizzle` is the package's
 * drizzle/ folder both from src/client.ts and from dist/client.js (hence client.ts sits at
 * the top of src/). The package's "files" ships that folder next to dist/.
 */
export const migrationsFolder = fileURLToPath(new URL("../drizzle", import.meta.url));

// Session-level advisory lock key (an arbitrary constant, "fleetdb" in ASCII) held while
// migrating, so several apps starting against one server apply migrations one at a time.
const MIGRATION_LOCK_KEY = 0x666c656574646dn;

export async function openDb(config: DbConfig): Promise<DbHandle> {
  const handle = config.databaseUrl ? openPostgres(config.databaseUrl, config.onRows) : await openPglite(config.dataDir, config.onRows);
  // Calls through one handle run one after another: the migrator reads "what is applied"
  // before its transaction, so two overlapping calls would both try to apply everything.
  // Across processes the advisory lock below does the same job.
  let last: Promise<unknown> = Promise.resolve();
  const migrate = handle.migrate;
  handle.migrate = () => {
    const run = last.then(() => migrate());
    last = run.catch(() => undefined);
    return run;
  };
  return handle;
}

function openPostgres(url: string, onRows?: (rows: number) => void): DbHandle {
  const pool = new pg.Pool({ connectionString: url });
  observeRows(pool, onRows);
  // An idle client that loses its connection emits on the pool; unhandled, that would crash
  // the process. The next query reports the problem instead.
  pool.on("error", (err) => console.error("[db] idle PostgreSQL client error:", err.message));
  const db = drizzlePg({ client: pool, schema });
  return {
    db,
    kind: "postgres",
    async migrate() {
      // The lock is per session, so it and the migrator must share one client, not the pool.
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
        try {
          await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
        } finally {
          await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()]);
        }
      } finally {
        client.release();
      }
    },
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string, onRows?: (rows: number) => void): Promise<DbHandle> {
  const dir = path.join(dataDir, "pglite");
  await mkdir(dir, { recursive: true });
  const client = new PGlite(dir);
  // Surface a corrupt or locked data directory here, not at the first query.
  await client.waitReady;
  observeRows(client, onRows);
  const db = drizzlePglite({ client, schema });
  return {
    db,
    kind: "pglite",
    // One process owns a PGlite directory, so there is nobody to race and no lock to take.
    migrate: () => migratePglite(db, { migrationsFolder }),
    listen: (channel, handlers) => listenPglite(client, channel, handlers),
    close: () => client.close(),
  };
}

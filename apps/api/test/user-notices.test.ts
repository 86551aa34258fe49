import Fastify, { type FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryBus } from "@fleet/bus";
import { createUser, openDb, type DbHandle, type User } from "@fleet/db";
import { createMemoryLive } from "@fleet/live";
import { hasService, sleep, tempPostgresDb } from "@fleet/testkit";
import { apiApp, apiServerOptions, busDeadLetters, createBusCommandQueue, API_VERSION } from "../src/index.js";
import { lazyChdbHistory } from "./fixture.js";

/** One api instance over its own connections to a shared PostgreSQL database, counting its statements. */
async function instance(url: string): Promise<{ app: FastifyInstance; handle: DbHandle; statements(): number; close(): Promise<void> }> {
  let statements = 0;
  const handle = await openDb({ databaseUrl: url, dataDir: "unused", onRows: () => statements++ });
  await handle.migrate();
  const app = Fastify(apiServerOptions());
  const bus = createMemoryBus();
  const producer = await bus.producer();
  const history = lazyChdbHistory();
  await app.register(apiApp, {
    prefix: "/api",
    db: handle.db,
    listen: handle.listen,
    live: createMemoryLive(),
    history,
    commands: createBusCommandQueue({ producer }),
    deadLetters: busDeadLetters(bus, producer),
    settings: { offlineAfterMs: 300_000, version: API_VERSION },
  });
  await app.ready();
  return {
    app,
    handle,
    statements: () => statements,
    close: async () => {
      await app.close();
      await history.close();
      await bus.close();
      await handle.close();
    },
  };
}

const userData = (app: FastifyInstance, hash: string) => app.inject({ method: "GET", url: `/api/get_user_data?lang=en&user_api_hash=${hash}` });

/** Polls until `check` holds, for up to `ms`; the notice travels over another connection. */
async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await sleep(20);
  }
}

// Needs the PostgreSQL server of infra/; global setup prints why it skips without one, and CI fails instead.
describe.runIf(hasService("postgres"))("authenticated users across api instances [postgres]", () => {
  let db: Awaited<ReturnType<typeof tempPostgresDb>>;
  let a: Awaited<ReturnType<typeof instance>>;
  let b: Awaited<ReturnType<typeof instance>>;
  let admin: pg.Client;

  beforeAll(async () => {
    db = await tempPostgresDb();
    a = await instance(db.url);
    b = await instance(db.url);
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await a?.close();
    await b?.close();
    await db?.cleanup();
  });

  const newUser = (): Promise<User> => createUser(a.handle.db, { email: `u${Date.now()}${Math.random()}@x.test`, password: "pw-123456" });

  it("looks a known hash up in the database once, not on every request", async () => {
    const u = await newUser();
    const before = b.statements();
    expect((await userData(b.app, u.apiHash)).statusCode).toBe(200);
    const first = b.statements() - before;
    expect((await userData(b.app, u.apiHash)).statusCode).toBe(200);
    const second = b.statements() - before - first;
    expect(second).toBe(first - 1);
  });

  it("refuses an old hash on every instance once the password changes on one, and shows a user's changed row", async () => {
    const u = await newUser();
    expect((await userData(b.app, u.apiHash)).statusCode).toBe(200);
    const changed = await a.app.inject({ method: "POST", url: "/api/change_password", payload: { lang: "en", user_api_hash: u.apiHash, password: "brand-new-pw", password_confirmation: "brand-new-pw" } });
    expect(changed.statusCode).toBe(200);
    // On the instance that changed it, at once.
    expect((await userData(a.app, u.apiHash)).statusCode).toBe(401);
    expect(await eventually(async () => (await userData(b.app, u.apiHash)).statusCode === 401)).toBe(true);

    const v = await newUser();
    expect(JSON.parse((await userData(b.app, v.apiHash)).body).expiration_date).toBeNull();
    await admin.query("UPDATE users SET expiration_date = now() + interval '30 days' WHERE id = $1", [v.id]);
    expect(await eventually(async () => JSON.parse((await userData(b.app, v.apiHash)).body).expiration_date !== null)).toBe(true);
  });

  it("trusts nothing it kept once its listening connection is lost, and hears notices again once it is back", async () => {
    const u = await newUser();
    expect((await userData(b.app, u.apiHash)).statusCode).toBe(200);
    // Both instances' listeners go; the change below is made while they are down.
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "fleet_users"'`);
    await admin.query("UPDATE users SET active = false WHERE id = $1", [u.id]);
    expect(await eventually(async () => (await userData(b.app, u.apiHash)).statusCode === 401)).toBe(true);

    const v = await newUser();
    // Back and listening: a hash is kept again, and a change is heard again.
    expect(await eventually(async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "fleet_users"'`)).rows[0].n === 2)).toBe(true);
    expect((await userData(b.app, v.apiHash)).statusCode).toBe(200);
    await admin.query("UPDATE users SET active = false WHERE id = $1", [v.id]);
    expect(await eventually(async () => (await userData(b.app, v.apiHash)).statusCode === 401)).toBe(true);
  });
});

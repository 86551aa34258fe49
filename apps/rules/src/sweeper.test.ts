import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlert, createDevice, createUser, openDb, type DbHandle } from "@fleet/db";
import { createMemoryLive, type LiveStore } from "@fleet/live";
import { sleep, tempPglite, waitFor } from "@fleet/testkit";
import { alertValues } from "../test/fixture.js";
import { alert, deviceRules } from "./testing.js";
import { startSweeper, type Sweeper } from "./sweeper.js";

const EVERY_MS = 200;

/*
 * Several rules instances share one live store; the sweep reads every watched device's state,
 * so each period one instance sweeps, not all of them. Counted by the states the sweeps read.
 */
describe("the sweep timer with several instances", () => {
  let pg: Awaited<ReturnType<typeof tempPglite>>;
  let db: DbHandle;
  let deviceId: number;

  beforeAll(async () => {
    pg = await tempPglite();
    db = await openDb({ dataDir: pg.dataDir });
    await db.migrate();
    const user = await createUser(db.db, { email: "sweeper@test.local", password: "sweeper-secret-1" });
    deviceId = (await createDevice(db.db, user.id, { name: "Van", imei: "sweeper-imei-1" })).id;
    await createAlert(db.db, user.id, alertValues({ type: "offline_duration", attributes: { offline_duration: 30 }, devices: [deviceId] }));
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    await pg?.cleanup();
  });

  /** The live store, counting the sweeps that read states through it. */
  function countingLive() {
    const live = createMemoryLive();
    const counted = { sweeps: 0 };
    const store: Pick<LiveStore, "getStates" | "getRuleStates" | "claim"> = {
      getStates: (ids) => (counted.sweeps++, live.getStates(ids)),
      getRuleStates: (ids) => live.getRuleStates(ids),
      claim: (name, ttlMs) => live.claim(name, ttlMs),
    };
    return { store, counted };
  }

  const sweeper = (live: Pick<LiveStore, "getStates" | "getRuleStates" | "claim">): Sweeper =>
    startSweeper({
      db: db.db,
      live,
      book: { of: async () => new Map([[deviceId, deviceRules([alert({ type: "offline_duration", attributes: { offline_duration: 30 } })])]]), changed() {} },
      record: async () => 0,
      everyMs: EVERY_MS,
      logger: { warn() {} },
    });

  it("sweeps about once a period with two instances ticking, and goes on when one stops", async () => {
    const { store, counted } = countingLive();
    const a = sweeper(store);
    const b = sweeper(store);
    const started = Date.now();
    await waitFor("six sweeps", async () => counted.sweeps >= 6, 10_000, 20);
    const elapsed = Date.now() - started;
    // A lease lasts 0.9 of a period, so no two sweeps start within it, whichever instance runs them.
    expect(counted.sweeps).toBeLessThanOrEqual(Math.floor(elapsed / (EVERY_MS * 0.9)) + 1);
    await a.close();
    const before = counted.sweeps;
    await waitFor("a sweep by the instance left", async () => counted.sweeps > before, 10_000, 20);
    await b.close();
  }, 30_000);

  it("sweeps at every period without another instance, and at once when asked", async () => {
    const { store, counted } = countingLive();
    const one = sweeper(store);
    await waitFor("three sweeps", async () => counted.sweeps >= 3, 10_000, 20);
    // Asked directly, it sweeps whatever the lease (the timer's just took it).
    const before = counted.sweeps;
    await one.sweep();
    expect(counted.sweeps).toBe(before + 1);
    await one.close();
    await sleep(EVERY_MS * 2);
    const after = counted.sweeps;
    await sleep(EVERY_MS * 2);
    expect(counted.sweeps).toBe(after);
  }, 30_000);
});

/*
 * A get_devices_latest poll costs what changed, not what exists: the rows it reads from the
 * records store are the same for a fleet of 20 and of 400 devices, and none when nothing
 * changed. Driven through the devices domain module (no HTTP), on both records stores, with
 * the store's row counter (`onRows`) as the measure.
 */
import { tmpdir } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { createDevice, createUser, openDb, type DbHandle, type User } from "@fleet/db";
import { createMemoryLive, type LiveStore } from "@fleet/live";
import { hasService, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import * as devices from "../src/domain/devices.js";

interface Fleet {
  user: User;
  ids: number[];
}

function suite(store: "pglite" | "postgres") {
  let handle: DbHandle | undefined;
  let live: LiveStore | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  let rows = 0;

  async function open() {
    if (handle) return handle;
    const where = store === "pglite" ? await tempPglite() : await tempPostgresDb();
    cleanups.push(where.cleanup);
    handle = await openDb({ databaseUrl: "url" in where ? where.url : undefined, dataDir: "dataDir" in where ? where.dataDir : tmpdir(), onRows: (n) => void (rows += n) });
    await handle.migrate();
    live = createMemoryLive();
    return handle;
  }

  afterAll(async () => {
    await live?.close();
    await handle?.close();
    for (const c of cleanups) await c();
  });

  async function fleet(size: number): Promise<Fleet> {
    const { db } = await open();
    const suffix = uniqueSuffix();
    const user = await createUser(db, { email: `poll-${size}-${suffix}@cost.test`, password: "cost-secret-1" });
    const ids: number[] = [];
    for (let i = 0; i < size; i++) {
      const imei = `${suffix}${String(i).padStart(5, "0")}`;
      ids.push((await createDevice(db, user.id, { name: `Van ${i}`, imei, iconId: 1, fuelMeasurementId: 1, tailLength: 5, minMovingSpeed: 6, minFuelFillings: 10, minFuelThefts: 10 })).id);
    }
    return { user, ids };
  }

  /** Rows read by one poll from `time` after `changed` devices were marked, and the ids it listed. */
  async function poll(f: Fleet, changed: number): Promise<{ rows: number; listed: number[] }> {
    const view = { db: handle!.db, live: live!, settings: { offlineAfterMs: 300_000, version: "test" } };
    const { time } = await devices.latest(view, f.user, undefined);
    // Past the second the first poll answered with: that second is sent again.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    await live!.markChanged(f.ids.slice(0, changed).map((deviceId) => ({ deviceId, userIds: [f.user.id] })));
    rows = 0;
    const res = await devices.latest(view, f.user, time);
    return { rows, listed: res.items.map((i) => i.id) };
  }

  it("reads no more rows for 400 devices than for 20, and none when nothing changed", async () => {
    const small = await fleet(20);
    const large = await fleet(400);

    const emptySmall = await poll(small, 0);
    const emptyLarge = await poll(large, 0);
    const fiveSmall = await poll(small, 5);
    const fiveLarge = await poll(large, 5);
    console.log(`[live] poll_rows store=${store} empty_20=${emptySmall.rows} empty_400=${emptyLarge.rows} five_of_20=${fiveSmall.rows} five_of_400=${fiveLarge.rows}`);

    expect(emptyLarge.listed).toEqual([]);
    expect(emptyLarge.rows).toBe(0);
    expect(fiveSmall.listed).toEqual(small.ids.slice(0, 5));
    expect(fiveLarge.listed).toEqual(large.ids.slice(0, 5));
    expect(fiveLarge.rows).toBeGreaterThan(0);
    expect(fiveLarge.rows).toBe(fiveSmall.rows);
  }, 120_000);
}

describe("a live poll's cost [pglite]", () => suite("pglite"));
describe.runIf(hasService("postgres"))("a live poll's cost [postgres]", () => suite("postgres"));

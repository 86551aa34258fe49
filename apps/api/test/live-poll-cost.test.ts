/*
 * A get_devices_latest poll costs what changed, not what exists: the rows it reads from the
 * records store are the same for a fleet of 20 and of 400 devices, and none when nothing
 * changed; new events cost one query for all of them. Driven through the devices domain
 * module (no HTTP), on both records stores, with the store's row counter (`onRows`) as the measure.
 */
import { tmpdir } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import type { LiveState } from "@fleet/contracts";
import { createDevice, createUser, onEventsRecorded, openDb, recordEvents, type DbHandle, type User } from "@fleet/db";
import { createGeocoder } from "@fleet/geocoder";
import { createMemoryLive, type LiveStore } from "@fleet/live";
import { hasService, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import * as devices from "../src/domain/devices.js";
import { liveRecordCache } from "../src/lib/live-records.js";

/** The offline geocoder, as an API without GEOCODER_URL names the events' places: it reads no rows. */
const geocoder = createGeocoder({ logger: { info() {}, warn() {} } });

function position(deviceId: number): LiveState {
  const now = Date.now();
  return {
    deviceId, positionId: now, uniqueId: `cost-${deviceId}`, protocol: "osmand", latitude: 54.7, longitude: 25.3, altitude: 100, course: 90, speedKmh: 30,
    fixTime: now, serverTime: now, attributes: {}, movedAt: now, odometerKm: 0, tail: [],
  };
}

interface Fleet {
  user: User;
  ids: number[];
}

function suite(store: "pglite" | "postgres") {
  let handle: DbHandle | undefined;
  let live: LiveStore | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  let rows = 0;
  let queries = 0;

  async function open() {
    if (handle) return handle;
    const where = store === "pglite" ? await tempPglite() : await tempPostgresDb();
    cleanups.push(where.cleanup);
    handle = await openDb({ databaseUrl: "url" in where ? where.url : undefined, dataDir: "dataDir" in where ? where.dataDir : tmpdir(), onRows: (n) => void ((rows += n), queries++) });
    await handle.migrate();
    live = createMemoryLive();
    // As the API's services plugin does: recorded events reach the live store.
    onEventsRecorded(handle.db, (recorded) => live!.markEvents(recorded));
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

  /**
   * Rows and statements of one poll from `time` after `changed` devices changed: their
   * records edited (marked), only their states (a new position each), or an event recorded on each.
   */
  async function poll(f: Fleet, changed: number, how: "record" | "state" | "event" = "record"): Promise<{ rows: number; queries: number; listed: number[]; events: number }> {
    const view = { db: handle!.db, live: live!, liveRecords: liveRecordCache(handle!.db, live!, { maxDevices: 100_000 }), geocoder, settings: { offlineAfterMs: 300_000, version: "test" } };
    const { time } = await devices.latest(view, f.user, undefined);
    // Past the second the first poll answered with: that second is sent again.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    const touched = f.ids.slice(0, changed);
    if (how === "record") await live!.markChanged(touched.map((deviceId) => ({ deviceId, userIds: [f.user.id] })));
    else if (how === "state") await live!.putStates(touched.map((deviceId) => ({ state: position(deviceId), userIds: [f.user.id] })));
    else {
      const at = new Date();
      await recordEvents(handle!.db, touched.map((deviceId) => ({ userId: f.user.id, deviceId, type: "sos" as const, message: "SOS", time: at, latitude: 54.7, longitude: 25.3, dedupeKey: `sos-${deviceId}-${at.getTime()}` })));
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
    }
    rows = 0;
    queries = 0;
    const res = await devices.latest(view, f.user, time);
    return { rows, queries, listed: res.items.map((i) => i.id), events: res.events.length };
  }

  it("reads no more rows for 400 devices than for 20, and none when nothing changed", async () => {
    const small = await fleet(20);
    const large = await fleet(400);

    const emptySmall = await poll(small, 0);
    const emptyLarge = await poll(large, 0);
    const fiveSmall = await poll(small, 5);
    const fiveLarge = await poll(large, 5);
    const movedLarge = await poll(large, 50, "state");
    const eventsSmall = await poll(small, 3, "event");
    const eventsLarge = await poll(large, 3, "event");
    console.log(
      `[live] poll_rows store=${store} empty_20=${emptySmall.rows} empty_400=${emptyLarge.rows} five_of_20=${fiveSmall.rows} five_of_400=${fiveLarge.rows} moved_50_of_400=${movedLarge.rows} events_3_of_400=${eventsLarge.rows}`,
    );

    expect(emptyLarge.listed).toEqual([]);
    expect(emptyLarge.rows).toBe(0);
    expect(emptyLarge.queries).toBe(0);
    expect(fiveSmall.listed).toEqual(small.ids.slice(0, 5));
    expect(fiveLarge.listed).toEqual(large.ids.slice(0, 5));
    // Edited records are read again, by id: the same rows and statements whatever the fleet.
    expect(fiveLarge.rows).toBeGreaterThan(0);
    expect(fiveLarge.rows).toBe(fiveSmall.rows);
    expect(fiveLarge.queries).toBe(fiveSmall.queries);
    // Devices that only moved are served from the cached records: nothing is read.
    expect(movedLarge.listed).toEqual(large.ids.slice(0, 50));
    expect(movedLarge.queries).toBe(0);
    // New events: their devices listed from the cached records, the events in one query.
    expect(eventsLarge.listed).toEqual(large.ids.slice(0, 3));
    expect(eventsLarge.events).toBe(3);
    expect(eventsLarge.queries).toBe(1);
    expect(eventsLarge.rows).toBe(eventsSmall.rows);
  }, 120_000);
}

describe("a live poll's cost [pglite]", () => suite("pglite"));
describe.runIf(hasService("postgres"))("a live poll's cost [postgres]", () => suite("postgres"));

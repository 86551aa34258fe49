/**
 * RFID driver switching on real PostgreSQL, and on PGlite (the embedded mode runs the same
 * UPDATE): positions go through the tracker as deployed (startTracker: device directory,
 * pipeline, the records store), over the in-process bus, with chDB history and the memory
 * live store.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryBus, type Bus, type BusProducer } from "@fleet/bus";
import type { RawPosition } from "@fleet/contracts";
import { assignDriversByRfid, createDevice, createDriver, createUser, findUserDevice, openDb, userDevices, type DbHandle } from "@fleet/db";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createMemoryLive, type LiveStore } from "@fleet/live";
import { hasService, sleep, tempChdbDir, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import { startTracker, type Tracker } from "../src/index.js";

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const T0 = Date.UTC(2025, 2, 1, 8, 0, 0);
const RAW = "positions.raw.rfid-test";

let positionId = 1;
function position(imei: string, fixTime: number, attributes: RawPosition["attributes"]): RawPosition {
  return { id: positionId++, uniqueId: imei, protocol: "osmand", latitude: 54.6, longitude: 25.2, altitude: 100, course: 0, speed: 10, fixTime, serverTime: fixTime + 500, attributes };
}

async function openRecords(kind: "postgres" | "pglite"): Promise<{ handle: DbHandle; cleanup(): Promise<void> }> {
  if (kind === "pglite") {
    const tmp = await tempPglite();
    return { handle: await openDb({ dataDir: tmp.dataDir }), cleanup: tmp.cleanup };
  }
  const tmp = await tempPostgresDb();
  return { handle: await openDb({ databaseUrl: tmp.url, dataDir: "unused" }), cleanup: tmp.cleanup };
}

for (const kind of ["postgres", "pglite"] as const) describeOn(kind);

function describeOn(kind: "postgres" | "pglite"): void {
  // PostgreSQL is the infra/ server; where none answers that half is skipped (global setup says why).
  describe.runIf(kind === "pglite" || hasService("postgres"))(`RFID driver switching on ${kind}`, () => {
    let records: { handle: DbHandle; cleanup(): Promise<void> };
    let chdb: Awaited<ReturnType<typeof tempChdbDir>>;
    let db: DbHandle;
    let history: HistoryStore;
    let bus: Bus;
    let producer: BusProducer;
    const trackers: Tracker[] = [];

    beforeAll(async () => {
      records = await openRecords(kind);
      db = records.handle;
      chdb = await tempChdbDir();
      await db.migrate();
      history = createChdbHistory({ path: chdb.path });
      await history.migrate();
      bus = createMemoryBus({ partitions: 2 });
      producer = await bus.producer();
    });

    afterAll(async () => {
      for (const t of trackers) await t.close();
      await producer?.close();
      await bus?.close();
      await history?.close();
      await db?.close();
      await Promise.all([records?.cleanup(), chdb?.cleanup()]);
    });

    /** A tracker in its own consumer group: it reads the topic from the start. */
    async function tracker(live: LiveStore): Promise<Tracker> {
      const t = await startTracker({ bus, db: db.db, history, live, logger: silent, flushRows: 1000, flushMs: 5, partitionsConcurrently: 2, deviceSyncMs: 60_000, topic: RAW, enrichedTopic: `${RAW}.enriched`, groupId: `rfid-${uniqueSuffix()}` });
      trackers.push(t);
      return t;
    }

    async function handled(t: Tracker, positions: number): Promise<void> {
      for (let i = 0; i < 500 && t.pipeline.stats().positions < positions; i++) await sleep(10);
      expect(t.pipeline.stats().positions).toBe(positions);
    }

    async function send(...positions: RawPosition[]): Promise<void> {
      await producer.send(RAW, positions.map((p) => ({ key: p.uniqueId, value: JSON.stringify(p) })));
    }

    async function pivot(userId: number, deviceId: number) {
      const { pivot } = (await findUserDevice(db.db, userId, deviceId))!;
      return { driverId: pivot.currentDriverId, since: pivot.currentDriverSince };
    }

    async function fleet() {
      const user = await createUser(db.db, { email: `rfid-${uniqueSuffix()}@example.com`, password: "secret-pw-1" });
      const imei = `86${Date.now()}${uniqueSuffix()}`.slice(0, 20);
      const device = await createDevice(db.db, user.id, { name: "Van", imei, iconId: 1, fuelMeasurementId: 1, tailLength: 5, minMovingSpeed: 6, minFuelFillings: 10, minFuelThefts: 10 });
      const driver = (name: string, rfid: string) => createDriver(db.db, user.id, { deviceId: device.id, name, rfid });
      return { user, device, imei, driver };
    }

    it("switches the driver by a position's rfid, never back for an older fix, and not at all on a replay", async () => {
      const { user, device, imei, driver } = await fleet();
      const anna = await driver("Anna", "CARD-A");
      const ben = await driver("Ben", "card-b");
      // Ben was added last, by hand.
      expect(await pivot(user.id, device.id)).toEqual({ driverId: ben.id, since: null });

      const live = createMemoryLive();
      const marked: number[] = [];
      const mark = live.markChanged.bind(live);
      live.markChanged = async (entries) => {
        marked.push(...entries.map((e) => e.deviceId));
        return mark(entries);
      };
      const first = await tracker(live);

      // Stored "CARD-A", read "card-a": matched whatever the case.
      const sent = [position(imei, T0 + 1000, { rfid: "card-a" }), position(imei, T0 + 3000, { driveruniqueid: "CARD-B" }), position(imei, T0 + 2000, { rfid: "card-a" })];
      await send(sent[0]!);
      await handled(first, 1);
      expect(await pivot(user.id, device.id)).toEqual({ driverId: anna.id, since: new Date(T0 + 1000) });
      expect(marked).toEqual([device.id]);

      // Traccar's attribute name for the same thing.
      await send(sent[1]!);
      await handled(first, 2);
      expect(await pivot(user.id, device.id)).toEqual({ driverId: ben.id, since: new Date(T0 + 3000) });

      // A fix from before Ben's card, delivered late, does not hand the van back to Anna.
      await send(sent[2]!);
      await handled(first, 3);
      expect(await pivot(user.id, device.id)).toEqual({ driverId: ben.id, since: new Date(T0 + 3000) });
      expect(marked).toEqual([device.id, device.id]);

      // Every message again (at-least-once delivery), read as well by a tracker that remembers
      // nothing: its own group and a live store without the device's state, so Anna's first
      // fix looks like the latest to it. The stored assignment is newer than that fix.
      const replay = await tracker(createMemoryLive());
      const [p1, p2, p3] = sent;
      await send(p1!);
      await handled(replay, 1);
      expect(await pivot(user.id, device.id)).toEqual({ driverId: ben.id, since: new Date(T0 + 3000) });
      await send(p2!, p3!);
      await handled(replay, 3);
      await handled(first, 6);
      expect(await pivot(user.id, device.id)).toEqual({ driverId: ben.id, since: new Date(T0 + 3000) });
      expect(marked).toEqual([device.id, device.id]);
    });

    it("gives each user of a shared device their own matching driver, replacing one set by hand, and leaves a user without one alone", async () => {
      const a = await fleet();
      const other = await fleet();
      const third = await fleet();
      // The device is shared with `other` (whose own driver has the same card) and `third` (who has none).
      await db.db.insert(userDevices).values([
        { userId: other.user.id, deviceId: a.device.id },
        { userId: third.user.id, deviceId: a.device.id },
      ]);
      const mine = await a.driver("Mine", "Shared-Card");
      // Two of a user's drivers with one card: the older one wins, whichever order rows come in.
      await a.driver("Mine too", "SHARED-CARD");
      // Added last, so current by hand: a card read replaces a hand-set driver.
      await a.driver("Set by hand", "");
      const theirs = await createDriver(db.db, other.user.id, { deviceId: other.device.id, name: "Theirs", rfid: "shared-card" });
      await third.driver("Unrelated", "other-card");

      const switched = await assignDriversByRfid(db.db, [{ deviceId: a.device.id, rfid: "shared-card", fixTime: T0 }]);
      expect(switched.sort((x, y) => x.userId - y.userId)).toEqual([
        { deviceId: a.device.id, userId: a.user.id },
        { deviceId: a.device.id, userId: other.user.id },
      ]);
      expect((await pivot(a.user.id, a.device.id)).driverId).toBe(mine.id);
      expect((await pivot(other.user.id, a.device.id)).driverId).toBe(theirs.id);
      expect(await pivot(third.user.id, a.device.id)).toEqual({ driverId: null, since: null });

      // The same sighting again, and an unknown card: nothing to change.
      expect(await assignDriversByRfid(db.db, [{ deviceId: a.device.id, rfid: "shared-card", fixTime: T0 }])).toEqual([]);
      expect(await assignDriversByRfid(db.db, [{ deviceId: a.device.id, rfid: "nobody", fixTime: T0 + 1 }])).toEqual([]);
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasService, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import { openDb, type DbHandle } from "./client.js";
import { onEventsRecorded, type RecordedEvents } from "./device-changes.js";
import { createDevice, destroyDevice } from "./queries/devices.js";
import { destroyUserEvents, listUserEventsByIds, pageUserEvents, recordEvents, type EventInput } from "./queries/events.js";
import { createGeofence, destroyGeofence } from "./queries/geofences.js";
import { createUser } from "./queries/users.js";

/*
 * The events store through its functions: recordEvents is idempotent by the writer's key
 * per user, writes only onto devices the user sees, announces what it inserted once
 * committed; the reads and the delete keep to the user. PGlite and, where it answers,
 * PostgreSQL.
 */

function describeEvents(label: string, open: () => Promise<{ handle: DbHandle; cleanup(): Promise<void> }>): void {
  describe(`events store (${label})`, () => {
    let store: { handle: DbHandle; cleanup(): Promise<void> };
    const announced: RecordedEvents[][] = [];
    const db = () => store.handle.db;
    const newUser = () => createUser(db(), { email: `e-${uniqueSuffix()}@example.com`, password: "secret-1" });
    const newDevice = async (userId: number, name = "Van") =>
      (await createDevice(db(), userId, { name, imei: `35${Date.now()}${uniqueSuffix()}`, iconId: 1, fuelMeasurementId: 1, tailLength: 5, minMovingSpeed: 6, minFuelFillings: 10, minFuelThefts: 10 })).id;
    const event = (userId: number, deviceId: number, key: string, overrides: Partial<EventInput> = {}): EventInput => ({
      userId,
      deviceId,
      type: "overspeed",
      message: "Overspeed",
      time: new Date("2025-03-01T10:00:00Z"),
      latitude: 54.7,
      longitude: 25.3,
      speedKmh: 97,
      dedupeKey: key,
      ...overrides,
    });
    const page = (userId: number, filter = {}) => pageUserEvents(db(), userId, filter, { limit: 100, offset: 0 });

    beforeAll(async () => {
      store = await open();
      await store.handle.migrate();
      onEventsRecorded(db(), async (recorded) => void announced.push([...recorded]));
    });
    afterAll(async () => {
      await store?.handle.close();
      await store?.cleanup();
    });

    it("records an event once per key: the same key again inserts and announces nothing", async () => {
      const user = await newUser();
      const device = await newDevice(user.id);
      announced.length = 0;
      const [first] = await recordEvents(db(), [event(user.id, device, "a1:overspeed:1001", { positionId: 1001, course: 90, power: 12.5, address: "Main St 1", sound: true })]);
      expect(first).toMatchObject({ userId: user.id, deviceId: device, type: "overspeed", positionId: 1001, speedKmh: 97, course: 90, power: 12.5, address: "Main St 1", sound: true, push: false });
      expect(announced).toEqual([[{ userId: user.id, deviceId: device, eventIds: [first!.id] }]]);

      announced.length = 0;
      const again = await recordEvents(db(), [event(user.id, device, "a1:overspeed:1001", { message: "A replay" }), event(user.id, device, "a1:overspeed:1002")]);
      expect(again.map((e) => e.dedupeKey)).toEqual(["a1:overspeed:1002"]);
      expect(announced).toEqual([[{ userId: user.id, deviceId: device, eventIds: [again[0]!.id] }]]);
      const { total, rows } = await page(user.id);
      expect(total).toBe(2);
      expect(rows.find((r) => r.dedupeKey === "a1:overspeed:1001")?.message).toBe("Overspeed");
    });

    it("keeps keys per user: another user's event with the same key is recorded", async () => {
      const [a, b] = [await newUser(), await newUser()];
      const [da, db_] = [await newDevice(a.id), await newDevice(b.id)];
      const written = await recordEvents(db(), [event(a.id, da, "same-key"), event(b.id, db_, "same-key")]);
      expect(written.map((e) => e.userId).sort()).toEqual([a.id, b.id].sort());
      expect((await page(a.id)).rows.map((r) => r.deviceId)).toEqual([da]);
      expect((await page(b.id)).rows.map((r) => r.deviceId)).toEqual([db_]);
    });

    it("drops an event on a device its user does not see, and records the rest of the batch", async () => {
      const [a, b] = [await newUser(), await newUser()];
      const [da, theirs] = [await newDevice(a.id), await newDevice(b.id)];
      const written = await recordEvents(db(), [event(a.id, theirs, "k1"), event(a.id, da, "k2")]);
      expect(written.map((e) => e.deviceId)).toEqual([da]);
      expect((await page(a.id)).total).toBe(1);
      expect((await page(b.id)).total).toBe(0);
    });

    it("records a batch larger than one statement takes, in one go", async () => {
      const user = await newUser();
      const device = await newDevice(user.id);
      const batch = Array.from({ length: 2500 }, (_, i) => event(user.id, device, `bulk-${i}`, { time: new Date(Date.UTC(2025, 0, 1) + i * 1000) }));
      expect(await recordEvents(db(), batch)).toHaveLength(2500);
      expect((await page(user.id)).total).toBe(2500);
      expect(await recordEvents(db(), batch)).toEqual([]);
    });

    it("pages newest first and filters by device, type, time and text in the message, the address or the device's name", async () => {
      const user = await newUser();
      const [van, truck] = [await newDevice(user.id, "Blue van"), await newDevice(user.id, "Truck 50%")];
      const at = (h: number) => new Date(Date.UTC(2025, 4, 1, h));
      await recordEvents(db(), [
        event(user.id, van, "1", { time: at(1), message: "Overspeed" }),
        event(user.id, van, "2", { time: at(2), type: "geofence_in", message: "Zone in", address: "Harbour road" }),
        event(user.id, truck, "3", { time: at(3), type: "sos", message: "SOS" }),
      ]);
      const keys = async (filter: object, limit = 100, offset = 0) => (await pageUserEvents(db(), user.id, filter, { limit, offset })).rows.map((r) => r.dedupeKey);
      expect(await keys({})).toEqual(["3", "2", "1"]);
      expect(await keys({}, 2, 2)).toEqual(["1"]);
      expect(await keys({ deviceId: van })).toEqual(["2", "1"]);
      expect(await keys({ type: "sos" })).toEqual(["3"]);
      expect(await keys({ fromMs: at(2).getTime(), toMs: at(3).getTime() })).toEqual(["2"]);
      expect(await keys({ search: "zone" })).toEqual(["2"]);
      expect(await keys({ search: "HARBOUR" })).toEqual(["2"]);
      expect(await keys({ search: "blue" })).toEqual(["2", "1"]);
      // LIKE's wildcards are searched as text.
      expect(await keys({ search: "50%" })).toEqual(["3"]);
      expect(await keys({ search: "%" })).toEqual(["3"]);
      expect((await pageUserEvents(db(), user.id, { search: "van" }, { limit: 1, offset: 0 })).total).toBe(2);
    });

    it("names the device and only the user's own geofence of events read by id, never another user's events", async () => {
      const [a, b] = [await newUser(), await newUser()];
      const device = await newDevice(a.id, "Van A");
      const square = [{ lat: 0, lng: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 1 }, { lat: 0, lng: 0 }];
      const own = await createGeofence(db(), a.id, { name: "Depot", type: "polygon", polygonColor: "#000000", coordinates: square, center: null, radius: null });
      const foreign = await createGeofence(db(), b.id, { name: "B's secret yard", type: "polygon", polygonColor: "#000000", coordinates: square, center: null, radius: null });
      const [x, y] = await recordEvents(db(), [event(a.id, device, "g1", { geofenceId: own.id, type: "geofence_in" }), event(a.id, device, "g2", { geofenceId: foreign.id })]);
      const read = await listUserEventsByIds(db(), a.id, [x!.id, y!.id]);
      expect(read.map((e) => [e.deviceName, e.geofenceName])).toEqual([["Van A", "Depot"], ["Van A", null]]);
      expect(await listUserEventsByIds(db(), b.id, [x!.id, y!.id])).toEqual([]);
      // A deleted geofence leaves its events, without the link.
      await destroyGeofence(db(), a.id, own.id);
      expect((await listUserEventsByIds(db(), a.id, [x!.id]))[0]).toMatchObject({ geofenceId: null, geofenceName: null });
    });

    it("destroys every event of the user and nobody else's", async () => {
      const [a, b] = [await newUser(), await newUser()];
      const [da, db_] = [await newDevice(a.id), await newDevice(b.id)];
      await recordEvents(db(), [event(a.id, da, "1"), event(a.id, da, "2"), event(b.id, db_, "1")]);
      expect(await destroyUserEvents(db(), a.id)).toBe(2);
      expect((await page(a.id)).total).toBe(0);
      expect((await page(b.id)).total).toBe(1);
    });

    it("keeps the events of a device its last user deleted (the device is only flagged deleted)", async () => {
      const user = await newUser();
      const device = await newDevice(user.id);
      await recordEvents(db(), [event(user.id, device, "1")]);
      // The last user's destroy soft-deletes the device: its events stay the user's.
      await destroyDevice(db(), user.id, device);
      expect((await page(user.id)).total).toBe(1);
    });
  });
}

describeEvents("pglite", async () => {
  const tmp = await tempPglite();
  return { handle: await openDb({ dataDir: tmp.dataDir }), cleanup: tmp.cleanup };
});

describe.runIf(hasService("postgres"))("postgres", () => {
  describeEvents("postgres", async () => {
    const tmp = await tempPostgresDb();
    return { handle: await openDb({ databaseUrl: tmp.url, dataDir: "unused" }), cleanup: tmp.cleanup };
  });
});

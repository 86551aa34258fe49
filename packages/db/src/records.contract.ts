import { Value } from "@sinclair/typebox/value";
import { count, eq, sql } from "drizzle-orm";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueSuffix } from "@fleet/testkit";
import { migrationsFolder, type DbHandle } from "./client.js";
import { RefusedError } from "./errors.js";
import { createDevice, findDeviceByImei, listDevicesChangedSince, listUserDevices } from "./queries/devices.js";
import { listUnregistered, recordUnregistered } from "./queries/unregistered.js";
import { createUser, findUserByApiHash, rotateApiHash, verifyLogin } from "./queries/users.js";
import { deviceGroups, devices, userDevices, users } from "./schema/index.js";
import { DeviceInsertSchema, DeviceRowSchema, UserRowSchema } from "./validators.js";

/*
 * The records contract: the same behaviour from PostgreSQL and PGlite. Excluded from the
 * build (tsconfig.build.json) because it is test code; records.test.ts runs it per adapter.
 * All tests share one database per adapter, so each one makes its own users and IMEIs.
 */

export interface OpenedStore {
  handle: DbHandle;
  cleanup(): Promise<void>;
}

const deviceInput = (imei: string) => ({
  name: `car ${imei}`,
  imei,
  iconId: 1,
  fuelMeasurementId: 1,
  tailLength: 5,
  minMovingSpeed: 6,
  minFuelFillings: 10,
  minFuelThefts: 10,
});

export function describeRecordsContract(label: string, open: () => Promise<OpenedStore>): void {
  describe(`records contract (${label})`, () => {
    let store: OpenedStore;
    const db = () => store.handle.db;
    const newUser = (extra: Parameters<typeof createUser>[1] extends infer T ? Partial<T> : never = {}) =>
      createUser(db(), { email: `u-${uniqueSuffix()}@example.com`, password: "secret-1", ...extra });
    const newImei = () => `35${Date.now()}${uniqueSuffix()}`;

    beforeAll(async () => {
      store = await open();
      // Overlapping and repeated calls, as several starting apps would make.
      await Promise.all([store.handle.migrate(), store.handle.migrate()]);
    });
    afterAll(async () => {
      await store?.handle.close();
      await store?.cleanup();
    });

    it("applies each migration once, however often migrate runs", async () => {
      await store.handle.migrate();
      const journal = JSON.parse(await readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8"));
      const [applied] = await db().select({ n: count() }).from(sql`drizzle.__drizzle_migrations`);
      expect(applied?.n).toBe(journal.entries.length);
    });

    it("creates a user and verifies logins", async () => {
      const email = `Mixed.${uniqueSuffix()}@Example.com`;
      const user = await createUser(db(), { email, password: "right horse" });
      expect(user).toMatchObject({ email: email.toLowerCase(), groupId: 2, active: true, lang: "en", unitOfDistance: "km" });
      expect(user.passwordHash).toMatch(/^scrypt\$/);
      expect(user.apiHash).toMatch(/^[0-9a-f]{64}$/);
      expect(Value.Check(UserRowSchema, user)).toBe(true);

      const ok = await verifyLogin(db(), email.toUpperCase(), "right horse");
      expect(ok?.id).toBe(user.id);
      expect(ok?.logedAt).toBeInstanceOf(Date);
      expect(await verifyLogin(db(), email, "wrong horse")).toBeNull();
      expect(await verifyLogin(db(), `nobody-${uniqueSuffix()}@example.com`, "right horse")).toBeNull();
      await expect(createUser(db(), { email: email.toUpperCase(), password: "x" })).rejects.toEqual(new RefusedError({ email: { kind: "taken" } }));
    });

    it("refuses logins and api hashes of inactive and expired users", async () => {
      const inactive = await newUser({ active: false });
      const expired = await newUser({ expirationDate: new Date(Date.now() - 60_000) });
      const current = await newUser({ expirationDate: new Date(Date.now() + 86_400_000) });
      expect(await verifyLogin(db(), inactive.email, "secret-1")).toBeNull();
      expect(await verifyLogin(db(), expired.email, "secret-1")).toBeNull();
      expect(await verifyLogin(db(), current.email, "secret-1")).not.toBeNull();
      expect(await findUserByApiHash(db(), inactive.apiHash)).toBeUndefined();
      expect(await findUserByApiHash(db(), expired.apiHash)).toBeUndefined();
    });

    it("finds users by api hash and rotates it", async () => {
      const user = await newUser();
      expect((await findUserByApiHash(db(), user.apiHash))?.id).toBe(user.id);
      const next = await rotateApiHash(db(), user.id);
      expect(next).toMatch(/^[0-9a-f]{64}$/);
      expect(next).not.toBe(user.apiHash);
      expect(await findUserByApiHash(db(), user.apiHash)).toBeUndefined();
      expect((await findUserByApiHash(db(), next!))?.id).toBe(user.id);
      expect(await rotateApiHash(db(), 2_000_000_000)).toBeUndefined();
    });

    it("creates devices and finds them by IMEI and by user", async () => {
      const user = await newUser();
      const [group] = await db().insert(deviceGroups).values({ userId: user.id, title: "Vans" }).returning();
      const imei = newImei();
      expect(Value.Check(DeviceInsertSchema, deviceInput(imei))).toBe(true);
      const created = await createDevice(db(), user.id, {
        ...deviceInput(imei),
        fuelPrice: 1.55,
        iconColors: { moving: "blue", stopped: "red", offline: "black", engine: "yellow" },
        groupId: group!.id,
      });
      expect(created).toMatchObject({ imei, userId: user.id, fuelPrice: 1.55, deleted: false, timezoneId: 0 });
      expect(created.pivot).toMatchObject({ userId: user.id, deviceId: created.id, groupId: group!.id, active: true });
      const { pivot: _pivot, ...row } = created;
      expect(Value.Check(DeviceRowSchema, row)).toBe(true);

      const found = await findDeviceByImei(db(), imei);
      expect(found).toMatchObject({ id: created.id, imei, userIds: [user.id], iconColors: { moving: "blue" } });
      expect(await findDeviceByImei(db(), newImei())).toBeUndefined();

      const second = await createDevice(db(), user.id, deviceInput(newImei()));
      expect(second.iconColors).toEqual({ moving: "green", stopped: "red", offline: "red", engine: "yellow" });
      const listed = await listUserDevices(db(), user.id);
      expect(listed.map((d) => [d.id, d.pivot.groupId])).toEqual([
        [created.id, group!.id],
        [second.id, null],
      ]);
      expect(await listUserDevices(db(), (await newUser()).id)).toEqual([]);
    });

    it("rejects a duplicate IMEI or a foreign group with nothing half-written", async () => {
      const [owner, other] = [await newUser(), await newUser()];
      const imei = newImei();
      await createDevice(db(), owner.id, deviceInput(imei));
      const counts = async () => ({
        devices: (await db().select({ n: count() }).from(devices))[0]!.n,
        pivots: (await db().select({ n: count() }).from(userDevices))[0]!.n,
      });
      const before = await counts();
      await expect(createDevice(db(), other.id, deviceInput(imei))).rejects.toMatchObject({ name: "RefusedError", refusals: { imei: { kind: "taken" } } });
      // The owner's group is another user's as far as `other` is concerned.
      const [ownersGroup] = await db().insert(deviceGroups).values({ userId: owner.id, title: "mine" }).returning();
      const err = createDevice(db(), other.id, { ...deviceInput(newImei()), groupId: ownersGroup!.id });
      await expect(err).rejects.toMatchObject({ name: "RefusedError", refusals: { groupId: { kind: "unknown" } } });
      expect(await counts()).toEqual(before);
      expect(await listUserDevices(db(), other.id)).toEqual([]);

      // A deleted device frees its IMEI.
      await db().update(devices).set({ deleted: true }).where(eq(devices.imei, imei));
      const again = await createDevice(db(), other.id, deviceInput(imei));
      expect((await findDeviceByImei(db(), imei))?.id).toBe(again.id);
    });

    it("lists devices changed since a time, owners and deletions included", async () => {
      const [a, b] = [await newUser(), await newUser()];
      const device = await createDevice(db(), a.id, deviceInput(newImei()));
      const cursor = new Date(device.updatedAt.getTime() + 1);
      expect((await listDevicesChangedSince(db(), cursor)).some((d) => d.id === device.id)).toBe(false);

      await db().update(devices).set({ name: "renamed" }).where(eq(devices.id, device.id));
      const changed = (await listDevicesChangedSince(db(), cursor)).find((d) => d.id === device.id);
      expect(changed).toMatchObject({ name: "renamed", userIds: [a.id] });
      expect(changed!.updatedAt.getTime()).toBeGreaterThan(device.updatedAt.getTime());

      // Sharing the device with another user changes what the tracker caches.
      const cursor2 = new Date(changed!.updatedAt.getTime() + 1);
      await db().insert(userDevices).values({ userId: b.id, deviceId: device.id });
      const shared = (await listDevicesChangedSince(db(), cursor2)).find((d) => d.id === device.id);
      expect(shared?.userIds).toEqual([a.id, b.id].sort((x, y) => x - y));

      const cursor3 = new Date(shared!.updatedAt.getTime() + 1);
      await db().update(devices).set({ deleted: true }).where(eq(devices.id, device.id));
      const gone = (await listDevicesChangedSince(db(), cursor3)).find((d) => d.id === device.id);
      expect(gone?.deleted).toBe(true);
      expect(await findDeviceByImei(db(), device.imei)).toBeUndefined();

      // Deleting the rows outright cascades to the pivot without tripping its trigger.
      await db().delete(users).where(eq(users.id, b.id));
      await db().delete(devices).where(eq(devices.id, device.id));
    });

    it("accumulates unregistered device sightings", async () => {
      const [x, y] = [`unk-${uniqueSuffix()}`, `unk-${uniqueSuffix()}`];
      const t0 = new Date("2025-01-01T00:00:00Z");
      const at = (s: number) => new Date(t0.getTime() + s * 1000);
      await recordUnregistered(db(), [
        { uniqueId: x, protocol: "gt06", seenAt: at(10), count: 2 },
        { uniqueId: x, protocol: "gt06", seenAt: at(5), count: 1 },
        { uniqueId: y, protocol: "osmand", seenAt: at(7), count: 4 },
      ]);
      await recordUnregistered(db(), [{ uniqueId: x, protocol: "teltonika", seenAt: at(20), count: 3 }]);
      // An older sighting arriving late moves neither last_seen nor protocol.
      await recordUnregistered(db(), [{ uniqueId: x, protocol: "old", seenAt: at(1), count: 1 }]);
      await recordUnregistered(db(), []);

      const mine = (await listUnregistered(db())).filter((r) => r.uniqueId === x || r.uniqueId === y);
      expect(mine).toEqual([
        { uniqueId: x, protocol: "teltonika", firstSeen: at(1), lastSeen: at(20), count: 7 },
        { uniqueId: y, protocol: "osmand", firstSeen: at(7), lastSeen: at(7), count: 4 },
      ]);
    });
  });
}

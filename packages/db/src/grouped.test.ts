import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasService, tempPglite, tempPostgresDb, uniqueSuffix } from "@fleet/testkit";
import { openDb, type DbHandle } from "./client.js";
import { onDevicesChanged, type DeviceOwners } from "./device-changes.js";
import { RefusedError } from "./errors.js";
import { createDeviceGroup, destroyDeviceGroup, pageDeviceGroups, updateDeviceGroup } from "./queries/device-groups.js";
import { createDevice, destroyDevice, listUserDevices } from "./queries/devices.js";
import { createRoute, createRouteGroup, destroyRouteGroup, pageRouteGroups, updateRouteGroup } from "./queries/map-routes.js";
import { createUser } from "./queries/users.js";
import { routes } from "./schema/index.js";

/*
 * The groups of grouped.ts through two of their kinds: routes (members are rows of their
 * own) and devices (members are the user's pivot rows, announced when they move). Run on
 * PGlite and, where it answers, PostgreSQL.
 */

function describeGroups(label: string, open: () => Promise<{ handle: DbHandle; cleanup(): Promise<void> }>): void {
  describe(`groups (${label})`, () => {
    let store: { handle: DbHandle; cleanup(): Promise<void> };
    const announced: DeviceOwners[][] = [];
    const db = () => store.handle.db;
    const newUser = () => createUser(db(), { email: `g-${uniqueSuffix()}@example.com`, password: "secret-1" });
    const newRoute = (userId: number) => createRoute(db(), userId, { name: "Road", color: "#AA00F5", polyline: [{ lat: 1, lng: 2 }, { lat: 3, lng: 4 }] });
    const newDevice = (userId: number) =>
      createDevice(db(), userId, { name: "Van", imei: `35${Date.now()}${uniqueSuffix()}`, iconId: 1, fuelMeasurementId: 1, tailLength: 5, minMovingSpeed: 6, minFuelFillings: 10, minFuelThefts: 10 });
    const routeGroupsOf = async (userId: number) =>
      (await db().select({ id: routes.id, groupId: routes.groupId }).from(routes).where(eq(routes.userId, userId)).orderBy(asc(routes.id))).map((r) => [r.id, r.groupId]);
    const deviceGroupsOf = async (userId: number) => (await listUserDevices(db(), userId)).map((d) => [d.id, d.pivot.groupId]);
    /** What the write announced, as device ids of `userId`. */
    async function announcedBy(userId: number, write: () => Promise<unknown>): Promise<number[]> {
      announced.length = 0;
      await write();
      return announced.flat().map((c) => (expect(c.userIds).toEqual([userId]), c.deviceId));
    }

    beforeAll(async () => {
      store = await open();
      await store.handle.migrate();
      onDevicesChanged(db(), async (changed) => void announced.push([...changed]));
    });
    afterAll(async () => {
      await store?.handle.close();
      await store?.cleanup();
    });

    it("creates a group with its members, replaces them on update, and ungroups them on destroy", async () => {
      const user = await newUser();
      const [x, y, z] = [await newRoute(user.id), await newRoute(user.id), await newRoute(user.id)];
      const group = await createRouteGroup(db(), user.id, { title: "Trips", routeIds: [x.id, y.id, x.id] });
      expect(group).toMatchObject({ userId: user.id, title: "Trips" });
      expect(await routeGroupsOf(user.id)).toEqual([[x.id, group.id], [y.id, group.id], [z.id, null]]);

      expect(await updateRouteGroup(db(), user.id, group.id, { routeIds: [z.id] })).toMatchObject({ id: group.id, title: "Trips" });
      expect(await routeGroupsOf(user.id)).toEqual([[x.id, null], [y.id, null], [z.id, group.id]]);
      expect(await updateRouteGroup(db(), user.id, group.id, { title: "Renamed" })).toMatchObject({ title: "Renamed" });
      expect(await routeGroupsOf(user.id)).toEqual([[x.id, null], [y.id, null], [z.id, group.id]]);

      expect(await destroyRouteGroup(db(), user.id, group.id)).toBe(true);
      expect(await routeGroupsOf(user.id)).toEqual([[x.id, null], [y.id, null], [z.id, null]]);
      expect(await destroyRouteGroup(db(), user.id, group.id)).toBe(false);
    });

    it("treats another user's group or member like a missing one, writing nothing", async () => {
      const [a, b] = [await newUser(), await newUser()];
      const theirs = await newRoute(a.id);
      const aGroup = await createRouteGroup(db(), a.id, { title: "A", routeIds: [theirs.id] });
      const mine = await newRoute(b.id);
      const refused = new RefusedError({ routeIds: { kind: "unknown", many: true } });
      await expect(createRouteGroup(db(), b.id, { title: "Steal", routeIds: [mine.id, theirs.id] })).rejects.toEqual(refused);
      await expect(createRouteGroup(db(), b.id, { title: "Bad", routeIds: [0] })).rejects.toEqual(refused);
      expect((await pageRouteGroups(db(), b.id, { sortBy: "id", sort: "asc", limit: 10, offset: 0 })).total).toBe(0);
      expect(await updateRouteGroup(db(), b.id, aGroup.id, { title: "Taken", routeIds: [] })).toBeUndefined();
      expect(await updateRouteGroup(db(), b.id, 2_000_000_000, { title: "Taken" })).toBeUndefined();
      expect(await updateRouteGroup(db(), b.id, 3_000_000_000, { title: "Taken" })).toBeUndefined();
      expect(await destroyRouteGroup(db(), b.id, aGroup.id)).toBe(false);
      expect(await routeGroupsOf(a.id)).toEqual([[theirs.id, aGroup.id]]);
      expect(await routeGroupsOf(b.id)).toEqual([[mine.id, null]]);
    });

    it("pages groups searched, filtered and sorted by title in any case", async () => {
      const user = await newUser();
      const ids: Record<string, number> = {};
      for (const title of ["beta", "Alpha", "50% off", "a_b"]) ids[title] = (await createRouteGroup(db(), user.id, { title })).id;
      const titles = async (page: Partial<Parameters<typeof pageRouteGroups>[2]>) =>
        (await pageRouteGroups(db(), user.id, { sortBy: "title", sort: "asc", limit: 10, offset: 0, ...page })).rows.map((g) => g.title);
      expect(await titles({})).toEqual(["50% off", "a_b", "Alpha", "beta"]);
      expect(await titles({ sort: "desc", limit: 2, offset: 1 })).toEqual(["Alpha", "a_b"]);
      expect(await titles({ search: "%" })).toEqual(["50% off"]);
      expect(await titles({ search: "A" })).toEqual(["a_b", "Alpha", "beta"]);
      expect(await titles({ filter: { title: "ALPHA" } })).toEqual(["Alpha"]);
      expect(await titles({ filter: { title: "a%" } })).toEqual([]);
      expect(await titles({ filter: { id: ids.beta! } })).toEqual(["beta"]);
      expect(await titles({ filter: { id: 3_000_000_000 } })).toEqual([]);
    });

    it("moves the user's devices between device groups, announcing each device shown differently", async () => {
      const user = await newUser();
      const [d1, d2, d3] = [await newDevice(user.id), await newDevice(user.id), await newDevice(user.id)];
      let group = 0;
      expect(await announcedBy(user.id, async () => (group = (await createDeviceGroup(db(), user.id, { title: "Vans", deviceIds: [d1.id, d2.id] })).id))).toEqual([d1.id, d2.id]);
      expect(await deviceGroupsOf(user.id)).toEqual([[d1.id, group], [d2.id, group], [d3.id, null]]);
      // d2 stays, d1 leaves, d3 joins: the two that moved.
      expect(await announcedBy(user.id, () => updateDeviceGroup(db(), user.id, group, { deviceIds: [d2.id, d3.id] }))).toEqual([d1.id, d3.id]);
      // A new title shows on every member.
      expect(await announcedBy(user.id, () => updateDeviceGroup(db(), user.id, group, { title: "Trucks" }))).toEqual([d2.id, d3.id]);
      expect(await announcedBy(user.id, () => updateDeviceGroup(db(), user.id, group, { title: "Trucks", deviceIds: [d3.id, d2.id] }))).toEqual([]);
      expect(await announcedBy(user.id, () => destroyDeviceGroup(db(), user.id, group))).toEqual([d2.id, d3.id]);
      expect(await deviceGroupsOf(user.id)).toEqual([[d1.id, null], [d2.id, null], [d3.id, null]]);
      expect((await pageDeviceGroups(db(), user.id, { sortBy: "id", sort: "asc", limit: 10, offset: 0 })).total).toBe(0);
    });

    it("refuses devices that are deleted or another user's", async () => {
      const [a, b] = [await newUser(), await newUser()];
      const [theirs, mine, gone] = [await newDevice(a.id), await newDevice(b.id), await newDevice(b.id)];
      await destroyDevice(db(), b.id, gone.id);
      const refused = new RefusedError({ deviceIds: { kind: "unknown", many: true } });
      await expect(createDeviceGroup(db(), b.id, { title: "Steal", deviceIds: [mine.id, theirs.id] })).rejects.toEqual(refused);
      const group = await createDeviceGroup(db(), b.id, { title: "Mine", deviceIds: [mine.id] });
      await expect(updateDeviceGroup(db(), b.id, group.id, { deviceIds: [gone.id] })).rejects.toEqual(refused);
      expect(await deviceGroupsOf(b.id)).toEqual([[mine.id, group.id]]);
      expect(await deviceGroupsOf(a.id)).toEqual([[theirs.id, null]]);
    });

    it("takes concurrent membership changes of two groups over the same devices without a deadlock", async () => {
      const user = await newUser();
      const devices: number[] = [];
      for (let i = 0; i < 6; i++) devices.push((await newDevice(user.id)).id);
      const [g1, g2] = [await createDeviceGroup(db(), user.id, { title: "One" }), await createDeviceGroup(db(), user.id, { title: "Two" })];
      await Promise.all(
        Array.from({ length: 12 }, (_, k) => updateDeviceGroup(db(), user.id, k % 2 ? g1.id : g2.id, { deviceIds: k % 3 ? devices : [...devices].reverse().slice(k % 4) })),
      );
      const groups = new Set((await deviceGroupsOf(user.id)).map(([, g]) => g));
      expect([...groups].every((g) => g === null || g === g1.id || g === g2.id)).toBe(true);
    });
  });
}

describeGroups("pglite", async () => {
  const tmp = await tempPglite();
  return { handle: await openDb({ dataDir: tmp.dataDir }), cleanup: tmp.cleanup };
});

// Skips (with a notice from global setup) where no PostgreSQL answers; CI fails instead.
describe.runIf(hasService("postgres"))("postgres", () => {
  describeGroups("postgres", async () => {
    const tmp = await tempPostgresDb();
    return { handle: await openDb({ databaseUrl: tmp.url, dataDir: "unused" }), cleanup: tmp.cleanup };
  });
});

import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { announceChanged, type DeviceOwners } from "../device-changes.js";
import { assertNotRefused, type Refusal } from "../errors.js";
import { groupsOf, type GroupPage } from "../grouped.js";
import { isRowId } from "../row-id.js";
import { deviceGroups, type DeviceGroup } from "../schema/device-groups.js";
import { devices } from "../schema/devices.js";
import { userDevices } from "../schema/user-devices.js";

/** One entry of the user's complete group list: an id of theirs renames, no id (or 0) creates. */
export interface DeviceGroupInput {
  id?: number;
  title: string;
}

/** The user's device groups, by id. */
export function listDeviceGroups(db: Queryable, userId: number): Promise<DeviceGroup[]> {
  return db.select().from(deviceGroups).where(eq(deviceGroups.userId, userId)).orderBy(asc(deviceGroups.id));
}

/**
 * Whether the group is the user's, share-locked until the transaction ends: a group
 * removal then waits for the device insert or move that names it, instead of deleting
 * the row between the check and the write (a foreign key error, a 500).
 */
export async function lockOwnGroup(tx: Tx, userId: number, groupId: number): Promise<boolean> {
  if (!isRowId(groupId)) return false;
  const [group] = await tx
    .select({ id: deviceGroups.id })
    .from(deviceGroups)
    .where(and(eq(deviceGroups.id, groupId), eq(deviceGroups.userId, userId)))
    .for("share");
  return group !== undefined;
}

/**
 * Makes `groups` the user's complete list of device groups, inside the caller's
 * transaction: groups missing from it are deleted (their devices become ungrouped through
 * the foreign key's ON DELETE SET NULL), titles change, entries without an id are created.
 * The caller announces the returned devices once its transaction commits: they were in a
 * removed or renamed group, so the live list shows them differently.
 * @throws RefusedError `groups.<i>.id` unknown for each entry naming a group that is not the user's; nothing is changed.
 */
export async function replaceDeviceGroups(tx: Tx, userId: number, groups: readonly DeviceGroupInput[]): Promise<DeviceOwners[]> {
  const existing = await tx.select().from(deviceGroups).where(eq(deviceGroups.userId, userId)).for("update");
  const owned = new Set(existing.map((g) => g.id));
  const wanted = new Map<number, string>();
  const refusals: Record<string, Refusal> = {};
  groups.forEach((g, i) => {
    if (!g.id) return;
    if (owned.has(g.id)) wanted.set(g.id, g.title);
    else refusals[`groups.${i}.id`] = { kind: "unknown" };
  });
  assertNotRefused(refusals);
  const removed = existing.filter((g) => !wanted.has(g.id)).map((g) => g.id);
  const renamed = existing.filter((g) => wanted.has(g.id) && wanted.get(g.id) !== g.title);
  // Read before the delete, which nulls the very group_id that tells which devices were in them.
  const changed = await devicesInGroups(tx, [...removed, ...renamed.map((g) => g.id)]);
  if (removed.length > 0) await tx.delete(deviceGroups).where(and(eq(deviceGroups.userId, userId), inArray(deviceGroups.id, removed)));
  for (const g of renamed) await tx.update(deviceGroups).set({ title: wanted.get(g.id)! }).where(eq(deviceGroups.id, g.id));
  const created = groups.filter((g) => !g.id).map((g) => ({ userId, title: g.title }));
  if (created.length > 0) await tx.insert(deviceGroups).values(created);
  return changed;
}

/** The devices filed in these groups, each as its filer's change (a group is one user's). */
async function devicesInGroups(tx: Tx, groupIds: number[]): Promise<DeviceOwners[]> {
  if (groupIds.length === 0) return [];
  const rows = await tx
    .select({ deviceId: userDevices.deviceId, userId: userDevices.userId })
    .from(userDevices)
    .where(inArray(userDevices.groupId, groupIds))
    .orderBy(asc(userDevices.deviceId));
  return rows.map((r) => ({ deviceId: r.deviceId, userIds: [r.userId] }));
}

// ---- devices_groups: one group at a time ----------------------------------------------

/*
 * A group's members are the user's pivot rows that point at it. The device rows are what
 * get locked, in id order after the group, as every device write locks them.
 */
const grouping = groupsOf(
  deviceGroups,
  {
    table: userDevices,
    id: userDevices.deviceId,
    userId: userDevices.userId,
    groupId: userDevices.groupId,
    async lock(tx, userId, where) {
      const rows = await tx
        .select({ id: devices.id })
        .from(devices)
        .innerJoin(userDevices, and(eq(userDevices.deviceId, devices.id), eq(userDevices.userId, userId)))
        .where(and(where, eq(devices.deleted, false)))
        .orderBy(asc(devices.id))
        .for("update", { of: devices });
      return rows.map((r) => r.id);
    },
  },
  "deviceIds",
);

/** A group's devices as the user's own changes: a group is one user's view of the device. */
const seenBy = (userId: number, deviceIds: readonly number[]): DeviceOwners[] => deviceIds.map((deviceId) => ({ deviceId, userIds: [userId] }));

/** One page of the user's device groups, and how many match in all. */
export const pageDeviceGroups = (db: Queryable, userId: number, page: GroupPage): Promise<{ total: number; rows: DeviceGroup[] }> => grouping.page(db, userId, page);

export interface DeviceGroupWrite {
  /** Undefined keeps the title (on update). */
  title?: string;
  /** The group's complete membership (the user's devices); undefined keeps it (on update). */
  deviceIds?: readonly number[];
}

/**
 * Creates the user's device group, moving the listed devices into it, in one transaction,
 * then announces the moved devices.
 * @throws RefusedError `{deviceIds: unknown}` when any listed id is not one of the user's devices.
 */
export async function createDeviceGroup(db: Db, userId: number, input: DeviceGroupWrite & { title: string }): Promise<DeviceGroup> {
  const { group, changed } = await grouping.create(db, userId, { title: input.title, memberIds: input.deviceIds });
  await announceChanged(db, seenBy(userId, changed));
  return group;
}

/**
 * Renames the user's device group and/or replaces its devices (those left out become
 * ungrouped), in one transaction, then announces the devices shown differently. Undefined
 * when the group does not exist or is another user's.
 * @throws RefusedError `{deviceIds: unknown}` when any listed id is not one of the user's devices.
 */
export async function updateDeviceGroup(db: Db, userId: number, groupId: number, input: DeviceGroupWrite): Promise<DeviceGroup | undefined> {
  const written = await grouping.update(db, userId, groupId, { title: input.title, memberIds: input.deviceIds });
  if (!written) return undefined;
  await announceChanged(db, seenBy(userId, written.changed));
  return written.group;
}

/**
 * Deletes the user's device group, its devices becoming ungrouped, and announces them.
 * False when the group does not exist or is another user's.
 */
export async function destroyDeviceGroup(db: Db, userId: number, groupId: number): Promise<boolean> {
  const former = await grouping.destroy(db, userId, groupId);
  if (!former) return false;
  await announceChanged(db, seenBy(userId, former));
  return true;
}

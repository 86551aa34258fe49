import { and, asc, eq, inArray } from "drizzle-orm";
import type { Queryable, Tx } from "../client.js";
import type { DeviceOwners } from "../device-changes.js";
import { assertNotRefused, type Refusal } from "../errors.js";
import { isRowId } from "../row-id.js";
import { deviceGroups, type DeviceGroup } from "../schema/device-groups.js";
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

import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { UnknownDeviceGroupError } from "../errors.js";
import { hashPassword } from "../password.js";
import { deviceGroups } from "../schema/device-groups.js";
import { userDevices } from "../schema/user-devices.js";
import { users, type DstSettings, type SmsGatewayParams, type User } from "../schema/users.js";
import { newApiHash } from "./users.js";

/** One entry of the user's complete group list: an id of theirs renames, no id (or 0) creates. */
export interface DeviceGroupInput {
  id?: number;
  title: string;
}

/** The account fields `edit_setup` writes; an optional field left undefined keeps its stored value. */
export interface AccountSettingsInput {
  unitOfDistance: User["unitOfDistance"];
  unitOfCapacity: User["unitOfCapacity"];
  unitOfAltitude: User["unitOfAltitude"];
  timezoneId: number;
  smsGateway: boolean;
  smsGatewayUrl?: string;
  /** Merged into the stored params key by key; undefined keys keep theirs. */
  smsGatewayParams?: Partial<SmsGatewayParams>;
  /** null clears the rule. */
  dst?: DstSettings | null;
  weekStartDay?: number;
}

/** A device whose live-list item changed for these users. */
export interface DeviceChange {
  deviceId: number;
  userIds: number[];
}

export interface SaveSetupResult {
  user: User;
  /** Devices to mark changed for get_devices_latest: moved out of a removed group, in a renamed one, or shown in new units or timezone. */
  changed: DeviceChange[];
}

/**
 * Saves `edit_setup` in one transaction: the account settings and the user's complete list
 * of device groups. Groups of the user missing from the list are deleted; their devices
 * become ungrouped through the foreign key's ON DELETE SET NULL. Undefined when the user no
 * longer exists.
 * @throws UnknownDeviceGroupError when a group id is not one of the user's; nothing is changed.
 */
export async function saveAccountSetup(db: Db, userId: number, settings: AccountSettingsInput, groups: readonly DeviceGroupInput[]): Promise<SaveSetupResult | undefined> {
  return db.transaction(async (tx) => {
    // Locked so two concurrent saves merge their SMS gateway params one after the other.
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!before) return undefined;
    const grouped = await replaceDeviceGroups(tx, userId, groups);
    const user = await updateAccountSettings(tx, before, settings);
    const redisplayed = displayChanged(before, user) ? await userDeviceIds(tx, userId) : [];
    return { user, changed: mergeChanges([...grouped, ...redisplayed.map((deviceId) => ({ deviceId, userIds: [userId] }))]) };
  });
}

async function replaceDeviceGroups(tx: Tx, userId: number, groups: readonly DeviceGroupInput[]): Promise<DeviceChange[]> {
  const existing = await tx.select().from(deviceGroups).where(eq(deviceGroups.userId, userId)).for("update");
  const owned = new Set(existing.map((g) => g.id));
  const wanted = new Map<number, string>();
  for (const g of groups) {
    if (!g.id) continue;
    if (!owned.has(g.id)) throw new UnknownDeviceGroupError(g.id);
    wanted.set(g.id, g.title);
  }
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

async function devicesInGroups(tx: Tx, groupIds: number[]): Promise<DeviceChange[]> {
  if (groupIds.length === 0) return [];
  const rows = await tx.select({ deviceId: userDevices.deviceId, userId: userDevices.userId }).from(userDevices).where(inArray(userDevices.groupId, groupIds));
  return rows.map((r) => ({ deviceId: r.deviceId, userIds: [r.userId] }));
}

async function updateAccountSettings(tx: Tx, before: User, s: AccountSettingsInput): Promise<User> {
  const [user] = await tx
    .update(users)
    .set({
      unitOfDistance: s.unitOfDistance,
      unitOfCapacity: s.unitOfCapacity,
      unitOfAltitude: s.unitOfAltitude,
      timezoneId: s.timezoneId,
      smsGateway: s.smsGateway,
      smsGatewayParams: { ...before.smsGatewayParams, ...definedOnly(s.smsGatewayParams ?? {}) },
      // drizzle leaves undefined values out of the SET list, so these keep the stored value.
      smsGatewayUrl: s.smsGatewayUrl,
      dst: s.dst,
      weekStartDay: s.weekStartDay,
    })
    .where(eq(users.id, before.id))
    .returning();
  return user!;
}

/** Whether the live list shows the user's devices differently now (units and times). */
function displayChanged(a: User, b: User): boolean {
  return a.unitOfDistance !== b.unitOfDistance || a.unitOfCapacity !== b.unitOfCapacity || a.unitOfAltitude !== b.unitOfAltitude || a.timezoneId !== b.timezoneId;
}

async function userDeviceIds(tx: Tx, userId: number): Promise<number[]> {
  const rows = await tx.select({ deviceId: userDevices.deviceId }).from(userDevices).where(eq(userDevices.userId, userId));
  return rows.map((r) => r.deviceId);
}

function mergeChanges(changes: DeviceChange[]): DeviceChange[] {
  const byDevice = new Map<number, Set<number>>();
  for (const c of changes) {
    const ids = byDevice.get(c.deviceId) ?? new Set<number>();
    for (const u of c.userIds) ids.add(u);
    byDevice.set(c.deviceId, ids);
  }
  return [...byDevice].map(([deviceId, userIds]) => ({ deviceId, userIds: [...userIds] }));
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Stores a new password and issues a new api hash in one statement (so one transaction):
 * the old `user_api_hash` stops working at once and only a new login with the new password
 * gives access again. False when the user no longer exists.
 */
export async function changePassword(db: Db | Tx, userId: number, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  const [row] = await db.update(users).set({ passwordHash, apiHash: newApiHash() }).where(eq(users.id, userId)).returning({ id: users.id });
  return row !== undefined;
}

import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db, Queryable } from "../client.js";
import { announceChanged, ownersOf } from "../device-changes.js";
import { RefusedError, uniqueViolation } from "../errors.js";
import { hashPassword } from "../password.js";
import type { Page } from "../owned.js";
import { isRowId } from "../row-id.js";
import { devices, type Device } from "../schema/devices.js";
import { userDevices } from "../schema/user-devices.js";
import { users, type User, type UserGroupId } from "../schema/users.js";
import { announceUsersChanged } from "../user-changes.js";
import { countUserDevices, destroyDevice } from "./devices.js";
import { newApiHash, normalizeEmail } from "./users.js";
import { containing } from "../like.js";

/*
 * What administrators do across accounts: every device of the platform, who has it, and
 * the clients' accounts. Every device write announces the device's owners, as the users'
 * own writes do, so live lists and the rules service follow.
 */

/** The device columns an administrator's search looks in (`property` narrows it to one). */
export const searchableDeviceColumns = {
  name: devices.name,
  imei: devices.imei,
  sim_number: devices.simNumber,
  device_model: devices.deviceModel,
  plate_number: devices.plateNumber,
  vin: devices.vin,
  registration_number: devices.registrationNumber,
  object_owner: devices.objectOwner,
} as const;
export type SearchableDeviceColumn = keyof typeof searchableDeviceColumns;

const live = eq(devices.deleted, false);

/** One page of the platform's devices by id, searched, and how many match. */
export async function pageAllDevices(db: Queryable, page: Page, search?: { text: string; column?: SearchableDeviceColumn }): Promise<{ total: number; rows: Device[] }> {
  let where: SQL = live;
  if (search && search.text !== "") {
    const columns = search.column ? [searchableDeviceColumns[search.column]] : Object.values(searchableDeviceColumns);
    where = and(live, or(...columns.map((c) => ilike(c, containing(search.text)))))!;
  }
  const [rows, [counted]] = await Promise.all([db.select().from(devices).where(where).orderBy(asc(devices.id)).limit(page.limit).offset(page.offset), db.select({ n: count() }).from(devices).where(where)]);
  return { total: counted?.n ?? 0, rows };
}

/** A device of the platform that is not deleted, or undefined. */
export async function findAnyDevice(db: Queryable, deviceId: number): Promise<Device | undefined> {
  if (!isRowId(deviceId)) return undefined;
  const [row] = await db.select().from(devices).where(and(eq(devices.id, deviceId), live));
  return row;
}

/** Sets columns of a device of the platform and announces it; false when it does not exist or is deleted. */
async function setDevice(db: Db, deviceId: number, values: Partial<Pick<Device, "active" | "expirationDate">>): Promise<boolean> {
  if (!isRowId(deviceId)) return false;
  const changed = await db.update(devices).set(values).where(and(eq(devices.id, deviceId), live)).returning({ id: devices.id });
  if (changed.length === 0) return false;
  await announceChanged(db, await ownersOf(db, [deviceId]));
  return true;
}

export const setDeviceActive = (db: Db, deviceId: number, active: boolean) => setDevice(db, deviceId, { active });
export const setDeviceExpiration = (db: Db, deviceId: number, expirationDate: Date | null) => setDevice(db, deviceId, { expirationDate });

/** The users who have the device, by id, a page of them, and how many; undefined when the device does not exist or is deleted. */
export async function pageDeviceUsers(db: Queryable, deviceId: number, page: Page): Promise<{ total: number; rows: User[] } | undefined> {
  if (!(await findAnyDevice(db, deviceId))) return undefined;
  const where = eq(userDevices.deviceId, deviceId);
  const [rows, [counted]] = await Promise.all([
    db.select({ user: users }).from(userDevices).innerJoin(users, eq(users.id, userDevices.userId)).where(where).orderBy(asc(users.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(userDevices).where(where),
  ]);
  return { total: counted?.n ?? 0, rows: rows.map((r) => r.user) };
}

/**
 * Gives the user the device (a pivot row with the defaults), and announces it to everyone
 * who has it. False when the device does not exist or is deleted; true also when the user
 * already had it.
 * @throws RefusedError `devicesLimit` limit when the user already holds as many devices as the account allows.
 */
export async function assignDeviceUser(db: Db, deviceId: number, user: Pick<User, "id" | "devicesLimit">): Promise<boolean> {
  const done = await db.transaction(async (tx) => {
    const [device] = isRowId(deviceId) ? await tx.select({ id: devices.id }).from(devices).where(and(eq(devices.id, deviceId), live)).for("update") : [];
    if (!device) return false;
    const [had] = await tx.select({ id: userDevices.deviceId }).from(userDevices).where(and(eq(userDevices.deviceId, deviceId), eq(userDevices.userId, user.id)));
    if (had) return true;
    // The user's row locked while counting, as add_device does, so two grants cannot both slip under the limit.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    if (user.devicesLimit !== null && (await countUserDevices(tx, user.id)) >= user.devicesLimit) throw new RefusedError({ devicesLimit: { kind: "limit", limit: user.devicesLimit } });
    await tx.insert(userDevices).values({ userId: user.id, deviceId });
    return true;
  });
  if (done) await announceChanged(db, await ownersOf(db, [deviceId]));
  return done;
}

/**
 * Takes the device from the user, as the user's own destroy_device does (the device is
 * deleted when nobody else has it). False when the device does not exist or the user does
 * not have it.
 */
export async function revokeDeviceUser(db: Db, deviceId: number, userId: number): Promise<boolean> {
  return (await destroyDevice(db, userId, deviceId)) !== undefined;
}

/** The user's devices (not deleted), a page by id, and how many. */
export async function pageClientDevices(db: Queryable, userId: number, page: Page): Promise<{ total: number; rows: Device[] }> {
  const where = and(eq(userDevices.userId, userId), live);
  const [rows, [counted]] = await Promise.all([
    db.select({ device: devices }).from(userDevices).innerJoin(devices, eq(devices.id, userDevices.deviceId)).where(where).orderBy(asc(devices.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(userDevices).innerJoin(devices, eq(devices.id, userDevices.deviceId)).where(where),
  ]);
  return { total: counted?.n ?? 0, rows: rows.map((r) => r.device) };
}

/**
 * Deletes these users, all or none (false, nothing deleted, when any does not exist). The
 * devices only they had are deleted too (their IMEIs free again), and everyone else who had
 * one of their devices is announced the change.
 */
export async function deleteUsers(db: Db, userIds: readonly number[]): Promise<boolean> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0 || !ids.every(isRowId)) return false;
  const result = await db.transaction(async (tx) => {
    const found = await tx.select({ id: users.id, apiHash: users.apiHash }).from(users).where(inArray(users.id, ids)).orderBy(asc(users.id)).for("update");
    if (found.length !== ids.length) return undefined;
    const theirs = await tx.select({ id: userDevices.deviceId }).from(userDevices).where(inArray(userDevices.userId, ids));
    const deviceIds = [...new Set(theirs.map((d) => d.id))].sort((a, b) => a - b);
    const before = await ownersOf(tx, deviceIds);
    const orphaned = before.filter((o) => o.userIds.every((u) => ids.includes(u))).map((o) => o.deviceId);
    if (orphaned.length > 0) await tx.update(devices).set({ deleted: true }).where(inArray(devices.id, orphaned));
    await tx.delete(users).where(inArray(users.id, ids));
    return before.map((o) => ({ deviceId: o.deviceId, userIds: o.userIds.filter((u) => !ids.includes(u)) }));
  });
  if (!result) return false;
  announceUsersChanged(db, ids);
  await announceChanged(db, result);
  return true;
}

/** Sets `active` on the user found by id or email; the user's id, or undefined when none. */
export async function setUserActive(db: Db, who: { id?: number; email?: string }, active: boolean): Promise<number | undefined> {
  const by = who.id !== undefined ? (isRowId(who.id) ? eq(users.id, who.id) : undefined) : who.email !== undefined ? sql`lower(${users.email}) = lower(${who.email})` : undefined;
  if (!by) return undefined;
  const [row] = await db.update(users).set({ active }).where(by).returning({ id: users.id });
  if (row) announceUsersChanged(db, [row.id]);
  return row?.id;
}

/** What an administrator may change on a client's account; undefined keeps the stored value. */
export interface ClientPatch {
  email?: string;
  /** A new password also issues a new api hash, as change_password does. */
  password?: string;
  groupId?: UserGroupId;
  active?: boolean;
  devicesLimit?: number | null;
  expirationDate?: Date | null;
}

/**
 * Changes the client's account; the new row, or undefined when the user does not exist.
 * @throws RefusedError `{email: taken}` when another user has the (lower-cased) email.
 */
export async function updateClient(db: Db, userId: number, patch: ClientPatch): Promise<User | undefined> {
  if (!isRowId(userId)) return undefined;
  const { email, password, ...rest } = patch;
  const values: Partial<typeof users.$inferInsert> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (email !== undefined) values.email = normalizeEmail(email);
  if (password !== undefined) Object.assign(values, { passwordHash: await hashPassword(password), apiHash: newApiHash() });
  let row: User | undefined;
  try {
    [row] = Object.keys(values).length > 0 ? await db.update(users).set(values).where(eq(users.id, userId)).returning() : await db.select().from(users).where(eq(users.id, userId));
  } catch (err) {
    if (uniqueViolation(err) === "users_email_unique") throw new RefusedError({ email: { kind: "taken" } });
    throw err;
  }
  if (row) announceUsersChanged(db, [userId]);
  return row;
}

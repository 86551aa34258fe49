import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { announceChanged, ownersOf } from "../device-changes.js";
import { RefusedError, uniqueViolation } from "../errors.js";
import { hashPassword } from "../password.js";
import type { Page } from "../owned.js";
import { isRowId } from "../row-id.js";
import { devices, type Device } from "../schema/devices.js";
import { userDevices } from "../schema/user-devices.js";
import { users, type User, type UserGroupId } from "../schema/users.js";
import { announceUsersChanged } from "../user-changes.js";
import { countUserDevices, destroyDevice, leaveDevice, softDeleteDevices } from "./devices.js";
import { createUser, newApiHash, normalizeEmail, type CreateUserInput } from "./users.js";
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

/** Why a device could not be given: it or the user is missing. */
export type GiveRefusal = "device" | "user";

/**
 * Gives the user the device (a pivot row with the defaults) inside the caller's transaction,
 * the device's and the user's rows locked. Nothing to do when the user already has it.
 * @throws RefusedError `devicesLimit` limit when the user already holds as many devices as the account allows.
 */
async function giveDevice(tx: Tx, deviceId: number, userId: number): Promise<GiveRefusal | undefined> {
  const [device] = isRowId(deviceId) ? await tx.select({ id: devices.id }).from(devices).where(and(eq(devices.id, deviceId), live)).for("update") : [];
  if (!device) return "device";
  // The user's row locked while counting, as add_device does, so two grants cannot both slip under the limit.
  const [user] = isRowId(userId) ? await tx.select({ devicesLimit: users.devicesLimit }).from(users).where(eq(users.id, userId)).for("update") : [];
  if (!user) return "user";
  const [had] = await tx.select({ id: userDevices.deviceId }).from(userDevices).where(and(eq(userDevices.deviceId, deviceId), eq(userDevices.userId, userId)));
  if (had) return undefined;
  if (user.devicesLimit !== null && (await countUserDevices(tx, userId)) >= user.devicesLimit) throw new RefusedError({ devicesLimit: { kind: "limit", limit: user.devicesLimit } });
  await tx.insert(userDevices).values({ userId, deviceId });
  return undefined;
}

/**
 * Gives the user the device and announces it to everyone who has it; true also when the user
 * already had it. The refusal says which is missing: the device (or it is deleted) or the user.
 * @throws RefusedError `devicesLimit` limit when the user already holds as many devices as the account allows.
 */
export async function assignDeviceUser(db: Db, deviceId: number, userId: number): Promise<GiveRefusal | true> {
  const refused = await db.transaction((tx) => giveDevice(tx, deviceId, userId));
  if (refused) return refused;
  await announceChanged(db, await ownersOf(db, [deviceId]));
  return true;
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
    // Locked in id order, as every device write locks them: a grant of one of them waits, and then finds it deleted.
    if (deviceIds.length > 0) await tx.select({ id: devices.id }).from(devices).where(inArray(devices.id, deviceIds)).orderBy(asc(devices.id)).for("update");
    const before = await ownersOf(tx, deviceIds);
    const orphaned = before.filter((o) => o.userIds.every((u) => ids.includes(u))).map((o) => o.deviceId);
    if (orphaned.length > 0) await softDeleteDevices(tx, orphaned);
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
  /** The client's complete list of devices: those left out are taken away as destroy_device would, the others given. */
  deviceIds?: readonly number[];
}

/**
 * Changes the client's account and, with `deviceIds`, its devices, in one transaction with the
 * user's row locked; then announces the devices that moved. Undefined when the user does not exist.
 * @throws RefusedError `{email: taken}` when another user has the (lower-cased) email;
 *   `{deviceIds: unknown}` when a listed device does not exist; `{deviceIds: limit}` when the
 *   list is longer than the account's limit. Nothing is written then.
 */
export async function updateClient(db: Db, userId: number, patch: ClientPatch): Promise<User | undefined> {
  if (!isRowId(userId)) return undefined;
  const { email, password, deviceIds, ...rest } = patch;
  const values: Partial<typeof users.$inferInsert> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (email !== undefined) values.email = normalizeEmail(email);
  if (password !== undefined) Object.assign(values, { passwordHash: await hashPassword(password), apiHash: newApiHash() });
  let done: { user: User; moved: number[] } | undefined;
  try {
    done = await db.transaction(async (tx) => {
      const [current] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
      if (!current) return undefined;
      const limit = patch.devicesLimit === undefined ? current.devicesLimit : patch.devicesLimit;
      const wanted = deviceIds === undefined ? undefined : await lockClientDevices(tx, deviceIds, limit);
      const [user] = Object.keys(values).length > 0 ? await tx.update(users).set(values).where(eq(users.id, userId)).returning() : [current];
      const moved = wanted ? await setClientDevices(tx, userId, wanted) : [];
      return { user: user!, moved };
    });
  } catch (err) {
    if (uniqueViolation(err) === "users_email_unique") throw new RefusedError({ email: { kind: "taken" } });
    throw err;
  }
  if (!done) return undefined;
  announceUsersChanged(db, [userId]);
  await announceMoved(db, userId, done.moved);
  return done.user;
}

/**
 * The devices a client is to have, locked in id order, deduplicated and sorted.
 * @throws RefusedError `{deviceIds: unknown}` when one does not exist (or is deleted), `{deviceIds: limit}` when they are more than `limit`.
 */
async function lockClientDevices(tx: Tx, deviceIds: readonly number[], limit: number | null): Promise<number[]> {
  const wanted = [...new Set(deviceIds)].sort((a, b) => a - b);
  const found = wanted.length === 0 || !wanted.every(isRowId) ? [] : await tx.select({ id: devices.id }).from(devices).where(and(inArray(devices.id, wanted), live)).orderBy(asc(devices.id)).for("update");
  if (found.length !== wanted.length) throw new RefusedError({ deviceIds: { kind: "unknown", many: true } });
  if (limit !== null && wanted.length > limit) throw new RefusedError({ deviceIds: { kind: "limit", limit } });
  return wanted;
}

/** Makes `wanted` (checked by lockClientDevices) the client's devices: the others left as destroy_device leaves them. The devices that moved. */
async function setClientDevices(tx: Tx, userId: number, wanted: readonly number[]): Promise<number[]> {
  const moved: number[] = [];
  const had = (await tx.select({ id: userDevices.deviceId }).from(userDevices).innerJoin(devices, eq(devices.id, userDevices.deviceId)).where(and(eq(userDevices.userId, userId), live))).map((r) => r.id);
  for (const id of had) if (!wanted.includes(id) && (await leaveDevice(tx, userId, id))) moved.push(id);
  // The limit was checked against the whole list; the rows are inserted directly.
  const added = wanted.filter((id) => !had.includes(id));
  if (added.length > 0) await tx.insert(userDevices).values(added.map((deviceId) => ({ userId, deviceId })));
  return [...moved, ...added];
}

/** Announces the devices a client's write moved to everyone who has them, and to the client (who may have left them). */
async function announceMoved(db: Db, userId: number, moved: readonly number[]): Promise<void> {
  const after = await ownersOf(db, moved);
  await announceChanged(db, after.map((o) => (o.userIds.includes(userId) ? o : { ...o, userIds: [...o.userIds, userId] })));
}

/**
 * Creates a client (createUser) and gives it `deviceIds`, in one transaction, then announces them.
 * @throws RefusedError `{email: taken}`, or `{deviceIds: unknown | limit}`; nothing is written then.
 */
export async function createClient(db: Db, input: CreateUserInput, deviceIds: readonly number[] = []): Promise<User> {
  const user = await db.transaction(async (tx) => {
    const wanted = await lockClientDevices(tx, deviceIds, input.devicesLimit ?? null);
    const created = await createUser(tx, input);
    await setClientDevices(tx, created.id, wanted);
    return created;
  });
  await announceMoved(db, user.id, deviceIds);
  return user;
}

/** What the administrators' client list narrows to; every part given must hold. */
export interface ClientSearch {
  /** Part of the email, any case. */
  text?: string;
  /** The IMEI of a device (not deleted) the client has. */
  imei?: string;
  id?: number;
  /** The whole email, any case. */
  email?: string;
  active?: boolean;
  groupId?: number;
}

const clientSortColumns = {
  id: users.id,
  email: users.email,
  active: users.active,
  group_id: users.groupId,
  devices_limit: users.devicesLimit,
  subscription_expiration: users.expirationDate,
  loged_at: users.logedAt,
  created_at: users.createdAt,
  updated_at: users.updatedAt,
} as const;

/** One page of the clients (`page` undefined: all of them), searched and sorted (then by id), and how many match. */
export async function pageClients(
  db: Queryable,
  search: ClientSearch,
  order: { by: keyof typeof clientSortColumns; direction: "asc" | "desc" },
  page?: Page,
): Promise<{ total: number; rows: User[] }> {
  const imei = search.imei?.trim();
  const hasDevice = imei
    ? sql`EXISTS (SELECT 1 FROM ${userDevices} JOIN ${devices} ON ${devices.id} = ${userDevices.deviceId}
        WHERE ${userDevices.userId} = ${users.id} AND ${devices.imei} = ${imei} AND NOT ${devices.deleted})`
    : undefined;
  const where = and(
    search.text ? ilike(users.email, containing(search.text.trim())) : undefined,
    hasDevice,
    search.id === undefined ? undefined : isRowId(search.id) ? eq(users.id, search.id) : sql`false`,
    search.email === undefined ? undefined : eq(users.email, normalizeEmail(search.email)),
    search.active === undefined ? undefined : eq(users.active, search.active),
    search.groupId === undefined ? undefined : eq(users.groupId, search.groupId as UserGroupId),
  );
  const column = clientSortColumns[order.by];
  const direction = order.direction === "desc" ? desc : asc;
  const ordered = db.select().from(users).where(where).orderBy(direction(column), asc(users.id));
  const [rows, [counted]] = await Promise.all([page ? ordered.limit(page.limit).offset(page.offset) : ordered, db.select({ n: count() }).from(users).where(where)]);
  return { total: counted?.n ?? 0, rows };
}

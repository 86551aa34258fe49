import { and, asc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { RefusedError } from "../errors.js";
import { ownedRows, type Page } from "../owned.js";
import { isRowId } from "../row-id.js";
import { devices } from "../schema/devices.js";
import { sharingDevices, sharings, type Sharing } from "../schema/sharings.js";
import { userDevices } from "../schema/user-devices.js";
import { listUserDevicesByIds } from "./devices.js";

/** A sharing with the devices it shows: those of its rows the sharer still has, ascending. */
export type SharingWithDevices = Sharing & { deviceIds: number[] };

/** A sharing's writable fields, already checked; on update, undefined keeps the stored value. */
export interface SharingInput {
  name: string;
  active: boolean;
  /** Null: never expires. */
  expiresAt: Date | null;
  deleteAfterExpiration: boolean;
  /** The complete list of devices it shows. */
  deviceIds: readonly number[];
}

const owned = ownedRows(sharings);

/** Expired sharings that were to go once expired, of one user or (undefined) of anyone. */
function expiredToDelete(userId?: number) {
  const expired = and(eq(sharings.deleteAfterExpiration, true), isNotNull(sharings.expiresAt), lte(sharings.expiresAt, sql`now()`));
  return userId === undefined ? expired : and(eq(sharings.userId, userId), expired);
}

/**
 * Removes the user's sharings that were to be deleted once expired. Run before each read, so
 * one is gone from the moment it expires without a timer to miss it.
 */
const purgeExpired = (db: Queryable, userId: number) => db.delete(sharings).where(expiredToDelete(userId));

/** The devices of these sharings that their sharer still has (not deleted, still on the account), by sharing. */
async function devicesOf(db: Queryable, rows: readonly Sharing[]): Promise<SharingWithDevices[]> {
  if (rows.length === 0) return [];
  const found = await db
    .select({ sharingId: sharingDevices.sharingId, deviceId: sharingDevices.deviceId })
    .from(sharingDevices)
    .innerJoin(sharings, eq(sharings.id, sharingDevices.sharingId))
    .innerJoin(devices, and(eq(devices.id, sharingDevices.deviceId), eq(devices.deleted, false)))
    .innerJoin(userDevices, and(eq(userDevices.deviceId, sharingDevices.deviceId), eq(userDevices.userId, sharings.userId)))
    .where(
      inArray(
        sharingDevices.sharingId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(sharingDevices.sharingId), asc(sharingDevices.deviceId));
  return rows.map((r) => ({ ...r, deviceIds: found.filter((f) => f.sharingId === r.id).map((f) => f.deviceId) }));
}

/** @throws RefusedError `{deviceIds: unknown}` when any id is not one of the user's devices. */
async function writeDevices(tx: Tx, userId: number, sharingId: number, deviceIds: readonly number[]): Promise<void> {
  const wanted = [...new Set(deviceIds)];
  const mine = await listUserDevicesByIds(tx, userId, wanted);
  if (mine.length !== wanted.length) throw new RefusedError({ deviceIds: { kind: "unknown", many: true } });
  await tx.delete(sharingDevices).where(eq(sharingDevices.sharingId, sharingId));
  if (wanted.length > 0) await tx.insert(sharingDevices).values(wanted.map((deviceId) => ({ sharingId, deviceId })));
}

/** One page of the user's sharings by id, and how many the user has. */
export async function pageSharings(db: Queryable, userId: number, page: Page): Promise<{ total: number; rows: SharingWithDevices[] }> {
  await purgeExpired(db, userId);
  const { total, rows } = await owned.page(db, userId, page);
  return { total, rows: await devicesOf(db, rows) };
}

/** The user's sharing, or undefined when it does not exist, is another user's or has been deleted on expiry. */
export async function findSharing(db: Queryable, userId: number, id: number): Promise<SharingWithDevices | undefined> {
  if (!isRowId(id)) return undefined;
  await purgeExpired(db, userId);
  const row = await owned.find(db, userId, id);
  return row ? (await devicesOf(db, [row]))[0] : undefined;
}

/**
 * Stores the user's sharing under `hash` with its devices, in one transaction.
 * @throws RefusedError `{deviceIds: unknown}` when any id is not one of the user's devices; nothing is written.
 */
export async function createSharing(db: Db, userId: number, hash: string, input: SharingInput): Promise<SharingWithDevices> {
  return db.transaction(async (tx) => {
    const { deviceIds, ...fields } = input;
    const row = await owned.create(tx, userId, { ...fields, hash });
    await writeDevices(tx, userId, row.id, deviceIds);
    return (await devicesOf(tx, [row]))[0]!;
  });
}

/**
 * Sets the given fields of the user's sharing, and with `deviceIds` makes them its complete
 * list of devices, in one transaction. Undefined when it does not exist or is another user's.
 * @throws RefusedError `{deviceIds: unknown}` when any id is not one of the user's devices; nothing is written.
 */
export async function updateSharing(db: Db, userId: number, id: number, patch: Partial<SharingInput>): Promise<SharingWithDevices | undefined> {
  if (!isRowId(id)) return undefined;
  return db.transaction(async (tx) => {
    await purgeExpired(tx, userId);
    const [current] = await tx.select().from(sharings).where(owned.mine(userId, id)).for("update");
    if (!current) return undefined;
    const { deviceIds, ...fields } = patch;
    if (deviceIds !== undefined) await writeDevices(tx, userId, id, deviceIds);
    const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const row = Object.keys(defined).length > 0 ? ((await owned.update(tx, userId, id, defined)) ?? current) : current;
    return (await devicesOf(tx, [row]))[0]!;
  });
}

/** Deletes the user's sharing; false when it does not exist or is another user's. */
export async function destroySharing(db: Queryable, userId: number, id: number): Promise<boolean> {
  // One already due for deletion is missing, as a read would find it.
  await purgeExpired(db, userId);
  return owned.destroy(db, userId, id);
}

/**
 * The sharing a link's hash names while it shows anything (active, not expired), with the
 * devices its sharer still has; undefined otherwise, whatever the reason.
 */
export async function findSharedByHash(db: Queryable, hash: string): Promise<SharingWithDevices | undefined> {
  await db.delete(sharings).where(and(eq(sharings.hash, hash), expiredToDelete()));
  const [row] = await db
    .select()
    .from(sharings)
    .where(and(eq(sharings.hash, hash), eq(sharings.active, true), sql`(${sharings.expiresAt} IS NULL OR ${sharings.expiresAt} > now())`));
  return row ? (await devicesOf(db, [row]))[0] : undefined;
}

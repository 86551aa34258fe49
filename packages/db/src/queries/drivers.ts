import { and, asc, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { announceChanged, type DeviceOwners } from "../device-changes.js";
import { RefusedError } from "../errors.js";
import { ownedRows, type Page } from "../owned.js";
import { devices } from "../schema/devices.js";
import { drivers, type Driver, type NewDriver } from "../schema/drivers.js";
import { userDevices } from "../schema/user-devices.js";
import { isRowId } from "../row-id.js";
import { findUserDevice } from "./devices.js";

/** The writable fields of a driver; absent optional fields keep their stored value on update. */
export interface DriverInput {
  deviceId: number;
  name: string;
  rfid?: string;
  phone?: string;
  email?: string;
  description?: string;
}

const owned = ownedRows(drivers);

/** One page of the user's drivers by id, and how many the user has in all. */
export const pageUserDrivers = (db: Queryable, userId: number, page: Page): Promise<{ total: number; rows: Driver[] }> => owned.page(db, userId, page);

/** The user's driver, or undefined when it does not exist or is another user's (callers answer both alike). */
export const findUserDriver = (db: Queryable, userId: number, driverId: number): Promise<Driver | undefined> => owned.find(db, userId, driverId);

/**
 * The user's drivers whose card is one of `rfids` (lower-cased, as rfidOf reads them), by
 * card, matched without regard to case; of several drivers with one card the lowest id,
 * as the tracker's switch picks it.
 */
export async function findUserDriversByRfid(db: Queryable, userId: number, rfids: readonly string[]): Promise<Map<string, Driver>> {
  if (rfids.length === 0) return new Map();
  const cards = sql.join(
    rfids.map((r) => sql`${r}`),
    sql`, `,
  );
  const rows = await db
    .select()
    .from(drivers)
    .where(and(eq(drivers.userId, userId), ne(drivers.rfid, ""), sql`lower(${drivers.rfid}) in (${cards})`))
    .orderBy(asc(drivers.id));
  const out = new Map<string, Driver>();
  for (const d of rows) if (!out.has(d.rfid.toLowerCase())) out.set(d.rfid.toLowerCase(), d);
  return out;
}

/** id → name of the user's non-deleted devices: what a driver can be assigned to. */
export async function listDriverDeviceChoices(db: Queryable, userId: number): Promise<Map<number, string>> {
  const rows = await db
    .select({ id: devices.id, name: devices.name })
    .from(userDevices)
    .innerJoin(devices, eq(devices.id, userDevices.deviceId))
    .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false)))
    .orderBy(asc(devices.id));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * A current driver is the user's own (one per pivot), so a device whose driver changed
 * changed in that user's live list only.
 */
const seenBy = (userId: number, deviceIds: readonly number[]): DeviceOwners[] => deviceIds.map((deviceId) => ({ deviceId, userIds: [userId] }));

/**
 * Makes `driverId` the user's current driver of `deviceId` by hand (since = null, so the
 * next RFID read may replace it), and takes it off the user's other devices: one driver
 * drives one vehicle. Refuses a device that is not one of the user's non-deleted ones.
 * Returns every device whose current driver changed.
 */
async function assignByHand(tx: Tx, userId: number, driverId: number, deviceId: number): Promise<DeviceOwners[]> {
  const cleared = await tx
    .update(userDevices)
    .set({ currentDriverId: null, currentDriverSince: null })
    .where(and(eq(userDevices.userId, userId), eq(userDevices.currentDriverId, driverId), ne(userDevices.deviceId, deviceId)))
    .returning({ deviceId: userDevices.deviceId });
  await tx
    .update(userDevices)
    .set({ currentDriverId: driverId, currentDriverSince: null })
    .where(and(eq(userDevices.userId, userId), eq(userDevices.deviceId, deviceId)));
  return seenBy(userId, [deviceId, ...cleared.map((r) => r.deviceId)]);
}

/** Refuses (nothing written) a device that is not one of the user's non-deleted devices. */
async function assertUserDevice(tx: Tx, userId: number, deviceId: number): Promise<void> {
  if (!(await findUserDevice(tx, userId, deviceId))) throw new RefusedError({ deviceId: { kind: "unknown" } });
}

/** `input` as columns, the absent optional fields left out so an update keeps their stored values. */
function driverValues(input: DriverInput): Pick<NewDriver, "deviceId" | "name" | "rfid" | "phone" | "email" | "description"> {
  const values: Pick<NewDriver, "deviceId" | "name" | "rfid" | "phone" | "email" | "description"> = { deviceId: input.deviceId, name: input.name };
  for (const key of ["rfid", "phone", "email", "description"] as const) {
    if (input[key] !== undefined) values[key] = input[key];
  }
  return values;
}

/**
 * Runs a driver write and its hand assignment in one transaction, then announces the
 * devices whose current driver changed: after the commit, so a poll sees the new rows.
 */
async function written<T>(db: Db, work: (tx: Tx) => Promise<{ result: T; changed: DeviceOwners[] }>): Promise<T> {
  const { result, changed } = await db.transaction(work);
  await announceChanged(db, changed);
  return result;
}

/**
 * Inserts the driver and makes it its device's current driver for the user, in one
 * transaction. Refuses `deviceId` (RefusedError) when it is not one of the user's non-deleted devices.
 */
export function createDriver(db: Db, userId: number, input: DriverInput): Promise<Driver> {
  return written(db, async (tx) => {
    await assertUserDevice(tx, userId, input.deviceId);
    const driver = await owned.create(tx, userId, driverValues(input));
    return { result: driver, changed: await assignByHand(tx, userId, driver.id, input.deviceId) };
  });
}

/**
 * Updates the user's driver and makes it its device's current driver, in one transaction.
 * Undefined when the driver does not exist or is another user's; refuses `deviceId`
 * (RefusedError) when it is not one of the user's non-deleted devices.
 */
export function updateDriver(db: Db, userId: number, driverId: number, input: DriverInput): Promise<Driver | undefined> {
  return written(db, async (tx) => {
    if (!(await owned.find(tx, userId, driverId))) return { result: undefined, changed: [] };
    await assertUserDevice(tx, userId, input.deviceId);
    // Scoped by user again: the row may have gone since the read above.
    const driver = await owned.update(tx, userId, driverId, driverValues(input));
    return { result: driver, changed: driver ? await assignByHand(tx, userId, driverId, input.deviceId) : [] };
  });
}

/**
 * Deletes the user's driver; the pivots it was current on lose it by the foreign key.
 * False when the driver does not exist or is another user's.
 */
export async function destroyDriver(db: Db, userId: number, driverId: number): Promise<boolean> {
  if (!isRowId(driverId)) return false;
  return written(db, async (tx) => {
    // Locked first: a pivot cannot take the driver (its foreign key check waits on this
    // lock) between reading who holds it and the delete.
    const [found] = await tx.select({ id: drivers.id }).from(drivers).where(owned.mine(userId, driverId)).for("update");
    if (!found) return { result: false, changed: [] };
    const holders = await tx.select({ deviceId: userDevices.deviceId, userId: userDevices.userId }).from(userDevices).where(eq(userDevices.currentDriverId, driverId));
    await tx.delete(drivers).where(eq(drivers.id, driverId));
    return { result: true, changed: holders.map((h) => ({ deviceId: h.deviceId, userIds: [h.userId] })) };
  });
}

/** device id → name of the user's current driver, for the user's devices that have one. */
export async function currentDriverNames(db: Queryable, userId: number): Promise<Map<number, string>> {
  const rows = await db
    .select({ deviceId: userDevices.deviceId, name: drivers.name })
    .from(userDevices)
    .innerJoin(drivers, eq(drivers.id, userDevices.currentDriverId))
    .where(and(eq(userDevices.userId, userId), isNotNull(userDevices.currentDriverId)));
  return new Map(rows.map((r) => [r.deviceId, r.name]));
}

/** The newest RFID a device reported in a batch, lower-cased and trimmed by the caller. */
export interface RfidSighting {
  deviceId: number;
  rfid: string;
  /** Epoch milliseconds of the position's fix. */
  fixTime: number;
}

/** A user whose current driver of a device changed. */
export interface DriverSwitch {
  deviceId: number;
  userId: number;
}

// Three parameters per sighting; this keeps a statement far below Postgres's 65535.
const SIGHTINGS_PER_STATEMENT = 1000;

/**
 * For each sighting, makes the driver whose RFID matches it (case-insensitively, the
 * lowest id when a user has several) the current driver of the device for each user
 * of the device who has such a driver. One UPDATE per statement chunk; a pivot moves
 * only to a different driver and only when its assignment is older than the fix (or
 * was set by hand), so a late older fix never undoes a newer one and a replay is a no-op.
 * Returns the pivots that changed.
 */
export async function assignDriversByRfid(db: Queryable, sightings: readonly RfidSighting[]): Promise<DriverSwitch[]> {
  const out: DriverSwitch[] = [];
  for (let i = 0; i < sightings.length; i += SIGHTINGS_PER_STATEMENT) {
    out.push(...(await assignChunk(db, sightings.slice(i, i + SIGHTINGS_PER_STATEMENT))));
  }
  return out;
}

async function assignChunk(db: Queryable, sightings: readonly RfidSighting[]): Promise<DriverSwitch[]> {
  if (sightings.length === 0) return [];
  // Times travel as ISO text: pg and PGlite serialise a Date parameter differently.
  const values = sql.join(
    sightings.map((s) => sql`(${s.deviceId}::integer, ${s.rfid.toLowerCase()}::text, ${new Date(s.fixTime).toISOString()}::timestamptz)`),
    sql`, `,
  );
  const result = await db.execute(sql`
    WITH sighting(device_id, rfid, fix_time) AS (VALUES ${values}),
    matched AS (
      SELECT DISTINCT ON (ud.user_id, ud.device_id) ud.user_id, ud.device_id, d.id AS driver_id, s.fix_time
      FROM sighting s
      JOIN user_devices ud ON ud.device_id = s.device_id
      JOIN drivers d ON d.user_id = ud.user_id AND d.rfid <> '' AND lower(d.rfid) = s.rfid
      ORDER BY ud.user_id, ud.device_id, d.id
    )
    UPDATE user_devices ud
    SET current_driver_id = m.driver_id, current_driver_since = m.fix_time
    FROM matched m
    WHERE ud.user_id = m.user_id AND ud.device_id = m.device_id
      AND ud.current_driver_id IS DISTINCT FROM m.driver_id
      AND (ud.current_driver_since IS NULL OR ud.current_driver_since < m.fix_time)
    RETURNING ud.device_id, ud.user_id`);
  // Both drivers answer with `rows`; the shared Db type cannot say so.
  const rows = (result as unknown as { rows: { device_id: number; user_id: number }[] }).rows;
  return rows.map((r) => ({ deviceId: Number(r.device_id), userId: Number(r.user_id) }));
}

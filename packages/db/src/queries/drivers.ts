import { and, asc, count, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { devices } from "../schema/devices.js";
import { drivers, type Driver, type NewDriver } from "../schema/drivers.js";
import { userDevices } from "../schema/user-devices.js";
import { findUserDevice } from "./devices.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;

/** A device id that does not exist, is deleted or is another user's (the three look alike). */
export class UnknownDriverDeviceError extends Error {
  override readonly name = "UnknownDriverDeviceError";
  readonly field = "device_id";
  constructor(readonly deviceId: number) {
    super(`Device ${deviceId} not found`);
  }
}

/** The writable fields of a driver; absent optional fields keep their stored value on update. */
export interface DriverInput {
  deviceId: number;
  name: string;
  rfid?: string;
  phone?: string;
  email?: string;
  description?: string;
}

/** One page of the user's drivers by id, and how many the user has in all. */
export async function listUserDrivers(db: Queryable, userId: number, page: { limit: number; offset: number }): Promise<{ total: number; drivers: Driver[] }> {
  const [rows, [counted]] = await Promise.all([
    db.select().from(drivers).where(eq(drivers.userId, userId)).orderBy(asc(drivers.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(drivers).where(eq(drivers.userId, userId)),
  ]);
  return { total: counted?.n ?? 0, drivers: rows };
}

/** The user's driver, or undefined when it does not exist or is another user's (callers answer both alike). */
export async function findUserDriver(db: Queryable, userId: number, driverId: number): Promise<Driver | undefined> {
  if (!isRowId(driverId)) return undefined;
  const [row] = await db
    .select()
    .from(drivers)
    .where(and(eq(drivers.id, driverId), eq(drivers.userId, userId)));
  return row;
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
 * Makes `driverId` the user's current driver of `deviceId` by hand (since = null, so the
 * next RFID read may replace it), and takes it off the user's other devices: one driver
 * drives one vehicle. Returns every device whose current driver changed.
 */
async function assignByHand(tx: Tx, userId: number, driverId: number, deviceId: number): Promise<number[]> {
  const cleared = await tx
    .update(userDevices)
    .set({ currentDriverId: null, currentDriverSince: null })
    .where(and(eq(userDevices.userId, userId), eq(userDevices.currentDriverId, driverId), ne(userDevices.deviceId, deviceId)))
    .returning({ deviceId: userDevices.deviceId });
  await tx
    .update(userDevices)
    .set({ currentDriverId: driverId, currentDriverSince: null })
    .where(and(eq(userDevices.userId, userId), eq(userDevices.deviceId, deviceId)));
  return [deviceId, ...cleared.map((r) => r.deviceId)];
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
 * Inserts the driver and makes it its device's current driver for the user, in one
 * transaction. Returns the driver and the devices whose current driver changed.
 * @throws UnknownDriverDeviceError when deviceId is not one of the user's non-deleted devices.
 */
export async function createDriver(db: Db, userId: number, input: DriverInput): Promise<{ driver: Driver; changedDeviceIds: number[] }> {
  return db.transaction(async (tx) => {
    if (!(await findUserDevice(tx, userId, input.deviceId))) throw new UnknownDriverDeviceError(input.deviceId);
    const [driver] = await tx
      .insert(drivers)
      .values({ ...driverValues(input), userId })
      .returning();
    const changedDeviceIds = await assignByHand(tx, userId, driver!.id, input.deviceId);
    return { driver: driver!, changedDeviceIds };
  });
}

/**
 * Updates the user's driver and makes it its device's current driver, in one transaction.
 * Returns undefined when the driver does not exist or is another user's.
 * @throws UnknownDriverDeviceError when deviceId is not one of the user's non-deleted devices.
 */
export async function updateDriver(db: Db, userId: number, driverId: number, input: DriverInput): Promise<{ driver: Driver; changedDeviceIds: number[] } | undefined> {
  if (!isRowId(driverId)) return undefined;
  return db.transaction(async (tx) => {
    if (!(await findUserDriver(tx, userId, driverId))) return undefined;
    if (!(await findUserDevice(tx, userId, input.deviceId))) throw new UnknownDriverDeviceError(input.deviceId);
    // Scoped by user again: the row may have gone since the read above.
    const [driver] = await tx
      .update(drivers)
      .set(driverValues(input))
      .where(and(eq(drivers.id, driverId), eq(drivers.userId, userId)))
      .returning();
    if (!driver) return undefined;
    return { driver, changedDeviceIds: await assignByHand(tx, userId, driverId, input.deviceId) };
  });
}

/**
 * Deletes the user's driver; the pivots it was current on lose it by the foreign key.
 * Returns those devices, or undefined when the driver does not exist or is another user's.
 */
export async function destroyDriver(db: Db, userId: number, driverId: number): Promise<{ changedDeviceIds: number[] } | undefined> {
  if (!isRowId(driverId)) return undefined;
  return db.transaction(async (tx) => {
    // Locked first: a pivot cannot take the driver (its foreign key check waits on this
    // lock) between reading who holds it and the delete.
    const [found] = await tx
      .select({ id: drivers.id })
      .from(drivers)
      .where(and(eq(drivers.id, driverId), eq(drivers.userId, userId)))
      .for("update");
    if (!found) return undefined;
    const holders = await tx.select({ deviceId: userDevices.deviceId }).from(userDevices).where(eq(userDevices.currentDriverId, driverId));
    await tx.delete(drivers).where(eq(drivers.id, driverId));
    return { changedDeviceIds: holders.map((h) => h.deviceId) };
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

import { and, asc, count, eq, exists, gte, inArray, sql } from "drizzle-orm";
import type { Db, Queryable } from "../client.js";
import { announceChanged, ownersOf } from "../device-changes.js";
import { devices } from "../schema/devices.js";
import { sensors, type NewSensor, type Sensor } from "../schema/sensors.js";
import { userDevices } from "../schema/user-devices.js";
import { findUserDevice } from "./devices.js";
import { isRowId } from "../row-id.js";

/** A sensor's own columns, as a create or an edit writes them; ids, owner and timestamps are the server's. */
export type SensorValues = Omit<NewSensor, "id" | "userId" | "deviceId" | "createdAt" | "updatedAt">;

/** The types engine detection reads (a device's `detect_engine`). */
const ENGINE_TYPES = ["ignition", "acc", "engine"] as const;

/**
 * A sensor is the user's when its device is one of the user's non-deleted devices: it
 * belongs to the device, so every user sharing the device sees and edits it alike.
 */
function visibleTo(db: Queryable, userId: number) {
  return exists(
    db
      .select({ one: sql`1` })
      .from(userDevices)
      .innerJoin(devices, eq(devices.id, userDevices.deviceId))
      .where(and(eq(userDevices.deviceId, sensors.deviceId), eq(userDevices.userId, userId), eq(devices.deleted, false))),
  );
}

/**
 * A sensor belongs to its device, so every user who sees the device sees the change in
 * the live list. Announced once the write has committed; undefined (nothing written) passes through.
 */
async function announced(db: Db, sensor: Sensor | undefined): Promise<Sensor | undefined> {
  if (sensor) await announceChanged(db, await ownersOf(db, [sensor.deviceId]));
  return sensor;
}

/** The sensor if the user may see it; undefined when it does not exist or is not theirs (answered alike). */
export async function findUserSensor(db: Queryable, userId: number, sensorId: number): Promise<Sensor | undefined> {
  if (!isRowId(sensorId)) return undefined;
  const [row] = await db
    .select()
    .from(sensors)
    .where(and(eq(sensors.id, sensorId), visibleTo(db, userId)));
  return row;
}

/** Every sensor of these devices, by device then id (the order "first sensor of a type" means). */
export async function listSensorsOfDevices(db: Queryable, deviceIds: readonly number[]): Promise<Sensor[]> {
  if (deviceIds.length === 0) return [];
  return db
    .select()
    .from(sensors)
    .where(inArray(sensors.deviceId, [...deviceIds]))
    .orderBy(asc(sensors.deviceId), asc(sensors.id));
}

/** The ignition, acc and engine sensors of these devices, by device then id: what the tracker caches. */
export async function listEngineSensorsOfDevices(db: Queryable, deviceIds: readonly number[]): Promise<Sensor[]> {
  if (deviceIds.length === 0) return [];
  return db
    .select()
    .from(sensors)
    .where(and(inArray(sensors.deviceId, [...deviceIds]), inArray(sensors.type, [...ENGINE_TYPES])))
    .orderBy(asc(sensors.deviceId), asc(sensors.id));
}

/**
 * The ignition, acc and engine sensors of every device changed at or after `since`, by
 * device then id: the tracker's sync reads them with listDevicesChangedSince and the same
 * bound (a join, so a first sync over every device needs no list of ids). A sensor change
 * moves its device's updated_at (trigger of migration 0003), so it is seen here too.
 */
export async function listEngineSensorsChangedSince(db: Queryable, since: Date): Promise<Sensor[]> {
  const rows = await db
    .select({ sensor: sensors })
    .from(sensors)
    .innerJoin(devices, eq(devices.id, sensors.deviceId))
    .where(and(gte(devices.updatedAt, since), inArray(sensors.type, [...ENGINE_TYPES])))
    .orderBy(asc(sensors.deviceId), asc(sensors.id));
  return rows.map((r) => r.sensor);
}

/** One page of a device's sensors, by id, and how many it has. */
export async function pageDeviceSensors(db: Queryable, deviceId: number, page: { limit: number; offset: number }): Promise<{ total: number; rows: Sensor[] }> {
  const [[totalRow], rows] = await Promise.all([
    db.select({ n: count() }).from(sensors).where(eq(sensors.deviceId, deviceId)),
    db.select().from(sensors).where(eq(sensors.deviceId, deviceId)).orderBy(asc(sensors.id)).limit(page.limit).offset(page.offset),
  ]);
  return { total: totalRow?.n ?? 0, rows };
}

/**
 * Adds a sensor to one of the user's non-deleted devices, checked in the same
 * transaction; undefined when the device is not theirs.
 */
export async function createUserSensor(db: Db, userId: number, deviceId: number, values: SensorValues): Promise<Sensor | undefined> {
  const created = await db.transaction(async (tx) => {
    if (!(await findUserDevice(tx, userId, deviceId))) return undefined;
    const [sensor] = await tx
      .insert(sensors)
      .values({ ...values, userId, deviceId })
      .returning();
    return sensor;
  });
  return announced(db, created);
}

/** Rewrites a sensor the user may see, in one statement; undefined when it is gone or not theirs. */
export async function updateUserSensor(db: Db, userId: number, sensorId: number, values: SensorValues): Promise<Sensor | undefined> {
  if (!isRowId(sensorId)) return undefined;
  const [sensor] = await db
    .update(sensors)
    .set(values)
    .where(and(eq(sensors.id, sensorId), visibleTo(db, userId)))
    .returning();
  return announced(db, sensor);
}

/** Deletes a sensor the user may see; undefined when it is gone or not theirs. */
export async function deleteUserSensor(db: Db, userId: number, sensorId: number): Promise<Sensor | undefined> {
  if (!isRowId(sensorId)) return undefined;
  const [sensor] = await db
    .delete(sensors)
    .where(and(eq(sensors.id, sensorId), visibleTo(db, userId)))
    .returning();
  return announced(db, sensor);
}

import { and, asc, count, eq, inArray, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { devices } from "../schema/devices.js";
import { services, type NewService, type Service } from "../schema/services.js";
import { userDevices } from "../schema/user-devices.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;

/** What add_service and edit_service write: the servicePost fields, amounts in km, hours or days. */
export type ServiceInput = Pick<NewService, "deviceId" | "name" | "expirationBy" | "interval" | "lastService" | "triggerEventLeft" | "renewAfterExpiration" | "email" | "mobilePhone">;

/**
 * The user's services on devices the user still has (non-deleted, still in the pivot):
 * a service outlives neither its device nor the user's access to it.
 */
function userServicesWhere(userId: number, extra?: SQL) {
  return and(eq(services.userId, userId), eq(devices.deleted, false), extra);
}
const pivotOfService = and(eq(userDevices.deviceId, services.deviceId), eq(userDevices.userId, services.userId));

function selectUserServices(db: Queryable, userId: number, extra?: SQL) {
  return db
    .select({ service: services })
    .from(services)
    .innerJoin(userDevices, pivotOfService)
    .innerJoin(devices, eq(devices.id, services.deviceId))
    .where(userServicesWhere(userId, extra));
}

async function countUserServices(db: Queryable, userId: number, extra?: SQL): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(services)
    .innerJoin(userDevices, pivotOfService)
    .innerJoin(devices, eq(devices.id, services.deviceId))
    .where(userServicesWhere(userId, extra));
  return row?.n ?? 0;
}

export function createService(db: Queryable, userId: number, input: ServiceInput): Promise<Service> {
  return db
    .insert(services)
    .values({ ...input, userId })
    .returning()
    .then((rows) => rows[0]!);
}

/** One of the user's services, or undefined when it does not exist or is not the user's (callers answer both alike). */
export async function findUserService(db: Queryable, userId: number, serviceId: number): Promise<Service | undefined> {
  if (!isRowId(serviceId)) return undefined;
  const [row] = await selectUserServices(db, userId, eq(services.id, serviceId));
  return row?.service;
}

/** A page of the user's services of one device, oldest first, and how many there are. */
export async function listDeviceServices(db: Queryable, userId: number, deviceId: number, page: { limit: number; offset: number }): Promise<{ total: number; rows: Service[] }> {
  if (!isRowId(deviceId)) return { total: 0, rows: [] };
  const ofDevice = eq(services.deviceId, deviceId);
  const [rows, total] = await Promise.all([
    selectUserServices(db, userId, ofDevice).orderBy(asc(services.id)).limit(page.limit).offset(page.offset),
    countUserServices(db, userId, ofDevice),
  ]);
  return { total, rows: rows.map((r) => r.service) };
}

/** The user's services of all these devices in one query, by device then id. */
export async function listServicesOfDevices(db: Queryable, userId: number, deviceIds: readonly number[]): Promise<Service[]> {
  if (deviceIds.length === 0) return [];
  const rows = await selectUserServices(db, userId, inArray(services.deviceId, [...deviceIds])).orderBy(asc(services.deviceId), asc(services.id));
  return rows.map((r) => r.service);
}

/**
 * Replaces the servicePost fields of one of the user's services. The notification flag
 * is cleared, since new terms are a new expiry to notify. Undefined when the service is
 * not the user's.
 */
export async function updateUserService(db: Queryable, userId: number, serviceId: number, input: ServiceInput): Promise<Service | undefined> {
  if (!isRowId(serviceId)) return undefined;
  const [row] = await db
    .update(services)
    .set({ ...input, eventSent: false })
    .where(and(eq(services.id, serviceId), eq(services.userId, userId)))
    .returning();
  return row;
}

/** Deletes one of the user's services; false when it was not the user's. */
export async function deleteUserService(db: Queryable, userId: number, serviceId: number): Promise<boolean> {
  if (!isRowId(serviceId)) return false;
  const rows = await db
    .delete(services)
    .where(and(eq(services.id, serviceId), eq(services.userId, userId)))
    .returning({ id: services.id });
  return rows.length > 0;
}

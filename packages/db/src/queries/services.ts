import { and, asc, count, eq, gt, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import type { Db, Queryable } from "../client.js";
import { announceChanged } from "../device-changes.js";
import { ownedRows } from "../owned.js";
import { devices, type Device } from "../schema/devices.js";
import { services, type NewService, type Service } from "../schema/services.js";
import { userDevices } from "../schema/user-devices.js";
import { users, type User } from "../schema/users.js";
import { isRowId } from "../row-id.js";

/** What add_service and edit_service write: the servicePost fields, amounts in km, hours or days. */
export type ServiceInput = Pick<NewService, "deviceId" | "name" | "expirationBy" | "interval" | "lastService" | "triggerEventLeft" | "renewAfterExpiration" | "email" | "mobilePhone">;

const owned = ownedRows(services);

/**
 * A service is its user's alone (the live list shows a device's services to the user who
 * made them), so a change is announced to that user only, once it has committed.
 */
function announce(db: Db, userId: number, deviceIds: readonly number[]): Promise<void> {
  return announceChanged(
    db,
    [...new Set(deviceIds)].map((deviceId) => ({ deviceId, userIds: [userId] })),
  );
}

/**
 * `q` narrowed to the user's services on devices the user still has (non-deleted, still
 * in the pivot): a service outlives neither its device nor the user's access to it.
 */
function ofUser<Q extends PgSelect>(q: Q, userId: number, extra?: SQL) {
  return q
    .innerJoin(userDevices, and(eq(userDevices.deviceId, services.deviceId), eq(userDevices.userId, services.userId)))
    .innerJoin(devices, eq(devices.id, services.deviceId))
    .where(and(eq(services.userId, userId), eq(devices.deleted, false), extra));
}

const userServices = (db: Queryable, userId: number, extra?: SQL) => ofUser(db.select({ service: services }).from(services).$dynamic(), userId, extra);

export async function createService(db: Db, userId: number, input: ServiceInput): Promise<Service> {
  const service = await owned.create(db, userId, input);
  await announce(db, userId, [service.deviceId]);
  return service;
}

/** One of the user's services, or undefined when it does not exist or is not the user's (callers answer both alike). */
export async function findUserService(db: Queryable, userId: number, serviceId: number): Promise<Service | undefined> {
  if (!isRowId(serviceId)) return undefined;
  const [row] = await userServices(db, userId, eq(services.id, serviceId));
  return row?.service;
}

/** A page of the user's services of one device, oldest first, and how many there are. */
export async function listDeviceServices(db: Queryable, userId: number, deviceId: number, page: { limit: number; offset: number }): Promise<{ total: number; rows: Service[] }> {
  if (!isRowId(deviceId)) return { total: 0, rows: [] };
  const ofDevice = eq(services.deviceId, deviceId);
  const [rows, [counted]] = await Promise.all([
    userServices(db, userId, ofDevice).orderBy(asc(services.id)).limit(page.limit).offset(page.offset),
    ofUser(db.select({ n: count() }).from(services).$dynamic(), userId, ofDevice),
  ]);
  return { total: counted?.n ?? 0, rows: rows.map((r) => r.service) };
}

/** The user's services of all these devices in one query, by device then id. */
export async function listServicesOfDevices(db: Queryable, userId: number, deviceIds: readonly number[]): Promise<Service[]> {
  if (deviceIds.length === 0) return [];
  const rows = await userServices(db, userId, inArray(services.deviceId, [...deviceIds])).orderBy(asc(services.deviceId), asc(services.id));
  return rows.map((r) => r.service);
}

/**
 * Replaces the servicePost fields of one of the user's services, which may move it to
 * another device (both devices change). The notification flag is cleared, since new
 * terms are a new expiry to notify. Undefined when the service is not the user's.
 */
export async function updateUserService(db: Db, userId: number, serviceId: number, input: ServiceInput): Promise<Service | undefined> {
  if (!isRowId(serviceId)) return undefined;
  const moved = await db.transaction(async (tx) => {
    // Locked, so the device it leaves is the one it was on when it moved.
    const [before] = await tx.select({ deviceId: services.deviceId }).from(services).where(owned.mine(userId, serviceId)).for("update");
    const after = before && (await owned.update(tx, userId, serviceId, { ...input, eventSent: false, notifiedCycle: null }));
    return after && { after, from: before.deviceId };
  });
  if (!moved) return undefined;
  await announce(db, userId, [moved.from, moved.after.deviceId]);
  return moved.after;
}

/** Deletes one of the user's services; false when it was not the user's. */
export async function deleteUserService(db: Db, userId: number, serviceId: number): Promise<boolean> {
  if (!isRowId(serviceId)) return false;
  const [gone] = await db.delete(services).where(owned.mine(userId, serviceId)).returning({ deviceId: services.deviceId });
  if (gone) await announce(db, userId, [gone.deviceId]);
  return gone !== undefined;
}

/** A service whose reminder may be due, with what computing it needs: its device and its owner. */
export interface ServiceToCheck {
  service: Service;
  device: Pick<Device, "id" | "name" | "engineHours">;
  user: User;
}

/**
 * A page of the services, by id after `afterId`, whose reminder may be due: not yet sent, or
 * renewing (each cycle has its own), on a device their owner still has. The owner's account
 * may be shut out: the caller decides (isUserUsable) rather than this query guessing its clock.
 */
export async function listServicesToCheck(db: Queryable, page: { afterId: number; limit: number }): Promise<ServiceToCheck[]> {
  const rows = await db
    .select({
      service: services,
      device: { id: devices.id, name: devices.name, engineHours: devices.engineHours },
      user: users,
    })
    .from(services)
    .innerJoin(userDevices, and(eq(userDevices.deviceId, services.deviceId), eq(userDevices.userId, services.userId)))
    .innerJoin(devices, and(eq(devices.id, services.deviceId), eq(devices.deleted, false)))
    .innerJoin(users, eq(users.id, services.userId))
    .where(and(gt(services.id, page.afterId), or(eq(services.eventSent, false), eq(services.renewAfterExpiration, true))))
    .orderBy(asc(services.id))
    .limit(page.limit);
  return rows;
}

/**
 * Marks a service's reminder as sent for `cycle`, unless its terms changed since `readAt` (its
 * updated_at as read, to the millisecond a Date holds): an edit made meanwhile is a new
 * expiry to remind of. True when marked.
 */
export async function markServiceNotified(db: Queryable, serviceId: number, cycle: string, readAt: Date): Promise<boolean> {
  const marked = await db
    .update(services)
    .set({ eventSent: true, notifiedCycle: cycle })
    .where(
      and(
        eq(services.id, serviceId),
        sql`date_trunc('milliseconds', ${services.updatedAt}) = ${readAt.toISOString()}::timestamptz`,
        or(eq(services.eventSent, false), isNull(services.notifiedCycle), ne(services.notifiedCycle, cycle)),
      ),
    )
    .returning({ id: services.id });
  return marked.length > 0;
}

import { and, asc, count, eq, gte, inArray, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { DevicesLimitError, DuplicateImeiError, UnknownDeviceGroupError, uniqueViolation } from "../errors.js";
import { deviceGroups } from "../schema/device-groups.js";
import { devices, type Device, type NewDevice } from "../schema/devices.js";
import { userDevices, type UserDevice } from "../schema/user-devices.js";
import { users } from "../schema/users.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;

/**
 * The `add_device` body in camelCase: device columns (defaults as in the schema) plus the
 * creating user's pivot settings. Server-owned columns (id, owner, deleted, timestamps) are
 * not accepted.
 */
export type CreateDeviceInput = Omit<NewDevice, "id" | "userId" | "deleted" | "createdAt" | "updatedAt" | "timezoneId"> & {
  /** The creating user's device group; must be one of that user's groups. */
  groupId?: number | null;
  /** The creating user's timezone for this device (the pivot's, as edit_device sets it); null or 0 = the user's own. */
  timezoneId?: number | null;
};

/** The pivot as the spec's `pivot` object has it. */
export type DevicePivot = UserDevice;

/** A device as one user sees it: the device row plus that user's pivot row. */
export type UserDeviceRecord = Device & { pivot: DevicePivot };

/** A device as the tracker caches it: the row plus every user it belongs to. */
export type TrackedDevice = Device & { userIds: number[] };

/**
 * Inserts the device and the creating user's pivot row in one transaction, so a failure
 * leaves neither behind.
 * @throws DuplicateImeiError when a non-deleted device already has this IMEI.
 * @throws UnknownDeviceGroupError when groupId is not one of the user's groups.
 * @throws DevicesLimitError when the user already has `devicesLimit` devices; the user's
 *   row is locked while counting, so concurrent adds cannot both slip under the limit.
 */
export async function createDevice(db: Db, userId: number, input: CreateDeviceInput, opts: { devicesLimit?: number | null } = {}): Promise<UserDeviceRecord> {
  const { groupId = null, timezoneId = null, ...deviceValues } = input;
  try {
    return await db.transaction(async (tx) => {
      if (opts.devicesLimit !== undefined && opts.devicesLimit !== null) {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        if ((await countUserDevices(tx, userId)) >= opts.devicesLimit) throw new DevicesLimitError(opts.devicesLimit);
      }
      if (groupId !== null) {
        const [group] = await tx
          .select({ id: deviceGroups.id })
          .from(deviceGroups)
          .where(and(eq(deviceGroups.id, groupId), eq(deviceGroups.userId, userId)))
          // Shared lock: an edit_setup removing the group waits for this insert instead of
          // deleting the row between the check and the insert (a foreign key error, a 500).
          .for("share");
        if (!group) throw new UnknownDeviceGroupError(groupId);
      }
      const [device] = await tx
        .insert(devices)
        .values({ ...deviceValues, userId })
        .returning({ id: devices.id });
      await tx.insert(userDevices).values({ userId, deviceId: device!.id, groupId, timezoneId });
      // Read back after the pivot insert: its trigger has moved the device's updated_at.
      const [record] = await selectUserDevices(tx, userId, eq(devices.id, device!.id));
      return record!;
    });
  } catch (err) {
    if (uniqueViolation(err) === "devices_imei_live_unique") throw new DuplicateImeiError(input.imei);
    throw err;
  }
}

function selectUserDevices(db: Queryable, userId: number, extra?: SQL): Promise<UserDeviceRecord[]> {
  return db
    .select({ device: devices, pivot: userDevices })
    .from(userDevices)
    .innerJoin(devices, eq(devices.id, userDevices.deviceId))
    .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false), extra))
    .orderBy(asc(devices.id))
    .then((rows) => rows.map(({ device, pivot }) => ({ ...device, pivot })));
}

/**
 * One of the user's non-deleted devices, or undefined when the id does not exist, is
 * deleted or is not the user's (callers answer all three alike).
 */
export async function findUserDevice(db: Queryable, userId: number, deviceId: number): Promise<UserDeviceRecord | undefined> {
  if (!isRowId(deviceId)) return undefined;
  const [record] = await selectUserDevices(db, userId, eq(devices.id, deviceId));
  return record;
}

/** The user's non-deleted devices with that user's pivot fields, by id. */
export function listUserDevices(db: Queryable, userId: number): Promise<UserDeviceRecord[]> {
  return selectUserDevices(db, userId);
}

/**
 * Folds a device-left-join-pivot result (one row per owner, device rows adjacent because
 * of the ORDER BY) into one TrackedDevice per device.
 */
function foldOwners(rows: { device: Device; userId: number | null }[]): TrackedDevice[] {
  const out: TrackedDevice[] = [];
  for (const { device, userId } of rows) {
    let last = out.at(-1);
    if (last?.id !== device.id) out.push((last = { ...device, userIds: [] }));
    if (userId !== null) last.userIds.push(userId);
  }
  return out;
}

function selectTracked(db: Queryable) {
  return db
    .select({ device: devices, userId: userDevices.userId })
    .from(devices)
    .leftJoin(userDevices, eq(userDevices.deviceId, devices.id));
}

/** The non-deleted device with this IMEI (the tracker's `uniqueId`) and its owners. */
export async function findDeviceByImei(db: Queryable, imei: string): Promise<TrackedDevice | undefined> {
  const rows = await selectTracked(db)
    .where(and(eq(devices.imei, imei), eq(devices.deleted, false)))
    .orderBy(asc(userDevices.userId));
  return foldOwners(rows)[0];
}

/**
 * Every device whose row or owners changed at or after `since`, deleted and inactive ones
 * included so a cache can drop them. Ordered by updatedAt (then id), so when an IMEI was
 * deleted and registered again the live device comes last and wins in a cache keyed by IMEI.
 *
 * The bound is inclusive: a caller that passes back the largest `updatedAt` it has seen
 * gets the boundary rows again (harmless) rather than missing one that shares the
 * timestamp. A transaction that commits after a poll can carry a slightly earlier
 * timestamp, so pollers should step the cursor back by a few seconds of overlap.
 */
export async function listDevicesChangedSince(db: Queryable, since: Date): Promise<TrackedDevice[]> {
  const rows = await selectTracked(db)
    .where(gte(devices.updatedAt, since))
    .orderBy(asc(devices.updatedAt), asc(devices.id), asc(userDevices.userId));
  return foldOwners(rows);
}

/** Each listed non-deleted device's moving speed threshold (km/h), for restoring its live state. */
export async function movingSpeedsOf(db: Queryable, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: devices.id, minMovingSpeed: devices.minMovingSpeed })
    .from(devices)
    .where(and(inArray(devices.id, [...ids]), eq(devices.deleted, false)));
  return new Map(rows.map((r) => [r.id, Number(r.minMovingSpeed)]));
}

/** How many non-deleted devices the user has, for the account's devices_limit. */
export async function countUserDevices(db: Queryable, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(userDevices)
    .innerJoin(devices, eq(devices.id, userDevices.deviceId))
    .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false)));
  return row?.n ?? 0;
}

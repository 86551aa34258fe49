import { and, asc, count, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { announceChanged, ownersOf, type DeviceOwners } from "../device-changes.js";
import { RefusedError, uniqueViolation } from "../errors.js";
import { isRowId } from "../row-id.js";
import { defaultIconColors, devices, type Device, type IconColors, type NewDevice } from "../schema/devices.js";
import { deviceMedia } from "../schema/device-media.js";
import { drivers } from "../schema/drivers.js";
import { userDevices, type UserDevice } from "../schema/user-devices.js";
import { users } from "../schema/users.js";
import { lockOwnGroup } from "./device-groups.js";

/**
 * The `add_device` body in camelCase: device columns (defaults as in the schema) plus the
 * creating user's pivot settings. Server-owned columns (id, owner, deleted, timestamps) are
 * not accepted.
 */
export type CreateDeviceInput = Omit<NewDevice, "id" | "userId" | "deleted" | "createdAt" | "updatedAt" | "timezoneId" | "iconColors"> & {
  /** Colours left out (or undefined) are the defaults. */
  iconColors?: Partial<IconColors>;
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
 * @throws RefusedError `imei` taken when a non-deleted device already has this IMEI;
 *   `groupId` unknown when it is not one of the user's groups; `devicesLimit` limit when
 *   the user already has that many devices (the user's row is locked while counting, so
 *   concurrent adds cannot both slip under the limit).
 */
export async function createDevice(db: Db, userId: number, input: CreateDeviceInput, opts: { devicesLimit?: number | null } = {}): Promise<UserDeviceRecord> {
  const { groupId = null, timezoneId = null, iconColors, ...deviceValues } = input;
  const limit = opts.devicesLimit ?? null;
  const record = await imeiUnique(
    db.transaction(async (tx) => {
      if (limit !== null) {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        if ((await countUserDevices(tx, userId)) >= limit) throw new RefusedError({ devicesLimit: { kind: "limit", limit } });
      }
      if (groupId !== null && !(await lockOwnGroup(tx, userId, groupId))) throw new RefusedError({ groupId: { kind: "unknown" } });
      const [device] = await tx
        .insert(devices)
        .values({ ...deviceValues, iconColors: withColors(defaultIconColors, iconColors), userId })
        .returning({ id: devices.id });
      await tx.insert(userDevices).values({ userId, deviceId: device!.id, groupId, timezoneId });
      // Read back after the pivot insert: its trigger has moved the device's updated_at.
      const [created] = await selectUserDevices(tx, userId, eq(devices.id, device!.id));
      return created!;
    }),
  );
  await announceChanged(db, [{ deviceId: record.id, userIds: [userId] }]);
  return record;
}

/** `work`, with the live-IMEI unique index's violation as the refusal it stands for. */
async function imeiUnique<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (uniqueViolation(err) === "devices_imei_live_unique") throw new RefusedError({ imei: { kind: "taken" } });
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

// A statement takes at most 65,535 parameters; far fewer ids per query keep each one quick.
const IDS_PER_QUERY = 10_000;

/**
 * Those of `deviceIds` that are the user's non-deleted devices, with the user's pivot
 * fields, by id: what it costs depends on the ids asked for, not on the fleet's size.
 */
export async function listUserDevicesByIds(db: Queryable, userId: number, deviceIds: readonly number[]): Promise<UserDeviceRecord[]> {
  const ids = [...new Set(deviceIds)].filter(isRowId).sort((a, b) => a - b);
  const out: UserDeviceRecord[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) out.push(...(await selectUserDevices(db, userId, inArray(devices.id, ids.slice(i, i + IDS_PER_QUERY)))));
  return out;
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

/**
 * The database's clock. A poller of `listDevicesChangedSince` reads it before each poll and
 * asks from it (minus an overlap) next time: a row that commits later carries an
 * `updatedAt` from its own transaction, which began at most the overlap before that read.
 */
export async function databaseNow(db: Queryable): Promise<Date> {
  const result = await db.execute(sql`SELECT now() AS now`);
  // Both drivers answer with `rows`; the shared Db type cannot say so.
  const [row] = (result as unknown as { rows: { now: Date | string }[] }).rows;
  return new Date(row!.now);
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

/** Device columns a user may edit; everything else (owner, deleted, expiry...) is server-owned. */
const EDITABLE_COLUMNS = [
  "name",
  "imei",
  "iconId",
  "fuelMeasurementId",
  "tailLength",
  "tailColor",
  "minMovingSpeed",
  "minFuelFillings",
  "minFuelThefts",
  "fuelQuantity",
  "fuelPrice",
  "deviceIconsType",
  "simNumber",
  "vin",
  "deviceModel",
  "plateNumber",
  "registrationNumber",
  "objectOwner",
  "additionalNotes",
  "engineHours",
  "detectEngine",
] as const satisfies readonly (keyof NewDevice)[];

type EditableColumn = (typeof EDITABLE_COLUMNS)[number];

/**
 * An `edit_device` in camelCase; an undefined field is left as it is. Colours merge into
 * the stored ones. groupId and timezoneId are the editing user's pivot settings.
 */
export type UpdateDeviceInput = Partial<Pick<NewDevice, EditableColumn>> & {
  iconColors?: Partial<IconColors>;
  /** null = ungrouped; otherwise one of the user's groups. */
  groupId?: number | null;
  timezoneId?: number | null;
};

/**
 * Locks the user's non-deleted devices among `deviceIds` (device rows, in id order, so
 * concurrent edits, toggles and deletions queue up instead of deadlocking) and returns
 * the ids found.
 */
async function lockUserDevices(tx: Tx, userId: number, deviceIds: readonly number[]): Promise<number[]> {
  const rows = await tx
    .select({ id: devices.id })
    .from(devices)
    .innerJoin(userDevices, and(eq(userDevices.deviceId, devices.id), eq(userDevices.userId, userId)))
    .where(and(inArray(devices.id, [...deviceIds]), eq(devices.deleted, false)))
    .orderBy(asc(devices.id))
    .for("update", { of: devices });
  return rows.map((r) => r.id);
}

/** `given` over `base`, colour by colour; one left undefined keeps the base's. */
function withColors(base: IconColors, given: Partial<IconColors> = {}): IconColors {
  return { ...base, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
}

function deviceColumns(input: UpdateDeviceInput, stored: IconColors): Partial<NewDevice> {
  const set: Partial<NewDevice> = {};
  for (const k of EDITABLE_COLUMNS) if (input[k] !== undefined) Object.assign(set, { [k]: input[k] });
  if (Object.values(input.iconColors ?? {}).some((c) => c !== undefined)) set.iconColors = withColors(stored, input.iconColors);
  return set;
}

/**
 * Applies an edit to one of the user's devices in one transaction (device columns, the
 * user's pivot and the group check land together or not at all), then announces the
 * device to every user who sees it: each of them sees the edited record.
 * @returns the device as the user now sees it, or undefined when the id does not exist,
 *   is deleted or is not the user's.
 * @throws RefusedError `imei` taken when another non-deleted device has the new IMEI;
 *   `groupId` unknown when it is not one of the user's groups.
 */
export async function updateDevice(db: Db, userId: number, deviceId: number, input: UpdateDeviceInput): Promise<UserDeviceRecord | undefined> {
  if (!isRowId(deviceId)) return undefined;
  const edited = await imeiUnique(
    db.transaction(async (tx) => {
      // The group is locked before the device: edit_setup deletes groups (which then updates
      // their devices' rows) in that order, and the same order cannot deadlock with it.
      const groupOk = input.groupId === undefined || input.groupId === null || (await lockOwnGroup(tx, userId, input.groupId));
      if ((await lockUserDevices(tx, userId, [deviceId])).length === 0) return undefined;
      if (!groupOk) throw new RefusedError({ groupId: { kind: "unknown" } });
      // Read under the lock, so a concurrent colour edit cannot be lost in the merge.
      const [current] = await tx.select({ iconColors: devices.iconColors }).from(devices).where(eq(devices.id, deviceId));
      const set = deviceColumns(input, current!.iconColors);
      if (Object.keys(set).length > 0) await tx.update(devices).set(set).where(eq(devices.id, deviceId));
      const pivot = { groupId: input.groupId, timezoneId: input.timezoneId };
      if (pivot.groupId !== undefined || pivot.timezoneId !== undefined) {
        await tx
          .update(userDevices)
          .set(pivot)
          .where(and(eq(userDevices.userId, userId), eq(userDevices.deviceId, deviceId)));
      }
      return { device: (await findUserDevice(tx, userId, deviceId))!, owners: await ownersOf(tx, [deviceId]) };
    }),
  );
  if (edited) await announceChanged(db, edited.owners);
  return edited?.device;
}

/**
 * Marks devices deleted (the row stays, for the history and events that name it) and drops
 * their photos: nobody can read them any more, and they are the bulk of what a device keeps.
 */
export async function softDeleteDevices(tx: Tx, deviceIds: readonly number[]): Promise<void> {
  await tx.update(devices).set({ deleted: true }).where(inArray(devices.id, [...deviceIds]));
  await tx.delete(deviceMedia).where(inArray(deviceMedia.deviceId, [...deviceIds]));
}

/**
 * Takes the device away from the user inside the caller's transaction: the user's pivot row
 * goes, and the drivers the user assigned to the device are unassigned. When no other user
 * has the device it is soft-deleted (its IMEI is free again, the tracker's cache drops it)
 * and every driver assigned to it is unassigned. The caller announces the owners once its
 * transaction commits.
 * @returns the device's owners before, and whether it was deleted; undefined when the id does
 *   not exist, is deleted or is not the user's.
 */
export async function leaveDevice(tx: Tx, userId: number, deviceId: number): Promise<{ owners: DeviceOwners[]; deleted: boolean } | undefined> {
  if (!isRowId(deviceId)) return undefined;
  // The device row's lock also serialises two owners leaving at once: the second one
  // then sees it is the last and deletes the device, rather than both leaving it orphaned.
  if ((await lockUserDevices(tx, userId, [deviceId])).length === 0) return undefined;
  const owners = await ownersOf(tx, [deviceId]);
  const deleted = owners[0]!.userIds.every((id) => id === userId);
  await tx.delete(userDevices).where(and(eq(userDevices.userId, userId), eq(userDevices.deviceId, deviceId)));
  if (deleted) await softDeleteDevices(tx, [deviceId]);
  // A deleted device keeps no driver; one that stays loses only the drivers this user assigned.
  await tx
    .update(drivers)
    .set({ deviceId: null })
    .where(and(eq(drivers.deviceId, deviceId), deleted ? undefined : eq(drivers.userId, userId)));
  return { owners, deleted };
}

/**
 * Takes one of the user's devices away from the user, in one transaction (leaveDevice), then
 * announces the change to every user who had it.
 * @returns whether the device was deleted, or undefined when the id does not exist, is
 *   deleted or is not the user's.
 */
export async function destroyDevice(db: Db, userId: number, deviceId: number): Promise<{ deleted: boolean } | undefined> {
  const gone = await db.transaction((tx) => leaveDevice(tx, userId, deviceId));
  if (!gone) return undefined;
  await announceChanged(db, gone.owners);
  return { deleted: gone.deleted };
}

/**
 * Sets the user's `active` flag on every listed device, all or nothing, and announces
 * them to every user who sees them.
 * @returns false (nothing changed) when any id does not exist, is deleted or is not the user's.
 */
export async function setDevicesActive(db: Db, userId: number, deviceIds: readonly number[], active: boolean): Promise<boolean> {
  const ids = [...new Set(deviceIds)];
  if (ids.length === 0 || !ids.every(isRowId)) return false;
  const owners = await db.transaction(async (tx) => {
    if ((await lockUserDevices(tx, userId, ids)).length !== ids.length) return undefined;
    await tx
      .update(userDevices)
      .set({ active })
      .where(and(eq(userDevices.userId, userId), inArray(userDevices.deviceId, ids)));
    return ownersOf(tx, ids);
  });
  if (owners) await announceChanged(db, owners);
  return owners !== undefined;
}

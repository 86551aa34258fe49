import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { DuplicateImeiError, UnknownDeviceGroupError, uniqueViolation } from "../errors.js";
import { deviceGroups } from "../schema/device-groups.js";
import { devices, type IconColors, type NewDevice } from "../schema/devices.js";
import { drivers } from "../schema/drivers.js";
import { userDevices } from "../schema/user-devices.js";
import { findUserDevice, type UserDeviceRecord } from "./devices.js";
import { ownersOf, type DeviceOwners } from "../device-changes.js";
import { isRowId } from "../row-id.js";

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

/** Whether the group is the user's, holding a share lock on it until the transaction ends. */
async function isOwnGroup(tx: Tx, userId: number, groupId: number): Promise<boolean> {
  const [group] = isRowId(groupId)
    ? await tx.select({ id: deviceGroups.id }).from(deviceGroups).where(and(eq(deviceGroups.id, groupId), eq(deviceGroups.userId, userId))).for("share")
    : [];
  return group !== undefined;
}

function deviceColumns(input: UpdateDeviceInput, stored: IconColors): Partial<NewDevice> {
  const set: Partial<NewDevice> = {};
  for (const k of EDITABLE_COLUMNS) if (input[k] !== undefined) Object.assign(set, { [k]: input[k] });
  const colors = Object.fromEntries(Object.entries(input.iconColors ?? {}).filter(([, v]) => v !== undefined));
  if (Object.keys(colors).length > 0) set.iconColors = { ...stored, ...colors };
  return set;
}

/**
 * Applies an edit to one of the user's devices in one transaction: device columns, the
 * user's pivot, and the group check all land or none does.
 * @returns the device as the user now sees it and its owners, or undefined when the id
 *   does not exist, is deleted or is not the user's.
 * @throws DuplicateImeiError when another non-deleted device has the new IMEI.
 * @throws UnknownDeviceGroupError when groupId is not one of the user's groups.
 */
export async function updateDevice(
  db: Db,
  userId: number,
  deviceId: number,
  input: UpdateDeviceInput,
): Promise<{ device: UserDeviceRecord; owners: DeviceOwners } | undefined> {
  if (!isRowId(deviceId)) return undefined;
  try {
    return await db.transaction(async (tx) => {
      // The group is locked before the device: edit_setup deletes groups (which then updates
      // their devices' rows) in that order, and the same order cannot deadlock with it.
      const groupOk = input.groupId === undefined || input.groupId === null || (await isOwnGroup(tx, userId, input.groupId));
      if ((await lockUserDevices(tx, userId, [deviceId])).length === 0) return undefined;
      if (!groupOk) throw new UnknownDeviceGroupError(input.groupId!);
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
      const device = (await findUserDevice(tx, userId, deviceId))!;
      const [owners] = await ownersOf(tx, [deviceId]);
      return { device, owners: owners! };
    });
  } catch (err) {
    if (uniqueViolation(err) === "devices_imei_live_unique") throw new DuplicateImeiError(input.imei ?? "");
    throw err;
  }
}

/**
 * Takes one of the user's devices away from the user, in one transaction: the user's
 * pivot row goes, and the drivers the user assigned to the device are unassigned. When
 * no other user has the device it is soft-deleted (its IMEI is free again, the tracker's
 * cache drops it) and every driver assigned to it is unassigned.
 * @returns the users who had the device and whether it was deleted, or undefined when the
 *   id does not exist, is deleted or is not the user's.
 */
export async function destroyDevice(db: Db, userId: number, deviceId: number): Promise<{ owners: DeviceOwners; deleted: boolean } | undefined> {
  if (!isRowId(deviceId)) return undefined;
  return db.transaction(async (tx) => {
    // The device row's lock also serialises two owners leaving at once: the second one
    // then sees it is the last and deletes the device, rather than both leaving it orphaned.
    if ((await lockUserDevices(tx, userId, [deviceId])).length === 0) return undefined;
    const [owners] = await ownersOf(tx, [deviceId]);
    const deleted = owners!.userIds.every((id) => id === userId);
    await tx.delete(userDevices).where(and(eq(userDevices.userId, userId), eq(userDevices.deviceId, deviceId)));
    if (deleted) {
      await tx.update(devices).set({ deleted: true }).where(eq(devices.id, deviceId));
      await tx.update(drivers).set({ deviceId: null }).where(eq(drivers.deviceId, deviceId));
    } else {
      await tx
        .update(drivers)
        .set({ deviceId: null })
        .where(and(eq(drivers.deviceId, deviceId), eq(drivers.userId, userId)));
    }
    return { owners: owners!, deleted };
  });
}

/**
 * Sets the user's `active` flag on every listed device, all or nothing.
 * @returns each device's owners, or undefined (nothing changed) when any id does not
 *   exist, is deleted or is not the user's.
 */
export async function setDevicesActive(db: Db, userId: number, deviceIds: readonly number[], active: boolean): Promise<DeviceOwners[] | undefined> {
  const ids = [...new Set(deviceIds)];
  if (ids.length === 0 || !ids.every(isRowId)) return undefined;
  return db.transaction(async (tx) => {
    if ((await lockUserDevices(tx, userId, ids)).length !== ids.length) return undefined;
    await tx
      .update(userDevices)
      .set({ active })
      .where(and(eq(userDevices.userId, userId), inArray(userDevices.deviceId, ids)));
    return ownersOf(tx, ids);
  });
}

import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { alertDevices, alerts, customEvents, type Alert, type AlertNotifications } from "../schema/alerts.js";
import { devices } from "../schema/devices.js";
import { drivers } from "../schema/drivers.js";
import { geofences } from "../schema/geofences.js";
import { userDevices } from "../schema/user-devices.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;

/** Body fields of an alert that hold ids of the user's records. */
export type AlertReferenceField = "devices" | "zones" | "geofences" | "drivers" | "events_custom";

/**
 * An alert write refused for its content: ids that are not the user's (missing and foreign
 * alike), or a rule a builder checked against the stored alert. Messages by field.
 */
export class AlertRejectedError extends Error {
  override readonly name = "AlertRejectedError";
  constructor(readonly errors: Record<string, string>) {
    super(`Alert rejected: ${Object.keys(errors).join(", ")}`);
  }
}

/** Everything add_alert and edit_alert store. */
export interface AlertValues {
  name: string;
  type: string;
  active: boolean;
  attributes: Record<string, number>;
  zone: number;
  zones: number[];
  geofences: number[];
  drivers: number[];
  eventsCustom: number[];
  schedule: boolean;
  schedules: Record<string, string[]>;
  notifications: AlertNotifications;
  devices: number[];
}

/** An alert as its owner sees it: id lists cut to records that still exist and are still the user's. */
export type UserAlert = Alert & { devices: number[]; zoneGeofences: { id: number; name: string }[] };

/** The user's records an alert can name, by id, as the *_alert_data lists show them. */
export interface AlertChoices {
  devices: { id: number; name: string }[];
  geofences: { id: number; name: string }[];
  drivers: { id: number; name: string }[];
  customEvents: { id: number; message: string }[];
}

const mine = (userId: number, id: number) => and(eq(alerts.id, id), eq(alerts.userId, userId));

const REFERENCE_LABELS: Record<AlertReferenceField, string> = { devices: "devices", zones: "zones", geofences: "geofences", drivers: "drivers", events_custom: "custom events" };

/** Which of `ids` name the user's records of that kind (non-deleted devices the user has, own geofences, drivers, custom events). */
async function ownedIds(q: Queryable, userId: number, field: AlertReferenceField, ids: readonly number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)].filter(isRowId);
  if (wanted.length === 0) return new Set();
  let rows: { id: number }[];
  if (field === "devices") {
    rows = await q
      .select({ id: userDevices.deviceId })
      .from(userDevices)
      .innerJoin(devices, eq(devices.id, userDevices.deviceId))
      .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false), inArray(userDevices.deviceId, wanted)));
  } else if (field === "drivers") {
    rows = await q.select({ id: drivers.id }).from(drivers).where(and(eq(drivers.userId, userId), inArray(drivers.id, wanted)));
  } else if (field === "events_custom") {
    rows = await q.select({ id: customEvents.id }).from(customEvents).where(and(eq(customEvents.userId, userId), inArray(customEvents.id, wanted)));
  } else {
    rows = await q.select({ id: geofences.id }).from(geofences).where(and(eq(geofences.userId, userId), inArray(geofences.id, wanted)));
  }
  return new Set(rows.map((r) => r.id));
}

/** The id lists of `values` that name anything but the user's records, as 422 messages by field. */
async function referenceErrors(q: Queryable, userId: number, lists: Partial<Record<AlertReferenceField, readonly number[]>>): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  for (const [field, ids] of Object.entries(lists) as [AlertReferenceField, readonly number[]][]) {
    const owned = await ownedIds(q, userId, field, ids);
    if (!ids.every((id) => owned.has(id))) errors[field] = `The selected ${REFERENCE_LABELS[field]} are invalid.`;
  }
  return errors;
}

function referenceLists(v: AlertValues): Record<AlertReferenceField, number[]> {
  return { devices: v.devices, zones: v.zones, geofences: v.geofences, drivers: v.drivers, events_custom: v.eventsCustom };
}

function columns(v: AlertValues) {
  return {
    name: v.name,
    type: v.type,
    active: v.active,
    attributes: v.attributes,
    zone: v.zone,
    zones: v.zones,
    geofences: v.geofences,
    drivers: v.drivers,
    eventsCustom: v.eventsCustom,
    schedule: v.schedule,
    schedules: v.schedules,
    notifications: v.notifications,
  };
}

async function writeDevices(tx: Tx, alertId: number, deviceIds: readonly number[]): Promise<void> {
  await tx.delete(alertDevices).where(eq(alertDevices.alertId, alertId));
  const unique = [...new Set(deviceIds)];
  if (unique.length > 0) await tx.insert(alertDevices).values(unique.map((deviceId) => ({ alertId, deviceId })));
}

/** The records the user's alerts can name, each list by id. */
export async function listAlertChoices(db: Queryable, userId: number): Promise<AlertChoices> {
  const [deviceRows, geofenceRows, driverRows, eventRows] = await Promise.all([
    db
      .select({ id: devices.id, name: devices.name })
      .from(userDevices)
      .innerJoin(devices, eq(devices.id, userDevices.deviceId))
      .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false)))
      .orderBy(asc(devices.id)),
    db.select({ id: geofences.id, name: geofences.name }).from(geofences).where(eq(geofences.userId, userId)).orderBy(asc(geofences.id)),
    db.select({ id: drivers.id, name: drivers.name }).from(drivers).where(eq(drivers.userId, userId)).orderBy(asc(drivers.id)),
    db.select({ id: customEvents.id, message: customEvents.message }).from(customEvents).where(eq(customEvents.userId, userId)).orderBy(asc(customEvents.id)),
  ]);
  return { devices: deviceRows, geofences: geofenceRows, drivers: driverRows, customEvents: eventRows };
}

/** `rows` as their owner sees them, given the owner's choices. */
async function view(db: Queryable, rows: Alert[], choices: AlertChoices): Promise<UserAlert[]> {
  if (rows.length === 0) return [];
  const alertIds = rows.map((r) => r.id);
  const deviceRows = await db.select().from(alertDevices).where(inArray(alertDevices.alertId, alertIds)).orderBy(asc(alertDevices.alertId), asc(alertDevices.deviceId));
  const ownDevices = new Set(choices.devices.map((d) => d.id));
  const geofenceNames = new Map(choices.geofences.map((g) => [g.id, g.name]));
  const ownDrivers = new Set(choices.drivers.map((d) => d.id));
  const ownEvents = new Set(choices.customEvents.map((e) => e.id));
  return rows.map((alert) => ({
    ...alert,
    geofences: alert.geofences.filter((id) => geofenceNames.has(id)),
    drivers: alert.drivers.filter((id) => ownDrivers.has(id)),
    eventsCustom: alert.eventsCustom.filter((id) => ownEvents.has(id)),
    zones: alert.zones.filter((id) => geofenceNames.has(id)),
    zoneGeofences: alert.zones.filter((id) => geofenceNames.has(id)).map((id) => ({ id, name: geofenceNames.get(id)! })),
    devices: deviceRows.filter((r) => r.alertId === alert.id && ownDevices.has(r.deviceId)).map((r) => r.deviceId),
  }));
}

/** The user's alerts by id. */
export async function listUserAlerts(db: Db, userId: number, choices?: AlertChoices): Promise<UserAlert[]> {
  const rows = await db.select().from(alerts).where(eq(alerts.userId, userId)).orderBy(asc(alerts.id));
  return view(db, rows, choices ?? (await listAlertChoices(db, userId)));
}

/** The user's alert, or undefined when it does not exist or is another user's (callers answer both alike). */
export async function findUserAlert(db: Db, userId: number, alertId: number, choices?: AlertChoices): Promise<UserAlert | undefined> {
  if (!isRowId(alertId)) return undefined;
  const rows = await db.select().from(alerts).where(mine(userId, alertId));
  if (rows.length === 0) return undefined;
  const [found] = await view(db, rows, choices ?? (await listAlertChoices(db, userId)));
  return found;
}

/**
 * Inserts the alert and its devices in one transaction; returns its id.
 * @throws AlertRejectedError when an id list names anything but the user's records.
 */
export async function createAlert(db: Db, userId: number, values: AlertValues): Promise<number> {
  return db.transaction(async (tx) => {
    const errors = await referenceErrors(tx, userId, referenceLists(values));
    if (Object.keys(errors).length > 0) throw new AlertRejectedError(errors);
    const [row] = await tx
      .insert(alerts)
      .values({ ...columns(values), userId })
      .returning({ id: alerts.id });
    await writeDevices(tx, row!.id, values.devices);
    return row!.id;
  });
}

/**
 * Rewrites the user's alert with what `build` makes of the stored one (locked meanwhile;
 * its id lists already cut to the user's current records, so a kept list holds no stale
 * ids), in one transaction. False when the alert does not exist or is another user's.
 * @throws AlertRejectedError from `build`, or when an id list names anything but the user's records.
 */
export async function updateAlert(db: Db, userId: number, alertId: number, build: (stored: Alert) => AlertValues): Promise<boolean> {
  if (!isRowId(alertId)) return false;
  return db.transaction(async (tx) => {
    const [stored] = await tx.select().from(alerts).where(mine(userId, alertId)).for("update");
    if (!stored) return false;
    const kept = async (field: AlertReferenceField, ids: number[]) => {
      const owned = await ownedIds(tx, userId, field, ids);
      return ids.filter((id) => owned.has(id));
    };
    const current: Alert = {
      ...stored,
      zones: await kept("zones", stored.zones),
      geofences: await kept("geofences", stored.geofences),
      drivers: await kept("drivers", stored.drivers),
      eventsCustom: await kept("events_custom", stored.eventsCustom),
    };
    const values = build(current);
    const errors = await referenceErrors(tx, userId, referenceLists(values));
    if (Object.keys(errors).length > 0) throw new AlertRejectedError(errors);
    await tx
      .update(alerts)
      .set({ ...columns(values), updatedAt: new Date() })
      .where(mine(userId, alertId));
    await writeDevices(tx, alertId, values.devices);
    return true;
  });
}

/** Deletes the user's alert (its device rows go by the foreign key); false when not found. */
export async function destroyAlert(db: Db, userId: number, alertId: number): Promise<boolean> {
  if (!isRowId(alertId)) return false;
  const gone = await db.delete(alerts).where(mine(userId, alertId)).returning({ id: alerts.id });
  return gone.length > 0;
}

/**
 * Sets `active` on all of `alertIds` or on none: false, with nothing changed, when any of
 * them is not the user's alert. Alerts already in that state keep their updated_at.
 */
export async function setAlertsActive(db: Db, userId: number, alertIds: readonly number[], active: boolean): Promise<boolean> {
  const ids = [...new Set(alertIds)];
  if (!ids.every(isRowId)) return false;
  return db.transaction(async (tx) => {
    const found = await tx
      .select({ id: alerts.id })
      .from(alerts)
      .where(and(eq(alerts.userId, userId), inArray(alerts.id, ids)))
      .for("update");
    if (found.length !== ids.length) return false;
    await tx
      .update(alerts)
      .set({ active, updatedAt: new Date() })
      .where(and(eq(alerts.userId, userId), inArray(alerts.id, ids), ne(alerts.active, active)));
    return true;
  });
}

/**
 * Replaces the devices of the user's alert, in one transaction; false when the alert is not
 * the user's. The same set again changes nothing, updated_at included.
 * @throws AlertRejectedError when a device is not one of the user's non-deleted devices.
 */
export async function setAlertDevices(db: Db, userId: number, alertId: number, deviceIds: readonly number[]): Promise<boolean> {
  if (!isRowId(alertId)) return false;
  return db.transaction(async (tx) => {
    const [stored] = await tx.select({ id: alerts.id }).from(alerts).where(mine(userId, alertId)).for("update");
    if (!stored) return false;
    const errors = await referenceErrors(tx, userId, { devices: deviceIds });
    if (Object.keys(errors).length > 0) throw new AlertRejectedError(errors);
    const wanted = [...new Set(deviceIds)].sort((a, b) => a - b);
    const current = (await tx.select({ id: alertDevices.deviceId }).from(alertDevices).where(eq(alertDevices.alertId, alertId)).orderBy(asc(alertDevices.deviceId))).map((r) => r.id);
    if (current.length === wanted.length && current.every((id, i) => id === wanted[i])) return true;
    await writeDevices(tx, alertId, wanted);
    await tx.update(alerts).set({ updatedAt: new Date() }).where(mine(userId, alertId));
    return true;
  });
}

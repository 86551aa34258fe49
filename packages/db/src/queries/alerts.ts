import { and, asc, eq, inArray, ne, notInArray } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { assertNotRefused, type Refusal } from "../errors.js";
import { ownedRows } from "../owned.js";
import { alertDevices, alerts, customEvents, type Alert, type AlertNotifications } from "../schema/alerts.js";
import { devices } from "../schema/devices.js";
import { drivers } from "../schema/drivers.js";
import { geofences, userMapIcons } from "../schema/geofences.js";
import { userDevices } from "../schema/user-devices.js";
import { isRowId } from "../row-id.js";

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
  pois: number[];
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
  pois: { id: number; name: string }[];
}

const owned = ownedRows(alerts);

/** The id lists of an alert that name the user's records. */
type ReferenceList = "devices" | "zones" | "geofences" | "drivers" | "eventsCustom" | "pois";

const byUser = (table: typeof geofences | typeof drivers | typeof customEvents | typeof userMapIcons, userId: number, ids: number[]) => and(eq(table.userId, userId), inArray(table.id, ids));

/** Which of `ids` name the user's records of that list's kind (non-deleted devices the user has, own geofences, drivers, custom events, points of interest). */
async function ownedIds(q: Queryable, userId: number, list: ReferenceList, ids: readonly number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)].filter(isRowId);
  if (wanted.length === 0) return new Set();
  let rows: { id: number }[];
  if (list === "devices") {
    rows = await q
      .select({ id: userDevices.deviceId })
      .from(userDevices)
      .innerJoin(devices, eq(devices.id, userDevices.deviceId))
      .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false), inArray(userDevices.deviceId, wanted)));
  } else {
    const table = list === "drivers" ? drivers : list === "eventsCustom" ? customEvents : list === "pois" ? userMapIcons : geofences;
    rows = await q.select({ id: table.id }).from(table).where(byUser(table, userId, wanted));
  }
  return new Set(rows.map((r) => r.id));
}

/** Refuses the lists that name anything but the user's records. */
async function assertOwnReferences(q: Queryable, userId: number, lists: Partial<Record<ReferenceList, readonly number[]>>): Promise<void> {
  const refusals: Record<string, Refusal> = {};
  for (const [list, ids] of Object.entries(lists) as [ReferenceList, readonly number[]][]) {
    const mine = await ownedIds(q, userId, list, ids);
    if (!ids.every((id) => mine.has(id))) refusals[list] = { kind: "unknown", many: true };
  }
  assertNotRefused(refusals);
}

const referenceLists = ({ devices, zones, geofences, drivers, eventsCustom, pois }: AlertValues) => ({ devices, zones, geofences, drivers, eventsCustom, pois });

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
    pois: v.pois,
    schedule: v.schedule,
    schedules: v.schedules,
    notifications: v.notifications,
  };
}

/**
 * Makes `deviceIds` the alert's devices. Devices that stay keep their rows, and with them the
 * time period set for them (time_period), so an edit of the alert does not undo it.
 */
async function writeDevices(tx: Tx, alertId: number, deviceIds: readonly number[]): Promise<void> {
  const unique = [...new Set(deviceIds)];
  await tx.delete(alertDevices).where(and(eq(alertDevices.alertId, alertId), unique.length > 0 ? notInArray(alertDevices.deviceId, unique) : undefined));
  if (unique.length > 0) await tx.insert(alertDevices).values(unique.map((deviceId) => ({ alertId, deviceId }))).onConflictDoNothing();
}

/** The records the user's alerts can name, each list by id. */
export async function listAlertChoices(db: Queryable, userId: number): Promise<AlertChoices> {
  const [deviceRows, geofenceRows, driverRows, eventRows, poiRows] = await Promise.all([
    db
      .select({ id: devices.id, name: devices.name })
      .from(userDevices)
      .innerJoin(devices, eq(devices.id, userDevices.deviceId))
      .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false)))
      .orderBy(asc(devices.id)),
    db.select({ id: geofences.id, name: geofences.name }).from(geofences).where(eq(geofences.userId, userId)).orderBy(asc(geofences.id)),
    db.select({ id: drivers.id, name: drivers.name }).from(drivers).where(eq(drivers.userId, userId)).orderBy(asc(drivers.id)),
    db.select({ id: customEvents.id, message: customEvents.message }).from(customEvents).where(eq(customEvents.userId, userId)).orderBy(asc(customEvents.id)),
    db.select({ id: userMapIcons.id, name: userMapIcons.name }).from(userMapIcons).where(eq(userMapIcons.userId, userId)).orderBy(asc(userMapIcons.id)),
  ]);
  return { devices: deviceRows, geofences: geofenceRows, drivers: driverRows, customEvents: eventRows, pois: poiRows };
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
  const ownPois = new Set(choices.pois.map((p) => p.id));
  return rows.map((alert) => ({
    ...alert,
    geofences: alert.geofences.filter((id) => geofenceNames.has(id)),
    drivers: alert.drivers.filter((id) => ownDrivers.has(id)),
    eventsCustom: alert.eventsCustom.filter((id) => ownEvents.has(id)),
    pois: alert.pois.filter((id) => ownPois.has(id)),
    zones: alert.zones.filter((id) => geofenceNames.has(id)),
    zoneGeofences: alert.zones.filter((id) => geofenceNames.has(id)).map((id) => ({ id, name: geofenceNames.get(id)! })),
    devices: deviceRows.filter((r) => r.alertId === alert.id && ownDevices.has(r.deviceId)).map((r) => r.deviceId),
  }));
}

/** The user's alerts by id. */
export async function listUserAlerts(db: Queryable, userId: number, choices?: AlertChoices): Promise<UserAlert[]> {
  return view(db, await owned.list(db, userId), choices ?? (await listAlertChoices(db, userId)));
}

/** The user's alert, or undefined when it does not exist or is another user's (callers answer both alike). */
export async function findUserAlert(db: Queryable, userId: number, alertId: number, choices?: AlertChoices): Promise<UserAlert | undefined> {
  const row = await owned.find(db, userId, alertId);
  if (!row) return undefined;
  const [found] = await view(db, [row], choices ?? (await listAlertChoices(db, userId)));
  return found;
}

/** The user's alert, locked for the rest of the transaction; undefined when it is not the user's. */
async function lockAlert(tx: Tx, userId: number, alertId: number): Promise<Alert | undefined> {
  if (!isRowId(alertId)) return undefined;
  const [row] = await tx.select().from(alerts).where(owned.mine(userId, alertId)).for("update");
  return row;
}

/**
 * Inserts the alert and its devices in one transaction; returns its id.
 * @throws RefusedError (devices, zones, geofences, drivers, eventsCustom, pois: unknown) when an id list names anything but the user's records.
 */
export async function createAlert(db: Db, userId: number, values: AlertValues): Promise<number> {
  return db.transaction(async (tx) => {
    await assertOwnReferences(tx, userId, referenceLists(values));
    const { id } = await owned.create(tx, userId, columns(values));
    await writeDevices(tx, id, values.devices);
    return id;
  });
}

/**
 * Rewrites the user's alert with what `build` makes of the stored one (locked meanwhile;
 * its id lists already cut to the user's current records, so a kept list holds no stale
 * ids), in one transaction. False when the alert does not exist or is another user's.
 * Whatever `build` throws rolls the transaction back and propagates.
 * @throws RefusedError (as createAlert's) when an id list names anything but the user's records.
 */
export async function updateAlert(db: Db, userId: number, alertId: number, build: (stored: Alert) => AlertValues): Promise<boolean> {
  return db.transaction(async (tx) => {
    const stored = await lockAlert(tx, userId, alertId);
    if (!stored) return false;
    const kept = async (list: ReferenceList, ids: number[]) => {
      const mine = await ownedIds(tx, userId, list, ids);
      return ids.filter((id) => mine.has(id));
    };
    const current: Alert = {
      ...stored,
      zones: await kept("zones", stored.zones),
      geofences: await kept("geofences", stored.geofences),
      drivers: await kept("drivers", stored.drivers),
      eventsCustom: await kept("eventsCustom", stored.eventsCustom),
      pois: await kept("pois", stored.pois),
    };
    const values = build(current);
    await assertOwnReferences(tx, userId, referenceLists(values));
    await owned.update(tx, userId, alertId, columns(values));
    await writeDevices(tx, alertId, values.devices);
    return true;
  });
}

/** Deletes the user's alert (its device rows go by the foreign key); false when not found. */
export const destroyAlert = (db: Queryable, userId: number, alertId: number): Promise<boolean> => owned.destroy(db, userId, alertId);

/**
 * Sets `active` on all of `alertIds` or on none: false, with nothing changed, when any of
 * them is not the user's alert. Unlike ownedRows' setActive, alerts already in that state
 * are not written, so they keep their updated_at.
 */
export async function setAlertsActive(db: Db, userId: number, alertIds: readonly number[], active: boolean): Promise<boolean> {
  const ids = [...new Set(alertIds)];
  if (!ids.every(isRowId)) return false;
  const these = and(eq(alerts.userId, userId), inArray(alerts.id, ids));
  return db.transaction(async (tx) => {
    const found = await tx.select({ id: alerts.id }).from(alerts).where(these).orderBy(asc(alerts.id)).for("update");
    if (found.length !== ids.length) return false;
    await tx.update(alerts).set({ active }).where(and(these, ne(alerts.active, active)));
    return true;
  });
}

/**
 * Replaces the devices of the user's alert, in one transaction; false when the alert is not
 * the user's. The same set again changes nothing, updated_at included.
 * @throws RefusedError `{devices: unknown}` when a device is not one of the user's non-deleted devices.
 */
export async function setAlertDevices(db: Db, userId: number, alertId: number, deviceIds: readonly number[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await lockAlert(tx, userId, alertId))) return false;
    await assertOwnReferences(tx, userId, { devices: deviceIds });
    const wanted = [...new Set(deviceIds)].sort((a, b) => a - b);
    const current = (await tx.select({ id: alertDevices.deviceId }).from(alertDevices).where(eq(alertDevices.alertId, alertId)).orderBy(asc(alertDevices.deviceId))).map((r) => r.id);
    if (current.length === wanted.length && current.every((id, i) => id === wanted[i])) return true;
    await writeDevices(tx, alertId, wanted);
    // The devices are part of the alert: its updated_at moves with them.
    await tx.update(alerts).set({ updatedAt: new Date() }).where(owned.mine(userId, alertId));
    return true;
  });
}

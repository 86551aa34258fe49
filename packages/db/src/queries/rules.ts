import { and, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../client.js";
import { alertDevices, alerts, customEvents, type Alert, type CustomEvent } from "../schema/alerts.js";
import { devices, type Device } from "../schema/devices.js";
import { drivers, type Driver } from "../schema/drivers.js";
import { geofences, type Geofence } from "../schema/geofences.js";
import { sensors, type Sensor } from "../schema/sensors.js";
import { userDevices } from "../schema/user-devices.js";
import { users, type User } from "../schema/users.js";
import type { AlertPeriod } from "./device-alerts.js";
import { isUserUsable } from "./users.js";

/*
 * What the rules service checks positions of some devices against, read in a handful of
 * queries whatever the number of devices: the active alerts watching them (of users who still
 * see the device and may sign in), those users, the geofences and custom events the alerts
 * name, the users' drivers (driver alerts match cards), and the devices with their sensors.
 */

/**
 * An active alert watching one of the devices, with the period in which it applies to that
 * device (set by time_period): positions from `activeFrom` (inclusive) until `activeTo`
 * (exclusive) count; null is no bound on that side.
 */
export type WatchingAlert = Alert & AlertPeriod & { deviceId: number };

export interface RuleRecords {
  devices: Device[];
  sensors: Sensor[];
  alerts: WatchingAlert[];
  users: User[];
  /** The active geofences the alerts name (as geofences or zones), of the alerts' users. */
  geofences: Geofence[];
  customEvents: CustomEvent[];
  /** The drivers of users with a driver alert. */
  drivers: Driver[];
}

const EMPTY: RuleRecords = { devices: [], sensors: [], alerts: [], users: [], geofences: [], customEvents: [], drivers: [] };

export async function loadRuleRecords(q: Queryable, deviceIds: readonly number[]): Promise<RuleRecords> {
  const ids = [...new Set(deviceIds)];
  if (ids.length === 0) return EMPTY;
  const watching = await q
    .select({ alert: alerts, deviceId: alertDevices.deviceId, activeFrom: alertDevices.activeFrom, activeTo: alertDevices.activeTo })
    .from(alertDevices)
    .innerJoin(alerts, eq(alerts.id, alertDevices.alertId))
    // The alert's owner must still see the device: an unshared device keeps its alert_devices rows.
    .innerJoin(userDevices, and(eq(userDevices.userId, alerts.userId), eq(userDevices.deviceId, alertDevices.deviceId)))
    .where(and(inArray(alertDevices.deviceId, ids), eq(alerts.active, true)));
  if (watching.length === 0) return { ...EMPTY };

  const userIds = [...new Set(watching.map((w) => w.alert.userId))];
  const [owners, deviceRows, sensorRows] = await Promise.all([
    q.select().from(users).where(inArray(users.id, userIds)),
    q.select().from(devices).where(and(inArray(devices.id, ids), eq(devices.deleted, false))),
    q.select().from(sensors).where(inArray(sensors.deviceId, ids)),
  ]);
  const usable = new Set(owners.filter((u) => isUserUsable(u)).map((u) => u.id));
  const live = new Set(deviceRows.map((d) => d.id));
  const alertRows = watching.filter((w) => usable.has(w.alert.userId) && live.has(w.deviceId)).map((w) => ({ ...w.alert, deviceId: w.deviceId, activeFrom: w.activeFrom, activeTo: w.activeTo }));

  const geofenceIds = new Set(alertRows.flatMap((a) => [...a.geofences, ...a.zones]));
  const customIds = new Set(alertRows.flatMap((a) => a.eventsCustom));
  const driverUsers = [...new Set(alertRows.filter((a) => a.type === "driver").map((a) => a.userId))];
  const [geofenceRows, customRows, driverRows] = await Promise.all([
    geofenceIds.size === 0 ? [] : q.select().from(geofences).where(and(inArray(geofences.id, [...geofenceIds]), eq(geofences.active, true))),
    customIds.size === 0 ? [] : q.select().from(customEvents).where(inArray(customEvents.id, [...customIds])),
    driverUsers.length === 0 ? [] : q.select().from(drivers).where(inArray(drivers.userId, driverUsers)),
  ]);
  return {
    devices: deviceRows,
    sensors: sensorRows,
    alerts: alertRows,
    users: owners.filter((u) => usable.has(u.id)),
    geofences: geofenceRows,
    customEvents: customRows,
    drivers: driverRows,
  };
}

/**
 * The devices some active alert of these types watches (for its owner, who still sees the
 * device): what the rules service sweeps for alerts a silent device must fire (offline, a
 * stop that outlasts the device's last position).
 */
export async function listDevicesWatchedBy(q: Queryable, types: readonly string[]): Promise<number[]> {
  if (types.length === 0) return [];
  const rows = await q
    .selectDistinct({ deviceId: alertDevices.deviceId })
    .from(alertDevices)
    .innerJoin(alerts, eq(alerts.id, alertDevices.alertId))
    .innerJoin(userDevices, and(eq(userDevices.userId, alerts.userId), eq(userDevices.deviceId, alertDevices.deviceId)))
    .where(and(eq(alerts.active, true), inArray(alerts.type, [...types])));
  return rows.map((r) => r.deviceId).sort((a, b) => a - b);
}

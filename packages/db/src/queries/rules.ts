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
 * An active alert watching one of the devices, and the period in which it applies to that
 * device (set by time_period): positions from `activeFrom` (inclusive) until `activeTo`
 * (exclusive) count; null is no bound on that side.
 */
export type AlertWatch = AlertPeriod & { alertId: number; deviceId: number };

export interface RuleRecords {
  devices: Device[];
  sensors: Sensor[];
  /** The active alerts watching the devices, each once however many of the devices it watches. */
  alerts: Alert[];
  /** Which of the devices each alert watches, and when. */
  watches: AlertWatch[];
  users: User[];
  /** The active geofences the alerts name (as geofences or zones), of the alerts' users. */
  geofences: Geofence[];
  customEvents: CustomEvent[];
  /** The drivers of users with a driver alert. */
  drivers: Driver[];
}

const EMPTY: RuleRecords = { devices: [], sensors: [], alerts: [], watches: [], users: [], geofences: [], customEvents: [], drivers: [] };

export async function loadRuleRecords(q: Queryable, deviceIds: readonly number[]): Promise<RuleRecords> {
  const ids = [...new Set(deviceIds)];
  if (ids.length === 0) return EMPTY;
  // The pairs first, the alerts' rows once each after: an alert watching a hundred devices is one row, not a hundred.
  const pairs = await q
    .select({ alertId: alertDevices.alertId, userId: alerts.userId, deviceId: alertDevices.deviceId, activeFrom: alertDevices.activeFrom, activeTo: alertDevices.activeTo })
    .from(alertDevices)
    .innerJoin(alerts, eq(alerts.id, alertDevices.alertId))
    // The alert's owner must still see the device: an unshared device keeps its alert_devices rows.
    .innerJoin(userDevices, and(eq(userDevices.userId, alerts.userId), eq(userDevices.deviceId, alertDevices.deviceId)))
    .where(and(inArray(alertDevices.deviceId, ids), eq(alerts.active, true)));
  if (pairs.length === 0) return { ...EMPTY };

  const userIds = [...new Set(pairs.map((w) => w.userId))];
  const alertIds = [...new Set(pairs.map((w) => w.alertId))];
  const [owners, deviceRows, sensorRows, alertRows] = await Promise.all([
    q.select().from(users).where(inArray(users.id, userIds)),
    q.select().from(devices).where(and(inArray(devices.id, ids), eq(devices.deleted, false))),
    q.select().from(sensors).where(inArray(sensors.deviceId, ids)),
    q.select().from(alerts).where(and(inArray(alerts.id, alertIds), eq(alerts.active, true))),
  ]);
  const usable = new Set(owners.filter((u) => isUserUsable(u)).map((u) => u.id));
  const live = new Set(deviceRows.map((d) => d.id));
  const watching = alertRows.filter((a) => usable.has(a.userId));
  const kept = new Set(watching.map((a) => a.id));
  const watches = pairs.filter((w) => kept.has(w.alertId) && live.has(w.deviceId)).map(({ alertId, deviceId, activeFrom, activeTo }) => ({ alertId, deviceId, activeFrom, activeTo }));

  const geofenceIds = new Set(watching.flatMap((a) => [...a.geofences, ...a.zones]));
  const customIds = new Set(watching.flatMap((a) => a.eventsCustom));
  const driverUsers = [...new Set(watching.filter((a) => a.type === "driver").map((a) => a.userId))];
  const [geofenceRows, customRows, driverRows] = await Promise.all([
    geofenceIds.size === 0 ? [] : q.select().from(geofences).where(and(inArray(geofences.id, [...geofenceIds]), eq(geofences.active, true))),
    customIds.size === 0 ? [] : q.select().from(customEvents).where(inArray(customEvents.id, [...customIds])),
    driverUsers.length === 0 ? [] : q.select().from(drivers).where(inArray(drivers.userId, driverUsers)),
  ]);
  return {
    devices: deviceRows,
    sensors: sensorRows,
    alerts: watching,
    watches,
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

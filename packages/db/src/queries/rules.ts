import { and, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { Queryable } from "../client.js";
import { alertDevices, alerts, customEvents, type Alert, type CustomEvent } from "../schema/alerts.js";
import { devices, type Device } from "../schema/devices.js";
import { drivers, type Driver } from "../schema/drivers.js";
import { geofences, userMapIcons, type Geofence, type UserMapIcon } from "../schema/geofences.js";
import { sensors, type Sensor } from "../schema/sensors.js";
import { userDevices } from "../schema/user-devices.js";
import { users, type User } from "../schema/users.js";
import type { AlertPeriod } from "./device-alerts.js";
import { isUserUsable } from "./users.js";

/*
 * What the rules service checks positions against, in two parts it caches apart: per device,
 * the active alerts watching it (of users who still see it) and its sensors; per user, the
 * user's settings, active alerts and the geofences, custom events, drivers and points of
 * interest they name. A
 * fleet's alerts usually watch all its devices, so a user's records are read once for the
 * whole fleet rather than once per batch of its devices.
 */

/**
 * An active alert watching a device, and the period in which it applies to that device (set
 * by time_period): positions from `activeFrom` (inclusive) until `activeTo` (exclusive) count;
 * null is no bound on that side.
 */
export type AlertWatch = AlertPeriod & {
  alertId: number;
  userId: number;
  deviceId: number;
  /** The group the alert's owner files the device in (null: none); absent where not read. */
  groupId?: number | null;
};

export interface DeviceRuleRecords {
  /** The non-deleted devices among those asked for that some alert watches. */
  devices: Device[];
  sensors: Sensor[];
  watches: AlertWatch[];
}

export async function loadDeviceRuleRecords(q: Queryable, deviceIds: readonly number[]): Promise<DeviceRuleRecords> {
  const ids = [...new Set(deviceIds)];
  if (ids.length === 0) return { devices: [], sensors: [], watches: [] };
  const watches = await q
    .select({ alertId: alertDevices.alertId, userId: alerts.userId, deviceId: alertDevices.deviceId, activeFrom: alertDevices.activeFrom, activeTo: alertDevices.activeTo, groupId: userDevices.groupId })
    .from(alertDevices)
    .innerJoin(alerts, eq(alerts.id, alertDevices.alertId))
    // The alert's owner must still see the device: an unshared device keeps its alert_devices rows.
    .innerJoin(userDevices, and(eq(userDevices.userId, alerts.userId), eq(userDevices.deviceId, alertDevices.deviceId)))
    .where(and(inArray(alertDevices.deviceId, ids), eq(alerts.active, true)));
  if (watches.length === 0) return { devices: [], sensors: [], watches: [] };
  const watched = [...new Set(watches.map((w) => w.deviceId))];
  const [deviceRows, sensorRows] = await Promise.all([
    q.select().from(devices).where(and(inArray(devices.id, watched), eq(devices.deleted, false))),
    q.select().from(sensors).where(inArray(sensors.deviceId, watched)),
  ]);
  const live = new Set(deviceRows.map((d) => d.id));
  return { devices: deviceRows, sensors: sensorRows.filter((s) => live.has(s.deviceId)), watches: watches.filter((w) => live.has(w.deviceId)) };
}

export interface UserRuleRecords {
  /** The users asked for who may sign in (an expired or deactivated user's alerts fire nothing). */
  users: User[];
  /** Their active alerts. */
  alerts: Alert[];
  /**
   * The active geofences the alerts name (as geofences or zones), of the alerts' users, and
   * the active geofences with a speed limit of users with an overspeed alert.
   */
  geofences: Geofence[];
  customEvents: CustomEvent[];
  /** The drivers of users with a driver or driver_unauthorized alert. */
  drivers: Driver[];
  /** The active points of interest the alerts name. */
  pois: UserMapIcon[];
  /** The names of the inactive geofences the alerts name: a device inside one when it is turned off leaves it, and the event names it. */
  geofenceNames: { id: number; userId: number; name: string }[];
}

export async function loadUserRuleRecords(q: Queryable, userIds: readonly number[]): Promise<UserRuleRecords> {
  const ids = [...new Set(userIds)];
  const none: UserRuleRecords = { users: [], alerts: [], geofences: [], customEvents: [], drivers: [], pois: [], geofenceNames: [] };
  if (ids.length === 0) return none;
  const owners = (await q.select().from(users).where(inArray(users.id, ids))).filter((u) => isUserUsable(u));
  if (owners.length === 0) return none;
  const usable = owners.map((u) => u.id);
  const alertRows = await q.select().from(alerts).where(and(inArray(alerts.userId, usable), eq(alerts.active, true)));
  const geofenceIds = new Set(alertRows.flatMap((a) => [...a.geofences, ...a.zones]));
  const speedUsers = [...new Set(alertRows.filter((a) => a.type === "overspeed").map((a) => a.userId))];
  const customIds = new Set(alertRows.flatMap((a) => a.eventsCustom));
  const driverUsers = [...new Set(alertRows.filter((a) => a.type === "driver" || a.type === "driver_unauthorized").map((a) => a.userId))];
  const poiIds = new Set(alertRows.flatMap((a) => a.pois));
  const [geofenceRows, customRows, driverRows, poiRows, nameRows] = await Promise.all([
    geofenceIds.size === 0 && speedUsers.length === 0
      ? []
      : q
          .select()
          .from(geofences)
          .where(
            and(
              eq(geofences.active, true),
              or(
                geofenceIds.size === 0 ? undefined : inArray(geofences.id, [...geofenceIds]),
                speedUsers.length === 0 ? undefined : and(inArray(geofences.userId, speedUsers), isNotNull(geofences.speedLimit)),
              ),
            ),
          ),
    customIds.size === 0 ? [] : q.select().from(customEvents).where(inArray(customEvents.id, [...customIds])),
    driverUsers.length === 0 ? [] : q.select().from(drivers).where(inArray(drivers.userId, driverUsers)),
    poiIds.size === 0 ? [] : q.select().from(userMapIcons).where(and(inArray(userMapIcons.id, [...poiIds]), eq(userMapIcons.active, true))),
    geofenceIds.size === 0
      ? []
      : q.select({ id: geofences.id, userId: geofences.userId, name: geofences.name }).from(geofences).where(and(inArray(geofences.id, [...geofenceIds]), eq(geofences.active, false))),
  ]);
  return { users: owners, alerts: alertRows, geofences: geofenceRows, customEvents: customRows, drivers: driverRows, pois: poiRows, geofenceNames: nameRows };
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

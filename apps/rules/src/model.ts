import { alertType, attributeKey, userClock, userUnits, type AlertTypeName, type UserClock, type UserUnits } from "@fleet/contracts";
import type { Alert, AlertNotifications, AlertWatch, CustomEventCondition, RuleRecords, Sensor } from "@fleet/db";
import { GeofenceIndex, type GeofenceShape } from "@fleet/geo";
import type { SensorDefinition } from "@fleet/sensors";

/*
 * The rule book's records, as detectors read them: built once per device from what
 * @fleet/db's loadRuleRecords read, then kept until a rules.changed notice drops them.
 */

/** The owner of an alert: whose clock its schedule follows and whose units its messages use. */
export interface RuleUser {
  id: number;
  clock: UserClock;
  units: UserUnits;
  lang: string;
}

export interface RuleGeofence {
  id: number;
  name: string;
  shape: GeofenceShape;
}

export interface RuleCustomEvent {
  id: number;
  protocol: string;
  /** Attribute keys as ingest stores them (attributeKey of each tag). */
  conditions: readonly CustomEventCondition[];
  message: string;
  always: boolean;
}

export interface RuleAlert {
  id: number;
  userId: number;
  name: string;
  type: AlertTypeName;
  /** The type's scalar attributes (overspeed, stop_duration, distance, ...), by name. */
  attributes: Readonly<Record<string, number>>;
  /** 0 anywhere; 1 only inside one of `zones`; 2 only outside all of them. */
  zone: 0 | 1 | 2;
  zones: readonly number[];
  geofences: readonly number[];
  drivers: readonly number[];
  customEvents: readonly number[];
  /** Weekday → active "HH:MM" quarter-hour slots on the owner's clock; null when it always applies. */
  schedule: Readonly<Record<string, readonly string[]>> | null;
  /** The period it applies in on this device (time_period): from inclusive, to exclusive, epoch ms; null is no bound. */
  period: { fromMs: number | null; toMs: number | null };
  notifications: AlertNotifications;
}

/** A driver of an alert's owner, by the card that names them. */
export interface RuleDriver {
  id: number;
  name: string;
  /** Trimmed, lower-cased (as rfidOf reads cards); "" for a driver without a card. */
  rfid: string;
}

/** Everything a device's positions are checked against. */
export interface DeviceRules {
  deviceId: number;
  name: string;
  alerts: readonly RuleAlert[];
  users: ReadonlyMap<number, RuleUser>;
  geofences: ReadonlyMap<number, RuleGeofence>;
  /** Per owner, an index of the geofences that owner's alerts name: one box search per position and owner. */
  geofenceIndex: ReadonlyMap<number, GeofenceIndex>;
  customEvents: ReadonlyMap<number, RuleCustomEvent>;
  drivers: ReadonlyMap<number, readonly RuleDriver[]>;
  /** The device's fuel level sensor, for fuel_change. */
  fuelSensor: SensorDefinition | undefined;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const isFuelLevel = (s: Sensor) => s.type === "fuel_tank" || s.type === "fuel_tank_calibration";

function ruleAlert(a: Alert, watch: AlertWatch): RuleAlert {
  const declared = new Set((alertType(a.type)?.attributes ?? []).map((d) => d.name));
  const attributes = Object.fromEntries(Object.entries(a.attributes).filter(([k, v]) => declared.has(k) && typeof v === "number")) as Record<string, number>;
  return {
    id: a.id,
    userId: a.userId,
    name: a.name,
    type: a.type as AlertTypeName,
    attributes,
    zone: a.zone === 1 || a.zone === 2 ? a.zone : 0,
    zones: a.zones,
    geofences: a.geofences,
    drivers: a.drivers,
    customEvents: a.eventsCustom,
    schedule: a.schedule ? a.schedules : null,
    period: { fromMs: watch.activeFrom?.getTime() ?? null, toMs: watch.activeTo?.getTime() ?? null },
    notifications: a.notifications,
  };
}

/** What the devices watched by the same alerts share: the records those alerts name, and each owner's geofence index. */
type Named = Pick<DeviceRules, "geofences" | "geofenceIndex" | "customEvents">;

function namedBy(alerts: readonly RuleAlert[], records: RuleRecords): Named {
  // A referenced record counts only while it is its alert owner's.
  const geofenceRows = new Map(records.geofences.map((g) => [g.id, g]));
  const customRows = new Map(records.customEvents.map((c) => [c.id, c]));
  const geofences = new Map<number, RuleGeofence>();
  const customEvents = new Map<number, RuleCustomEvent>();
  const byOwner = new Map<number, Set<number>>();
  for (const a of alerts) {
    const mine = byOwner.get(a.userId) ?? new Set<number>();
    byOwner.set(a.userId, mine);
    for (const id of [...a.geofences, ...a.zones]) {
      const g = geofenceRows.get(id);
      if (!g || g.userId !== a.userId) continue;
      mine.add(id);
      if (!geofences.has(id)) geofences.set(id, { id, name: g.name, shape: { type: g.type, coordinates: g.coordinates, center: g.center ?? null, radius: g.radius } });
    }
    for (const id of a.customEvents) {
      const c = customRows.get(id);
      if (c && c.userId === a.userId && !customEvents.has(id)) {
        customEvents.set(id, { id, protocol: c.protocol, conditions: c.conditions.map((k) => ({ ...k, tag: attributeKey(k.tag) })), message: c.message, always: c.always });
      }
    }
  }
  const geofenceIndex = new Map<number, GeofenceIndex>();
  for (const [userId, ids] of byOwner) geofenceIndex.set(userId, new GeofenceIndex([...ids].sort((x, y) => x - y).map((id) => ({ id, shape: geofences.get(id)!.shape }))));
  return { geofences, geofenceIndex, customEvents };
}

/**
 * Each device's rules, for the devices of `deviceIds`; a device no alert watches gets none
 * (absent). Devices watched by the same alerts share one alert record per alert and period,
 * and one geofence index per owner: a fleet's alerts usually watch all its devices, and an
 * index over a thousand geofences is worth building once.
 */
export function buildDeviceRules(records: RuleRecords, deviceIds: readonly number[]): Map<number, DeviceRules> {
  const users = new Map<number, RuleUser>(
    records.users.map((u) => [u.id, { id: u.id, clock: userClock({ timezoneId: u.timezoneId, dst: u.dst }), units: userUnits(u), lang: u.lang }]),
  );
  const driversOf = new Map<number, RuleDriver[]>();
  for (const d of records.drivers) push(driversOf, d.userId, { id: d.id, name: d.name, rfid: d.rfid.trim().toLowerCase() });
  const alertRows = new Map(records.alerts.filter((a) => users.has(a.userId)).map((a) => [a.id, a]));
  const devices = new Map(records.devices.map((d) => [d.id, d]));
  const watchesOf = new Map<number, AlertWatch[]>();
  for (const w of records.watches) if (alertRows.has(w.alertId)) push(watchesOf, w.deviceId, w);
  const fuelSensors = new Map(records.sensors.filter(isFuelLevel).reverse().map((s) => [s.deviceId, s]));

  const alertsOf = new Map<string, RuleAlert>();
  const shared = new Map<string, Named>();
  const out = new Map<number, DeviceRules>();
  for (const deviceId of deviceIds) {
    const device = devices.get(deviceId);
    const watches = (watchesOf.get(deviceId) ?? []).sort((x, y) => x.alertId - y.alertId);
    if (!device || watches.length === 0) continue;
    const alerts = watches.map((w) => {
      const key = `${w.alertId}:${w.activeFrom?.getTime() ?? ""}:${w.activeTo?.getTime() ?? ""}`;
      let a = alertsOf.get(key);
      if (!a) alertsOf.set(key, (a = ruleAlert(alertRows.get(w.alertId)!, w)));
      return a;
    });
    const key = watches.map((w) => w.alertId).join(",");
    let named = shared.get(key);
    if (!named) shared.set(key, (named = namedBy(alerts, records)));
    out.set(deviceId, {
      deviceId,
      name: device.name,
      alerts,
      users,
      ...named,
      drivers: driversOf,
      fuelSensor: fuelSensors.get(deviceId),
    });
  }
  return out;
}

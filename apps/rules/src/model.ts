import { alertType, attributeKey, userClock, userUnits, type AlertTypeName, type UserClock, type UserUnits } from "@fleet/contracts";
import type { Alert, AlertNotifications, AlertWatch, CustomEventCondition, Sensor, UserRuleRecords } from "@fleet/db";
import { GeofenceIndex, type GeofenceShape } from "@fleet/geo";
import type { SensorDefinition } from "@fleet/sensors";

/*
 * The rule book's records, as detectors read them: built once per user and per device from
 * what @fleet/db's loadUserRuleRecords and loadDeviceRuleRecords read, then kept until a
 * rules.changed notice drops them.
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
  /** km/h: inside, its owner's overspeed alerts take it as their limit; null for none. */
  speedLimit: number | null;
}

export interface RuleCustomEvent {
  id: number;
  /** Lower-cased, as positions' protocols are compared with it. */
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
  pois: readonly number[];
  /** Weekday → active "HH:MM" quarter-hour slots on the owner's clock; null when it always applies. */
  schedule: Readonly<Record<string, readonly string[]>> | null;
  /** The period it applies in on this device (time_period): from inclusive, to exclusive, epoch ms; null is no bound. */
  period: { fromMs: number | null; toMs: number | null };
  notifications: AlertNotifications;
}

/** A point of interest (a user's map icon) a poi_stop_duration or poi_idle_duration alert names. */
export interface RulePoi {
  id: number;
  name: string;
  lat: number;
  lng: number;
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
  /** The device's SIM number and model, for webhooks ("" when not set). */
  phone?: string;
  model?: string;
  /** The group each owner files the device in, for webhooks (null: none). */
  groups?: ReadonlyMap<number, number | null>;
  alerts: readonly RuleAlert[];
  users: ReadonlyMap<number, RuleUser>;
  geofences: ReadonlyMap<number, RuleGeofence>;
  /** The names of the owners' inactive geofences their alerts name, for the exit a deactivation makes. */
  geofenceNames: ReadonlyMap<number, string>;
  /** Per owner, an index of the geofences that owner's alerts name: one box search per position and owner. */
  geofenceIndex: ReadonlyMap<number, GeofenceIndex>;
  customEvents: ReadonlyMap<number, RuleCustomEvent>;
  drivers: ReadonlyMap<number, readonly RuleDriver[]>;
  /** The active points of interest the owners' alerts name, by id. */
  pois: ReadonlyMap<number, RulePoi>;
  /** The owners with a geofence that sets a speed limit: only their overspeed alerts look at where the device is. */
  speedZoneOwners: ReadonlySet<number>;
  /** The device's fuel level sensor, for fuel_change. */
  fuelSensor: SensorDefinition | undefined;
}

const isFuelLevel = (s: Sensor) => s.type === "fuel_tank" || s.type === "fuel_tank_calibration";

/** What one user's alerts need, shared by every device they watch: read once per user, not per device. */
export interface UserRules {
  user: RuleUser;
  /** Epoch ms the account expires at (Infinity: never): from then its alerts fire nothing. */
  expiresAt: number;
  /** The user's active alerts by id, as stored. */
  alerts: ReadonlyMap<number, Alert>;
  geofences: ReadonlyMap<number, RuleGeofence>;
  /** The names of its inactive geofences its alerts name. */
  geofenceNames: ReadonlyMap<number, string>;
  /** Over every geofence the user's alerts name. */
  geofenceIndex: GeofenceIndex;
  customEvents: ReadonlyMap<number, RuleCustomEvent>;
  drivers: readonly RuleDriver[];
  pois: ReadonlyMap<number, RulePoi>;
  /** Some of its geofences set a speed limit for its overspeed alerts. */
  speedZones: boolean;
  /** Each alert as a device's rules hold it, by alert and period: devices with the same period share one. */
  readonly periods: Map<string, RuleAlert>;
}

/** Each user's rules, for the users the records hold (usable users only). */
export function buildUserRules(records: UserRuleRecords): Map<number, UserRules> {
  const out = new Map<number, UserRules>();
  for (const u of records.users) {
    const alerts = new Map(records.alerts.filter((a) => a.userId === u.id).map((a) => [a.id, a]));
    const named = new Set([...alerts.values()].flatMap((a) => [...a.geofences, ...a.zones]));
    const overspeed = [...alerts.values()].some((a) => a.type === "overspeed");
    const geofences = new Map<number, RuleGeofence>();
    // A referenced record counts only while it is the alert owner's.
    for (const g of records.geofences) {
      const speedLimit = g.speedLimit !== null && g.speedLimit > 0 ? g.speedLimit : null;
      if (g.userId === u.id && (named.has(g.id) || (overspeed && speedLimit !== null))) {
        geofences.set(g.id, { id: g.id, name: g.name, shape: { type: g.type, coordinates: g.coordinates, center: g.center ?? null, radius: g.radius }, speedLimit });
      }
    }
    const customEvents = new Map<number, RuleCustomEvent>();
    for (const c of records.customEvents) {
      if (c.userId === u.id) customEvents.set(c.id, { id: c.id, protocol: c.protocol.toLowerCase(), conditions: c.conditions.map((k) => ({ ...k, tag: attributeKey(k.tag) })), message: c.message, always: c.always });
    }
    out.set(u.id, {
      user: { id: u.id, clock: userClock({ timezoneId: u.timezoneId, dst: u.dst }), units: userUnits(u), lang: u.lang },
      expiresAt: u.expirationDate?.getTime() ?? Infinity,
      alerts,
      geofences,
      geofenceNames: new Map(records.geofenceNames.filter((g) => g.userId === u.id).map((g) => [g.id, g.name])),
      geofenceIndex: new GeofenceIndex([...geofences.values()].sort((x, y) => x.id - y.id).map((g) => ({ id: g.id, shape: g.shape }))),
      customEvents,
      drivers: records.drivers.filter((d) => d.userId === u.id).map((d) => ({ id: d.id, name: d.name, rfid: d.rfid.trim().toLowerCase() })),
      pois: new Map(records.pois.filter((p) => p.userId === u.id).map((p) => [p.id, { id: p.id, name: p.name, lat: p.coordinates.lat, lng: p.coordinates.lng }])),
      speedZones: [...geofences.values()].some((g) => g.speedLimit !== null),
      periods: new Map(),
    });
  }
  return out;
}

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
    pois: a.pois,
    schedule: a.schedule ? a.schedules : null,
    period: { fromMs: watch.activeFrom?.getTime() ?? null, toMs: watch.activeTo?.getTime() ?? null },
    notifications: a.notifications,
  };
}

function union<K, V>(maps: readonly ReadonlyMap<K, V>[]): ReadonlyMap<K, V> {
  return maps.length === 1 ? maps[0]! : new Map(maps.flatMap((m) => [...m]));
}

/**
 * A device's rules from its watches and its alerts' owners' rules; null when none of the
 * alerts watching it is an active alert of a usable owner. A device on one account (the usual
 * case) shares that account's geofences, index and custom events rather than copying them.
 */
export function rulesOfDevice(device: { id: number; name: string; simNumber?: string; deviceModel?: string }, watches: readonly AlertWatch[], sensors: readonly Sensor[], owners: ReadonlyMap<number, UserRules>): DeviceRules | null {
  const alerts: RuleAlert[] = [];
  const mine = new Map<number, UserRules>();
  for (const w of [...watches].sort((x, y) => x.alertId - y.alertId)) {
    const owner = owners.get(w.userId);
    const row = owner?.alerts.get(w.alertId);
    if (!owner || !row) continue;
    const key = `${w.alertId}:${w.activeFrom?.getTime() ?? ""}:${w.activeTo?.getTime() ?? ""}`;
    let alert = owner.periods.get(key);
    if (!alert) owner.periods.set(key, (alert = ruleAlert(row, w)));
    alerts.push(alert);
    mine.set(owner.user.id, owner);
  }
  if (alerts.length === 0) return null;
  const rules = [...mine.values()];
  return {
    deviceId: device.id,
    name: device.name,
    phone: device.simNumber ?? "",
    model: device.deviceModel ?? "",
    groups: new Map(watches.map((w) => [w.userId, w.groupId ?? null])),
    alerts,
    users: new Map(rules.map((r) => [r.user.id, r.user])),
    geofences: union(rules.map((r) => r.geofences)),
    geofenceNames: union(rules.map((r) => r.geofenceNames)),
    geofenceIndex: new Map(rules.map((r) => [r.user.id, r.geofenceIndex])),
    customEvents: union(rules.map((r) => r.customEvents)),
    drivers: new Map(rules.map((r) => [r.user.id, r.drivers])),
    pois: union(rules.map((r) => r.pois)),
    speedZoneOwners: new Set(rules.filter((r) => r.speedZones).map((r) => r.user.id)),
    fuelSensor: sensors.find((s) => s.deviceId === device.id && isFuelLevel(s)),
  };
}

import { alertType, attributeKey, userClock, userUnits, type AlertTypeName, type UserClock, type UserUnits } from "@fleet/contracts";
import type { AlertNotifications, CustomEventCondition, RuleRecords, Sensor, WatchingAlert } from "@fleet/db";
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

const isFuelLevel = (s: Sensor) => s.type === "fuel_tank" || s.type === "fuel_tank_calibration";

function ruleAlert(a: WatchingAlert): RuleAlert {
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
    period: { fromMs: a.activeFrom?.getTime() ?? null, toMs: a.activeTo?.getTime() ?? null },
    notifications: a.notifications,
  };
}

/** Each device's rules, for the devices of `deviceIds`; a device no alert watches gets none (absent). */
export function buildDeviceRules(records: RuleRecords, deviceIds: readonly number[]): Map<number, DeviceRules> {
  const users = new Map<number, RuleUser>(
    records.users.map((u) => [u.id, { id: u.id, clock: userClock({ timezoneId: u.timezoneId, dst: u.dst }), units: userUnits(u), lang: u.lang }]),
  );
  // A referenced record counts only while it is its alert owner's.
  const geofences = new Map(records.geofences.map((g) => [g.id, g]));
  const customEvents = new Map(records.customEvents.map((c) => [c.id, c]));
  const driversOf = new Map<number, RuleDriver[]>();
  for (const d of records.drivers) driversOf.set(d.userId, [...(driversOf.get(d.userId) ?? []), { id: d.id, name: d.name, rfid: d.rfid.trim().toLowerCase() }]);

  const out = new Map<number, DeviceRules>();
  for (const deviceId of deviceIds) {
    const device = records.devices.find((d) => d.id === deviceId);
    const alerts = records.alerts.filter((a) => a.deviceId === deviceId && users.has(a.userId)).map(ruleAlert);
    if (!device || alerts.length === 0) continue;

    const ownGeofences = new Map<number, RuleGeofence>();
    const ownCustom = new Map<number, RuleCustomEvent>();
    for (const a of alerts) {
      for (const id of [...a.geofences, ...a.zones]) {
        const g = geofences.get(id);
        if (g && g.userId === a.userId) ownGeofences.set(id, { id, name: g.name, shape: { type: g.type, coordinates: g.coordinates, center: g.center ?? null, radius: g.radius } });
      }
      for (const id of a.customEvents) {
        const c = customEvents.get(id);
        if (c && c.userId === a.userId) {
          ownCustom.set(id, { id, protocol: c.protocol, conditions: c.conditions.map((k) => ({ ...k, tag: attributeKey(k.tag) })), message: c.message, always: c.always });
        }
      }
    }
    const geofenceIndex = new Map<number, GeofenceIndex>();
    for (const userId of new Set(alerts.map((a) => a.userId))) {
      const mine = alerts.filter((a) => a.userId === userId).flatMap((a) => [...a.geofences, ...a.zones]);
      const shapes = [...new Set(mine)].flatMap((id) => {
        const g = ownGeofences.get(id);
        return g ? [{ id, shape: g.shape }] : [];
      });
      geofenceIndex.set(userId, new GeofenceIndex(shapes));
    }
    out.set(deviceId, {
      deviceId,
      name: device.name,
      alerts,
      users,
      geofences: ownGeofences,
      geofenceIndex,
      customEvents: ownCustom,
      drivers: driversOf,
      fuelSensor: records.sensors.find((s) => s.deviceId === deviceId && isFuelLevel(s)),
    });
  }
  return out;
}

import { userClock, userUnits, type EnrichedPosition } from "@fleet/contracts";
import { NO_NOTIFICATIONS } from "@fleet/db";
import { GeofenceIndex, type GeofenceShape } from "@fleet/geo";
import type { SensorDefinition } from "@fleet/sensors";
import { sensorDef } from "@fleet/sensors/testing";
import type { RuleState } from "@fleet/live";
import { evaluateDevice, type StateChange } from "./evaluate.js";
import type { DeviceRules, RuleAlert, RuleCustomEvent, RuleDriver, RuleGeofence, RulePoi, RuleUser } from "./model.js";

/*
 * Builders for the rules service's unit tests: positions, alerts and a device's rules,
 * with everything a test does not name at a plain default.
 */

export const T0 = Date.UTC(2026, 10, 23, 8, 0, 0); // a Monday, 08:00 UTC

let nextId = 1;

export function position(over: Partial<EnrichedPosition> = {}): EnrichedPosition {
  const id = over.id ?? nextId++;
  return {
    id,
    deviceId: 1,
    uniqueId: "imei-1",
    protocol: "osmand",
    latitude: 54.69,
    longitude: 25.28,
    altitude: 100,
    course: 90,
    fixTime: T0,
    serverTime: T0 + 500,
    attributes: {},
    speedKmh: 0,
    distanceKm: 0,
    userIds: [7],
    latest: true,
    engineOn: false,
    moving: false,
    ...over,
  };
}

/** Positions every `stepMs` from T0, each shaped by `at(i)`. */
export function track(n: number, stepMs: number, at: (i: number) => Partial<EnrichedPosition> = () => ({})): EnrichedPosition[] {
  return Array.from({ length: n }, (_, i) => position({ fixTime: T0 + i * stepMs, serverTime: T0 + i * stepMs + 500, ...at(i) }));
}


export function alert(over: Partial<RuleAlert> & Pick<RuleAlert, "type">): RuleAlert {
  return { id: 1, userId: 7, name: "test", attributes: {}, zone: 0, zones: [], geofences: [], drivers: [], customEvents: [], pois: [], schedule: null, period: { fromMs: null, toMs: null }, notifications: NO_NOTIFICATIONS, ...over };
}

export function user(over: { id?: number; unitOfDistance?: string; timezoneId?: number; lang?: string } = {}): RuleUser {
  return { id: over.id ?? 7, clock: userClock({ timezoneId: over.timezoneId ?? 0 }), units: userUnits({ unitOfDistance: over.unitOfDistance ?? "km", unitOfAltitude: "mt" }), lang: over.lang ?? "en" };
}

/** A square geofence of `half` degrees around a centre. */
export function square(id: number, name: string, lat: number, lng: number, half = 0.01): RuleGeofence {
  const shape: GeofenceShape = {
    type: "polygon",
    coordinates: [
      { lat: lat - half, lng: lng - half },
      { lat: lat - half, lng: lng + half },
      { lat: lat + half, lng: lng + half },
      { lat: lat + half, lng: lng - half },
    ],
    center: null,
    radius: null,
  };
  return { id, name, shape, speedLimit: null };
}

/** A fuel tank sensor reading the `fuel` attribute as litres (or as `over` says). */
export function fuelTank(over: Partial<SensorDefinition> = {}): SensorDefinition {
  return sensorDef({ id: 9, name: "Tank", type: "fuel_tank", tagName: "fuel", unitOfMeasurement: "l", ...over });
}

export function deviceRules(
  alerts: RuleAlert[],
  extra: { users?: RuleUser[]; geofences?: RuleGeofence[]; geofenceNames?: [number, string][]; customEvents?: RuleCustomEvent[]; drivers?: RuleDriver[]; pois?: RulePoi[]; fuelSensor?: SensorDefinition } = {},
): DeviceRules {
  const users = new Map((extra.users ?? [user()]).map((u) => [u.id, u]));
  const geofences = new Map((extra.geofences ?? []).map((g) => [g.id, g]));
  const geofenceIndex = new Map([...users.keys()].map((id) => [id, new GeofenceIndex([...geofences.values()].map((g) => ({ id: g.id, shape: g.shape })))]));
  return {
    deviceId: 1,
    name: "Truck 1",
    alerts,
    users,
    geofences,
    geofenceNames: new Map(extra.geofenceNames ?? []),
    geofenceIndex,
    customEvents: new Map((extra.customEvents ?? []).map((c) => [c.id, c])),
    drivers: new Map([[7, extra.drivers ?? []]]),
    pois: new Map((extra.pois ?? []).map((p) => [p.id, p])),
    speedZoneOwners: new Set(geofences.size > 0 && [...geofences.values()].some((g) => g.speedLimit !== null) ? users.keys() : []),
    fuelSensor: extra.fuelSensor,
  };
}

/** A stored state with a batch's change applied, each member as JSON gives it back: what the next batch reads from the live store. */
export function applyChange(state: RuleState | undefined, change: StateChange | undefined): RuleState | undefined {
  if (!change) return state;
  const next: RuleState = { ...state };
  for (const [key, value] of Object.entries(change.set)) {
    if (value === undefined) delete next[key];
    else next[key] = JSON.parse(JSON.stringify(value));
  }
  for (const key of change.unset) delete next[key];
  return next;
}

/**
 * Runs positions through a device's rules one at a time, storing between them only what each
 * run says changed, as the service stores it (JSON, member by member), as a stream of
 * single-position batches would; returns every event row found and the state after the last.
 */
export function runTrack(rules: DeviceRules, positions: readonly EnrichedPosition[], start?: RuleState) {
  let state: RuleState | undefined = start;
  const events = [];
  for (const p of positions) {
    const out = evaluateDevice(rules, [p], state);
    events.push(...out.found.map((f) => f.event));
    state = applyChange(state, out.change);
  }
  return { events, state };
}

export const typesOf = (r: ReturnType<typeof runTrack>) => r.events.map((e) => e.type);

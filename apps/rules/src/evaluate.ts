import { heldUntil, type EnrichedPosition } from "@fleet/contracts";
import type { EventInput } from "@fleet/db";
import type { RuleState } from "@fleet/live";
import { toNumber } from "@fleet/sensors";
import { UNCHANGED, type Detection, type DetectorResult } from "./detector.js";
import { DETECTORS, type AnyDetector } from "./detectors/index.js";
import { geofencesOf, sameIds } from "./detectors/geofence.js";
import type { DeviceRules, RuleAlert, RuleUser } from "./model.js";
import { Reading } from "./reading.js";
import { inPeriod, inSchedule, inZone } from "./scope.js";

/** An event found, with the alert that found it: the service records it and notifies the alert's channels. */
export interface Found {
  alert: RuleAlert;
  event: EventInput;
  /** The position it was found at (for a silent device, its last one). */
  position: EnrichedPosition;
  /** What the detector measured (Detection.attributes). */
  attributes?: Readonly<Record<string, number>>;
}

/** Where each alert's memory sits in the device's rule state. */
export const memoryKey = (alert: RuleAlert) => `a${alert.id}`;

/**
 * The dedupe key of an event: its alert, type and what it belongs to (the position, or the
 * episode for an event of a lasting condition), so running a position again, or the sweep
 * and a position finding one episode, records it once.
 */
function dedupeKey(alert: RuleAlert, deviceId: number, position: EnrichedPosition, d: Detection): string {
  const what = d.episode !== undefined ? `${deviceId}:since:${d.episode}` : `${position.id}`;
  return `${alert.id}:${d.type}:${what}${d.key ? `:${d.key}` : ""}`;
}

export function eventInput(alert: RuleAlert, rules: DeviceRules, position: EnrichedPosition, d: Detection): EventInput {
  return {
    userId: alert.userId,
    deviceId: rules.deviceId,
    type: d.type,
    message: d.message,
    time: new Date(position.fixTime),
    latitude: position.latitude,
    longitude: position.longitude,
    speedKmh: position.speedKmh,
    altitudeM: position.altitude,
    course: position.course,
    // A form's text (insert.php keeps `attributes[power]=13.9` as sent) is read as its number.
    power: toNumber(position.attributes.power),
    alertId: alert.id,
    geofenceId: d.geofenceId ?? null,
    positionId: position.id,
    // Flags for clients that poll events (a sound to play, a push to show): the alert's, not the silence's.
    sound: alert.notifications.sound.active,
    push: alert.notifications.push.active,
    dedupeKey: dedupeKey(alert, rules.deviceId, position, d),
  };
}

/** A detector ready to run for one alert on one device: looked up once per rule book entry, not per position. */
interface Watch {
  alert: RuleAlert;
  detect: AnyDetector;
  owner: RuleUser;
  key: string;
}

/** How a device's positions are run: worked out once per rule book entry, not per batch. */
interface Plan {
  /** Alerts run at every position, each with a memory of its own. */
  every: readonly Watch[];
  /** Geofence alerts: run only when the device's geofences change (GEO_KEY), keeping no memory. */
  crossing: readonly Watch[];
  /** Custom alerts: run only when the custom events matching change, or an `always` one matches (CUSTOM_KEY), keeping no memory. */
  matching: readonly Watch[];
  /** The owners of the device's geofence alerts, whose geofences GEO_KEY follows. */
  geofenceOwners: readonly number[];
  /** The custom events its custom alerts name, ascending: those CUSTOM_KEY follows. */
  customIds: readonly number[];
  /** Those of them that fire at every matching position. */
  alwaysIds: ReadonlySet<number>;
  /** A distance alert watches it: the chain counts km. */
  counting: boolean;
  /** A fuel alert watches it: the chain keeps the last fuel level. */
  fueled: boolean;
  /** Reused by each batch of the device (a run is synchronous, so one at a time). */
  reading: Reading;
}

const plans = new WeakMap<DeviceRules, Plan>();
function planOf(rules: DeviceRules): Plan {
  let plan = plans.get(rules);
  if (!plan) {
    const watching = rules.alerts.flatMap((alert) => {
      const detect = DETECTORS[alert.type];
      const owner = rules.users.get(alert.userId);
      return detect && owner ? [{ alert, detect, owner, key: memoryKey(alert) }] : [];
    });
    const crossing = watching.filter((w) => w.detect === DETECTORS.geofence_inout);
    const matching = watching.filter((w) => w.detect === DETECTORS.custom);
    const customIds = [...new Set(matching.flatMap((w) => w.alert.customEvents))].filter((id) => rules.customEvents.has(id)).sort((a, b) => a - b);
    plan = {
      every: watching.filter((w) => !crossing.includes(w) && !matching.includes(w)),
      crossing,
      matching,
      geofenceOwners: [...new Set(crossing.map((w) => w.alert.userId))],
      customIds,
      alwaysIds: new Set(customIds.filter((id) => rules.customEvents.get(id)!.always)),
      counting: watching.some((w) => w.alert.type === "distance"),
      fueled: watching.some((w) => w.alert.type === "fuel_change"),
      reading: new Reading(rules),
    };
    plans.set(rules, plan);
  }
  return plan;
}

/*
 * What the chain keeps per device in its rule state, beside the alerts' memories: once per
 * device rather than per alert, so what changes at every position (the fix, km, fuel) or
 * at a crossing moves one member of the state, not one per alert (a fleet may have dozens).
 */
/** The device's latest fix time: the GPS-jump check, and positions already run. */
export const FIX_KEY = "fix";
/** The geofences (ascending ids, across the owners of its geofence alerts) holding its previous position. */
export const GEO_KEY = "geo";
/** km driven since the state began, while a distance alert watches it. */
export const KM_KEY = "km";
/** The last fuel level read, while a fuel alert watches it. */
export const FUEL_KEY = "fuel";
/**
 * The custom events that matched its previous position (`on`, ascending), of those its custom
 * alerts named then (`of`): one named since is learnt at its first position, not fired.
 */
export const CUSTOM_KEY = "custom";

interface CustomMember {
  of: readonly number[];
  on: readonly number[];
}

const isIds = (v: unknown): v is number[] => Array.isArray(v) && v.every((id) => typeof id === "number");
function customIn(state: RuleState | undefined): CustomMember | undefined {
  const v = state?.[CUSTOM_KEY] as Partial<CustomMember> | undefined;
  return v !== null && typeof v === "object" && isIds(v.of) && isIds(v.on) ? (v as CustomMember) : undefined;
}

const numberIn = (state: RuleState | undefined, key: string) => (typeof state?.[key] === "number" ? (state[key] as number) : undefined);

/** What a batch changed in a device's rule state: the members to write and those to drop. */
export interface StateChange {
  set: RuleState;
  unset: string[];
}

/**
 * Runs a device's positions, in order, through the detector of each alert watching it,
 * from the device's stored rule state. Returns the events that fall inside their alert's
 * period on the device, schedule and zone; the state after them (the memory of the alerts
 * that watch the device now, and what the chain keeps per device); and what changed from
 * the stored state, if anything: the members that moved (a detector's memory moves when it
 * fires or an episode starts or ends, not at every position) and a removed alert's memory,
 * dropped. Positions older than the device's latest (`latest` false), or than the latest fix
 * the stored state has seen, fire nothing and move no memory, as in Traccar: their moment
 * has passed, and running them would make an episode start and end out of order.
 */
export function evaluateDevice(rules: DeviceRules, positions: readonly EnrichedPosition[], stored: RuleState | undefined): { found: Found[]; state: RuleState; change: StateChange | undefined } {
  const { every, crossing, matching, geofenceOwners, customIds, alwaysIds, counting, fueled, reading } = planOf(rules);
  // Each alert's memory by its place in `every`: looked up by key once per batch, not per position.
  const memory = every.map((w) => stored?.[w.key]);
  const before = memory.slice();
  const storedFix = numberIn(stored, FIX_KEY);
  let fix = storedFix;
  const storedGeo = geofenceOwners.length > 0 && Array.isArray(stored?.[GEO_KEY]) ? (stored[GEO_KEY] as number[]) : undefined;
  let geo = storedGeo;
  const storedKm = counting ? numberIn(stored, KM_KEY) : undefined;
  let km = storedKm;
  const storedFuel = fueled ? numberIn(stored, FUEL_KEY) : undefined;
  let fuel = storedFuel;
  const storedCustom = customIds.length > 0 ? customIn(stored) : undefined;
  let custom = storedCustom;

  const found: Found[] = [];
  const take = (w: Watch, result: DetectorResult<unknown>, position: EnrichedPosition) => {
    const { alert, owner } = w;
    if (!inPeriod(alert, position.fixTime) || !inSchedule(alert, owner, position.fixTime) || !inZone(alert, reading.inside())) return;
    for (const d of result.events) found.push({ alert, event: eventInput(alert, rules, position, d), position, attributes: d.attributes });
  };
  const runMemoryless = (watches: readonly Watch[], position: EnrichedPosition) => {
    for (const w of watches) {
      reading.alert = w.alert;
      reading.owner = w.owner;
      const result = w.detect(reading, undefined);
      if (result.events.length > 0) take(w, result, position);
    }
  };

  for (const position of positions) {
    // Not after the stored latest fix: a batch redelivered after its state was stored (a crash
    // before the offset commit) has had its events recorded; run again from the state it
    // produced, it would find different ones.
    if (!position.latest || (fix !== undefined && position.fixTime <= fix)) continue;
    reading.at(position, fix);
    // As the tracker's latest: a fix whose clock ran ahead holds off the next ones a minute at most.
    fix = heldUntil(position);
    // The geofence alerts run only when the device's geofences changed; a GPS jump moves it in
    // or out of nothing, and where it was first seen is learnt, not entered.
    let crossed: readonly Watch[] = NO_WATCHES;
    if (geofenceOwners.length > 0 && !reading.jump) {
      const here = reading.insideAll(geofenceOwners);
      const was = geo;
      if (was !== undefined && !sameIds(here, was)) {
        crossed = crossingWatches(crossing, here, was);
        reading.wasInside = new Set(was);
      }
      if (was === undefined || crossed !== NO_WATCHES) geo = here;
    }
    // Likewise the custom alerts, when the custom events matching changed or an `always` one matches.
    let rematched = false;
    if (customIds.length > 0) {
      const on = reading.matchedAmong(customIds);
      // First seen, what matches is learnt, not fired (but an `always` event fires on any position).
      const was = custom === undefined ? on : sameIds(custom.of, customIds) ? custom.on : learnt(custom, customIds, on);
      rematched = !sameIds(on, was) || on.some((id) => alwaysIds.has(id));
      if (rematched) reading.wasMatched = new Set(was);
      if (custom === undefined || !sameIds(custom.of, customIds) || !sameIds(on, custom.on)) custom = { of: customIds, on };
    }
    if (counting) reading.odometerKm = km = (km ?? 0) + position.distanceKm;
    reading.previousFuel = fuel ?? null;
    for (let i = 0; i < every.length; i++) {
      const w = every[i]!;
      reading.alert = w.alert;
      reading.owner = w.owner;
      const result = w.detect(reading, memory[i]);
      if (result === UNCHANGED) continue;
      memory[i] = result.next;
      if (result.events.length > 0) take(w, result, position);
    }
    if (crossed.length > 0) runMemoryless(crossed, position);
    if (rematched) runMemoryless(matching, position);
    if (fueled) fuel = reading.fuelLevel() ?? fuel;
  }

  const state: RuleState = {};
  const set: RuleState = {};
  let moved = 0;
  let known = 0;
  for (let i = 0; i < every.length; i++) {
    const key = every[i]!.key;
    if (before[i] !== undefined) known++;
    if (memory[i] !== undefined) state[key] = memory[i];
    if (memory[i] !== before[i]) {
      set[key] = memory[i];
      moved++;
    }
  }
  for (const [key, now, then] of [[FIX_KEY, fix, storedFix], [GEO_KEY, geo, storedGeo], [KM_KEY, km, storedKm], [FUEL_KEY, fuel, storedFuel], [CUSTOM_KEY, custom, storedCustom]] as const) {
    if (then !== undefined) known++;
    if (now !== undefined) state[key] = now;
    if (now !== then) {
      set[key] = now;
      moved++;
    }
  }
  // A removed alert's memory is dropped: a change to store too. The stored state holds one
  // when it has more members than the ones read from it above.
  const unset = stored && Object.keys(stored).length > known ? Object.keys(stored).filter((key) => !(key in state) && !(key in set)) : [];
  return { found, state, change: moved + unset.length > 0 ? { set, unset } : undefined };
}

const NO_WATCHES: readonly Watch[] = [];

/** The geofence alerts naming a geofence the device entered or left (`here` and `was` differ, ascending), in the plan's order. */
function crossingWatches(crossing: readonly Watch[], here: readonly number[], was: readonly number[]): Watch[] {
  const changed = here.filter((id) => !was.includes(id));
  for (const id of was) if (!here.includes(id)) changed.push(id);
  // Still a change to keep when no alert names the geofences crossed: an empty list, not NO_WATCHES.
  return crossing.filter((w) => {
    const named = geofencesOf(w.alert);
    return changed.some((id) => named.has(id));
  });
}

/**
 * What matched the previous position, of custom events named now: as stored for those named
 * then, as at this position for those named since (learnt, not fired, as a new alert learns).
 */
function learnt(stored: CustomMember, ids: readonly number[], now: readonly number[]): number[] {
  return ids.filter((id) => (stored.of.includes(id) ? stored.on.includes(id) : now.includes(id)));
}

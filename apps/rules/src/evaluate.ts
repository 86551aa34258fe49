import type { EnrichedPosition } from "@fleet/contracts";
import type { EventInput } from "@fleet/db";
import type { RuleState } from "@fleet/live";
import type { Detection } from "./detector.js";
import { DETECTORS } from "./detectors/index.js";
import type { DeviceRules, RuleAlert } from "./model.js";
import { inPeriod, inSchedule, inZone } from "./scope.js";

/** An event found, with the alert that found it: the service records it and notifies the alert's channels. */
export interface Found {
  alert: RuleAlert;
  event: EventInput;
  /** The position it was found at (for a silent device, its last one). */
  position: EnrichedPosition;
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
  const power = position.attributes.power;
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
    power: typeof power === "number" ? power : null,
    alertId: alert.id,
    geofenceId: d.geofenceId ?? null,
    positionId: position.id,
    dedupeKey: dedupeKey(alert, rules.deviceId, position, d),
  };
}

/**
 * Runs a device's positions, in order, through the detector of each alert watching it,
 * from the device's stored rule state. Returns the events that fall inside their alert's
 * period on the device, schedule and zone, and the state to store: the memory of the alerts that watch the device
 * now (a deleted alert's memory is dropped). Positions older than the device's latest
 * (`latest` false) fire nothing and move no memory, as in Traccar: their moment has passed,
 * and running them would make an episode start and end out of order.
 */
export function evaluateDevice(rules: DeviceRules, positions: readonly EnrichedPosition[], stored: RuleState | undefined): { found: Found[]; state: RuleState } {
  const state: RuleState = {};
  for (const alert of rules.alerts) {
    const kept = stored?.[memoryKey(alert)];
    if (kept !== undefined) state[memoryKey(alert)] = kept;
  }
  const found: Found[] = [];
  for (const position of positions) {
    if (!position.latest) continue;
    const insideOf = new Map<number, ReadonlySet<number>>();
    const inside = (userId: number) => {
      let set = insideOf.get(userId);
      if (!set) {
        set = new Set(rules.geofenceIndex.get(userId)?.containing({ lat: position.latitude, lng: position.longitude }) ?? []);
        insideOf.set(userId, set);
      }
      return set;
    };
    for (const alert of rules.alerts) {
      const detect = DETECTORS[alert.type];
      const owner = rules.users.get(alert.userId);
      if (!detect || !owner) continue;
      const key = memoryKey(alert);
      const result = detect({ position, alert, device: rules, owner, inside: () => inside(alert.userId) }, state[key]);
      if (result.next === undefined) delete state[key];
      else state[key] = result.next;
      if (result.events.length === 0) continue;
      if (!inPeriod(alert, position.fixTime) || !inSchedule(alert, owner, position.fixTime) || !inZone(alert, inside(alert.userId))) continue;
      for (const d of result.events) found.push({ alert, event: eventInput(alert, rules, position, d), position });
    }
  }
  return { found, state };
}

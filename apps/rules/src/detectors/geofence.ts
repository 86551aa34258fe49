import { UNCHANGED, type Detection, type Detector } from "../detector.js";
import { messagesFor } from "../messages.js";
import type { DeviceRules, RuleAlert } from "../model.js";

/** Each alert's geofences as a set, made once per alert record: an alert may name a thousand of them, a position lies in few. */
const geofenceSets = new WeakMap<RuleAlert, ReadonlySet<number>>();
export function geofencesOf(alert: RuleAlert): ReadonlySet<number> {
  let set = geofenceSets.get(alert);
  if (!set) geofenceSets.set(alert, (set = new Set(alert.geofences)));
  return set;
}

/** A geofence turned off while the device was inside is left, and still named. */
const nameOf = (device: DeviceRules, id: number) => device.geofences.get(id)?.name ?? device.geofenceNames.get(id) ?? `#${id}`;

/**
 * geofence_in, geofence_out, geofence_inout: an event on each crossing of one of the alert's
 * geofences, never on positions that stay in or out (Traccar's GeofenceEventHandler: the set
 * difference between this position's geofences and the previous one's). The previous
 * position's geofences are the device's, kept once by the chain (evaluate.ts) rather than by
 * each alert, which also runs these detectors only when that set changes, and neither on a
 * GPS jump (a jump out and back reports nothing) nor when the device is first seen (a
 * vehicle already inside is not reported as entering). So this detector keeps no memory.
 */
export const geofence: Detector<never> = ({ alert, device, owner, inside, wasInside }) => {
  const named = geofencesOf(alert);
  const here = inside();
  let events: Detection[] | undefined;
  if (alert.type !== "geofence_out") {
    for (const id of here) if (named.has(id) && !wasInside.has(id)) (events ??= []).push({ type: "geofence_in", message: messagesFor(owner.lang).geofenceIn(nameOf(device, id)), geofenceId: id, key: `in:${id}` });
  }
  if (alert.type !== "geofence_in") {
    // Only geofences the alert still names: one removed from it is not left.
    for (const id of wasInside) if (named.has(id) && !here.has(id)) (events ??= []).push({ type: "geofence_out", message: messagesFor(owner.lang).geofenceOut(nameOf(device, id)), geofenceId: id, key: `out:${id}` });
  }
  return events === undefined ? UNCHANGED : { events, next: undefined };
};

/** Whether two ascending id lists hold the same ids. */
export function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

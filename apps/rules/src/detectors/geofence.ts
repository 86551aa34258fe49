import { NO_EVENTS, UNCHANGED, quiet, type Detection, type Detector } from "../detector.js";
import { messagesFor } from "../messages.js";
import type { RuleAlert } from "../model.js";

export interface GeofenceMemory {
  /** The alert's geofences that held the previous position, ascending. */
  inside: number[];
}

/** Each alert's geofences as a set, made once per alert record: an alert may name a thousand of them, a position lies in few. */
const geofenceSets = new WeakMap<RuleAlert, ReadonlySet<number>>();
function geofencesOf(alert: RuleAlert): ReadonlySet<number> {
  let set = geofenceSets.get(alert);
  if (!set) geofenceSets.set(alert, (set = new Set(alert.geofences)));
  return set;
}

/** Shared by every memory of a device outside all its alert's geofences; never added to. */
const NOWHERE: number[] = [];

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * geofence_in, geofence_out, geofence_inout: an event on each crossing of one of the alert's
 * geofences, never on positions that stay in or out (Traccar's GeofenceEventHandler: the set
 * difference between this position's geofences and the previous one's). A GPS jump moves the
 * device in or out of nothing, so a jump out and back reports nothing.
 */
export const geofence: Detector<GeofenceMemory> = ({ alert, device, owner, inside, jump }, previous) => {
  if (jump) return UNCHANGED;
  const here = inside();
  // Most positions lie in none of the owner's geofences: nothing to look up then.
  if (here.size === 0 && previous !== undefined && previous.inside.length === 0) return UNCHANGED;
  const named = geofencesOf(alert);
  // The index answers in ascending id order, so `now` is ascending too.
  let now = NOWHERE;
  for (const id of here) {
    if (!named.has(id)) continue;
    if (now === NOWHERE) now = [];
    now.push(id);
  }
  if (previous === undefined) return quiet({ inside: now });
  if (sameIds(now, previous.inside)) return UNCHANGED;
  const name = (id: number) => device.geofences.get(id)?.name ?? `#${id}`;
  const say = messagesFor(owner.lang);
  const events: Detection[] = [];
  if (alert.type !== "geofence_out") {
    for (const id of now) if (!previous.inside.includes(id)) events.push({ type: "geofence_in", message: say.geofenceIn(name(id)), geofenceId: id, key: `in:${id}` });
  }
  if (alert.type !== "geofence_in") {
    // Only geofences the alert still names: one removed from it is not left.
    for (const id of previous.inside) if (!now.includes(id) && named.has(id)) events.push({ type: "geofence_out", message: say.geofenceOut(name(id)), geofenceId: id, key: `out:${id}` });
  }
  return { events: events.length === 0 ? NO_EVENTS : events, next: { inside: now } };
};

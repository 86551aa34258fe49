import type { Detection, Detector } from "../detector.js";
import type { RuleAlert } from "../model.js";

export interface GeofenceMemory {
  /** The alert's geofences that held the previous position, ascending. */
  inside: number[];
  /** That position's fix time (absent in memory written before it was kept). */
  at?: number;
}

/**
 * Faster than any vehicle: a fix that implies it, measured from the fix before it, is a GPS
 * jump, and the fix after a jump implies it too on the way back. Neither moves the device in
 * or out of a geofence, so a jump out and back reports nothing.
 */
const JUMP_KMH = 500;

/**
 * geofence_in, geofence_out, geofence_inout: an event on each crossing of one of the alert's
 * geofences, never on positions that stay in or out (Traccar's GeofenceEventHandler: the set
 * difference between this position's geofences and the previous one's).
 */
/** Each alert's geofences as a set, made once per alert record: an alert may name a thousand of them, a position lies in few. */
const geofenceSets = new WeakMap<RuleAlert, ReadonlySet<number>>();
function geofencesOf(alert: RuleAlert): ReadonlySet<number> {
  let set = geofenceSets.get(alert);
  if (!set) geofenceSets.set(alert, (set = new Set(alert.geofences)));
  return set;
}

export const geofence: Detector<GeofenceMemory> = ({ position, alert, device, inside }, previous) => {
  if (previous?.at !== undefined && position.fixTime > previous.at && (position.distanceKm / (position.fixTime - previous.at)) * 3_600_000 > JUMP_KMH) {
    return { events: [], next: { inside: previous.inside, at: position.fixTime } };
  }
  const named = geofencesOf(alert);
  // The index answers in ascending id order, so `now` is ascending too.
  const now = [...inside()].filter((id) => named.has(id));
  const next = { inside: now, at: position.fixTime };
  if (previous === undefined) return { events: [], next };
  const before = new Set(previous.inside);
  const after = new Set(now);
  const name = (id: number) => device.geofences.get(id)?.name ?? `#${id}`;
  const events: Detection[] = [];
  if (alert.type !== "geofence_out") {
    for (const id of now) if (!before.has(id)) events.push({ type: "geofence_in", message: `Entered ${name(id)}`, geofenceId: id, key: `in:${id}` });
  }
  if (alert.type !== "geofence_in") {
    // Only geofences the alert still names: one removed from it is not left.
    for (const id of previous.inside) if (!after.has(id) && named.has(id)) events.push({ type: "geofence_out", message: `Left ${name(id)}`, geofenceId: id, key: `out:${id}` });
  }
  return { events, next };
};

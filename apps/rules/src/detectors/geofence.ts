import type { Detection, Detector } from "../detector.js";

export interface GeofenceMemory {
  /** The alert's geofences that held the previous position, ascending. */
  inside: number[];
}

/**
 * geofence_in, geofence_out, geofence_inout: an event on each crossing of one of the alert's
 * geofences, never on positions that stay in or out (Traccar's GeofenceEventHandler: the set
 * difference between this position's geofences and the previous one's).
 */
export const geofence: Detector<GeofenceMemory> = ({ alert, device, inside }, previous) => {
  const holding = inside();
  const now = alert.geofences.filter((id) => holding.has(id)).sort((a, b) => a - b);
  const next = { inside: now };
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
    for (const id of previous.inside) if (!after.has(id) && alert.geofences.includes(id)) events.push({ type: "geofence_out", message: `Left ${name(id)}`, geofenceId: id, key: `out:${id}` });
  }
  return { events, next };
};

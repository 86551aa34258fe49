import { UNCHANGED, quiet, type Detector, type DetectorInput } from "../detector.js";
import { messagesFor } from "../messages.js";

export interface OverspeedMemory {
  over: boolean;
}

const OVER: OverspeedMemory = Object.freeze({ over: true });
const UNDER: OverspeedMemory = Object.freeze({ over: false });

/**
 * The limit at the position: the lowest speed limit of the owner's geofences holding it
 * (Traccar's geofence speedLimit, its preferLowest), else the alert's own.
 */
function limitAt({ alert, device, inside }: DetectorInput, own: number): number {
  if (!device.speedZoneOwners.has(alert.userId)) return own;
  let lowest: number | undefined;
  for (const id of inside()) {
    const zone = device.geofences.get(id)?.speedLimit;
    if (zone != null && (lowest === undefined || zone < lowest)) lowest = zone;
  }
  return lowest ?? own;
}

/** The geofence whose speed limit is `limit` at the position, if the limit is a zone's: the event names it, as Traccar's does. */
function zoneOf({ alert, device, inside }: DetectorInput, limit: number): number | undefined {
  if (!device.speedZoneOwners.has(alert.userId)) return undefined;
  for (const id of inside()) if (device.geofences.get(id)?.speedLimit === limit) return id;
  return undefined;
}

/**
 * overspeed: speed above the limit (km/h), on the rising edge only; the episode ends when
 * the speed drops to the limit or below (Traccar's OverspeedEventHandler, the vendor's
 * checker). Inside a geofence with a speed limit, that limit is the alert's, and the event names
 * the geofence.
 */
export const overspeed: Detector<OverspeedMemory> = (input, previous) => {
  const { position, alert, owner } = input;
  const own = alert.attributes.overspeed;
  if (own === undefined) return UNCHANGED;
  const limit = limitAt(input, own);
  const over = position.speedKmh > limit;
  if (previous !== undefined && previous.over === over) return UNCHANGED;
  if (!over || previous === undefined) return quiet(over ? OVER : UNDER);
  const { units } = owner;
  const speed = Math.round(units.speed(position.speedKmh));
  const speedLimit = Math.round(units.speed(limit));
  // 90.4 over a limit of 90 reads 90.4, not "90 (limit 90)".
  const shown = speed > speedLimit ? String(speed) : String(Math.round(units.speed(position.speedKmh) * 10) / 10);
  const message = messagesFor(owner.lang).overspeed(`${shown} ${units.speedUnit}`, `${speedLimit} ${units.speedUnit}`);
  const geofenceId = zoneOf(input, limit);
  return { events: [{ type: "overspeed", message, attributes: { speed, speedLimit }, ...(geofenceId === undefined ? {} : { geofenceId }) }], next: OVER };
};

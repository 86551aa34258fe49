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

/**
 * overspeed: speed above the limit (km/h), on the rising edge only; the episode ends when
 * the speed drops to the limit or below (Traccar's OverspeedEventHandler, the vendor's
 * checker). Inside a geofence with a speed limit, that limit is the alert's.
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
  const message = messagesFor(owner.lang).overspeed(`${speed} ${units.speedUnit}`, `${speedLimit} ${units.speedUnit}`);
  return { events: [{ type: "overspeed", message, attributes: { speed, speedLimit } }], next: OVER };
};

import { KM_PER_MILE, round } from "@fleet/contracts";
import { UNCHANGED, quiet, type Detector } from "../detector.js";
import { messagesFor } from "../messages.js";

export interface DistanceMemory {
  /** The device's km (the chain's odometer) when the alert first saw it or last fired. */
  from: number;
}

const MILES = 2;

/**
 * distance: fires each time the device has driven the alert's distance since the alert first
 * saw it (that position's km included) or last fired. The km are counted once per device by
 * the chain, so the alert's memory moves only when it fires.
 */
export const distance: Detector<DistanceMemory> = ({ position, alert, owner, odometerKm }, previous) => {
  const limit = alert.attributes.distance;
  if (limit === undefined) return UNCHANGED;
  const from = typeof previous?.from === "number" ? previous.from : odometerKm - position.distanceKm;
  const km = odometerKm - from;
  const limitKm = alert.attributes.distance_unit === MILES ? limit * KM_PER_MILE : limit;
  if (km < limitKm) return quiet(previous?.from === from ? previous : { from }, previous);
  const { units } = owner;
  return { events: [{ type: "distance", message: messagesFor(owner.lang).distance(`${round(units.distance(km), 1)} ${units.distanceUnit}`) }], next: { from: odometerKm } };
};

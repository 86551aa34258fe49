import { KM_PER_MILE, round } from "@fleet/contracts";
import { UNCHANGED, quiet, type Detector } from "../detector.js";
import { messagesFor } from "../messages.js";

export interface DistanceMemory {
  /** km driven since the alert first saw the device or last fired. */
  km: number;
}

const MILES = 2;

/** distance: fires each time the device has driven the alert's distance since it first saw it or last fired. */
export const distance: Detector<DistanceMemory> = ({ position, alert, owner }, previous) => {
  const limit = alert.attributes.distance;
  if (limit === undefined) return UNCHANGED;
  if (previous !== undefined && position.distanceKm === 0) return UNCHANGED;
  const limitKm = alert.attributes.distance_unit === MILES ? limit * KM_PER_MILE : limit;
  const km = (previous?.km ?? 0) + position.distanceKm;
  if (km < limitKm) return quiet({ km });
  const { units } = owner;
  return { events: [{ type: "distance", message: messagesFor(owner.lang).distance(`${round(units.distance(km), 1)} ${units.distanceUnit}`) }], next: { km: 0 } };
};

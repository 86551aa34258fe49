import type { Detector } from "../detector.js";
import { quiet } from "../detector.js";

export interface OverspeedMemory {
  over: boolean;
}

/**
 * overspeed: speed above the alert's limit (km/h), on the rising edge only; the episode ends
 * when the speed drops to the limit or below (Traccar's OverspeedEventHandler, the vendor's
 * checker).
 */
export const overspeed: Detector<OverspeedMemory> = ({ position, alert, owner }, previous) => {
  const limit = alert.attributes.overspeed;
  if (limit === undefined) return quiet(previous);
  const over = position.speedKmh > limit;
  if (!over || previous === undefined || previous.over) return quiet({ over });
  const { units } = owner;
  const shown = (kmh: number) => `${Math.round(units.speed(kmh))} ${units.speedUnit}`;
  return { events: [{ type: "overspeed", message: `Overspeed: ${shown(position.speedKmh)} (limit ${shown(limit)})` }], next: { over } };
};

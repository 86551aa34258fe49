import { UNCHANGED, quiet, type Detector } from "../detector.js";
import { messagesFor } from "../messages.js";

export interface OverspeedMemory {
  over: boolean;
}

const OVER: OverspeedMemory = Object.freeze({ over: true });
const UNDER: OverspeedMemory = Object.freeze({ over: false });

/**
 * overspeed: speed above the alert's limit (km/h), on the rising edge only; the episode ends
 * when the speed drops to the limit or below (Traccar's OverspeedEventHandler, the vendor's
 * checker).
 */
export const overspeed: Detector<OverspeedMemory> = ({ position, alert, owner }, previous) => {
  const limit = alert.attributes.overspeed;
  if (limit === undefined) return UNCHANGED;
  const over = position.speedKmh > limit;
  if (previous !== undefined && previous.over === over) return UNCHANGED;
  if (!over || previous === undefined) return quiet(over ? OVER : UNDER);
  const { units } = owner;
  const shown = (kmh: number) => `${Math.round(units.speed(kmh))} ${units.speedUnit}`;
  return { events: [{ type: "overspeed", message: messagesFor(owner.lang).overspeed(shown(position.speedKmh), shown(limit)) }], next: OVER };
};

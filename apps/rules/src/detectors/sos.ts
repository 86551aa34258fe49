import type { Attributes } from "@fleet/contracts";
import { UNCHANGED, quiet, type Detector } from "../detector.js";
import { messagesFor } from "../messages.js";

export interface SosMemory {
  on: boolean;
}

/** A position reports an SOS: `alarm` naming sos (Traccar's comma-separated alarms), or a true `sos` attribute. */
export function reportsSos(attributes: Attributes): boolean {
  const alarm = attributes.alarm;
  if (typeof alarm === "string" && alarm.toLowerCase().split(",").some((a) => a.trim() === "sos")) return true;
  const sos = attributes.sos;
  return sos === true || sos === 1 || sos === "1" || sos === "true";
}

/**
 * sos: once when a device starts reporting an SOS, not again while it keeps reporting it
 * (Traccar drops repeats of the previous position's alarms). Unlike the other detectors it
 * fires on first sight: a missed SOS costs more than a repeated one.
 */
const ON: SosMemory = Object.freeze({ on: true });
const OFF: SosMemory = Object.freeze({ on: false });

export const sos: Detector<SosMemory> = ({ position, owner }, previous) => {
  const on = reportsSos(position.attributes);
  if (previous !== undefined && previous.on === on) return UNCHANGED;
  if (!on) return quiet(OFF);
  return { events: [{ type: "sos", message: messagesFor(owner.lang).sos() }], next: ON };
};

import type { Attributes } from "@fleet/contracts";
import { messagesFor } from "../messages.js";
import { edgeDetector } from "./edges.js";

/** Whether the position's `alarm` (Traccar's comma-separated alarm names) names this one, in any case. */
function alarms(attributes: Attributes, name: string): boolean {
  const alarm = attributes.alarm;
  return typeof alarm === "string" && alarm.toLowerCase().split(",").some((a) => a.trim() === name);
}

/** A position reports an SOS: `alarm` naming sos, or a true `sos` attribute. */
export function reportsSos(attributes: Attributes): boolean {
  if (alarms(attributes, "sos")) return true;
  const sos = attributes.sos;
  return sos === true || sos === 1 || sos === "1" || sos === "true";
}

/**
 * sos: once when a device starts reporting an SOS, not again while it keeps reporting it
 * (Traccar drops repeats of the previous position's alarms). Unlike most detectors it fires
 * on first sight: a missed SOS costs more than a repeated one.
 */
export const sos = edgeDetector({
  holds: ({ position }) => reportsSos(position.attributes),
  rise: ({ owner }) => ({ type: "sos", message: messagesFor(owner.lang).sos() }),
  firesOnFirstSight: true,
});

/**
 * unplugged: the device reports its external power cut (Traccar's `powerCut` alarm), once
 * until it stops reporting it; on first sight too, as an SOS: it is how a tracker being
 * removed shows.
 */
export const unplugged = edgeDetector({
  holds: ({ position }) => alarms(position.attributes, "powercut"),
  rise: ({ owner }) => ({ type: "unplugged", message: messagesFor(owner.lang).unplugged() }),
  firesOnFirstSight: true,
});

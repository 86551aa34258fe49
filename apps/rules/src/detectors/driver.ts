import { cardAsSent, rfidOf } from "@fleet/contracts";
import { UNCHANGED, quiet, type Detection, type Detector } from "../detector.js";
import { messagesFor } from "../messages.js";
import type { RuleAlert, RuleDriver, RuleUser } from "../model.js";

export interface DriverMemory {
  /** The last card the device read; null before it read any. */
  card: string | null;
}

/**
 * driver: a card other than the last one read (Traccar's DriverEventHandler). Positions
 * without a card keep the last one, so a device that reads the card only now and then does
 * not report a change each time. With drivers listed on the alert, only a change to one of
 * them fires.
 */
export const driver = cardDetector((shown, known, alert, owner) => {
  if (alert.drivers.length > 0 && !(known && alert.drivers.includes(known.id))) return undefined;
  return { type: "driver", message: messagesFor(owner.lang).driverChanged(known?.name ?? shown) };
});

/**
 * driver_unauthorized: a card other than the last one read that is not an authorised
 * driver's: with drivers listed on the alert, none of theirs; without, none of the owner's
 * drivers'.
 */
export const driverUnauthorized = cardDetector((shown, known, alert, owner) => {
  const authorised = known !== undefined && (alert.drivers.length === 0 || alert.drivers.includes(known.id));
  return authorised ? undefined : { type: "driver_unauthorized", message: messagesFor(owner.lang).driverUnauthorized(known?.name ?? shown) };
});

/**
 * A detector of the card a device reads: `change` says what a change of card records, given
 * the card as the device wrote it, the owner's driver holding it (if any), the alert and its owner. Positions
 * without a card keep the last one, and the first card a device is seen with is learnt.
 */
function cardDetector(change: (shown: string, known: RuleDriver | undefined, alert: RuleAlert, owner: RuleUser) => Detection | undefined): Detector<DriverMemory> {
  return ({ position, alert, device, owner }, previous) => {
    const card = rfidOf(position.attributes);
    if (card === undefined) return previous === undefined ? quiet({ card: null }) : UNCHANGED;
    if (previous?.card === card) return UNCHANGED;
    const next = { card };
    if (previous === undefined) return quiet(next);
    const known = (device.drivers.get(alert.userId) ?? []).find((d) => d.rfid !== "" && d.rfid === card);
    // Matched case-insensitively, shown as the device wrote it.
    const found = change(cardAsSent(position.attributes)!, known, alert, owner);
    return found ? { events: [found], next } : quiet(next);
  };
}

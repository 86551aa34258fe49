import { rfidOf } from "@fleet/contracts";
import { UNCHANGED, quiet, type Detector } from "../detector.js";
import { messagesFor } from "../messages.js";

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
export const driver: Detector<DriverMemory> = ({ position, alert, device, owner }, previous) => {
  const card = rfidOf(position.attributes);
  if (card === undefined) return previous === undefined ? quiet({ card: null }) : UNCHANGED;
  if (previous?.card === card) return UNCHANGED;
  const next = { card };
  if (previous === undefined) return quiet(next);
  const known = (device.drivers.get(alert.userId) ?? []).find((d) => d.rfid !== "" && d.rfid === card);
  if (alert.drivers.length > 0 && !(known && alert.drivers.includes(known.id))) return quiet(next);
  return { events: [{ type: "driver", message: messagesFor(owner.lang).driverChanged(known?.name ?? card) }], next };
};

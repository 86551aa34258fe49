import type { LiveState } from "@fleet/contracts";
import type { Db, User, UserDeviceRecord } from "@fleet/db";
import { liveDrivers } from "./live-driver.js";
import { liveSensors } from "./live-sensors.js";
import { liveServices } from "./live-services.js";

/** What the live list shows of a device beyond its record and position. */
export interface LiveExtras {
  /** The current driver's name, "-" when none. */
  driver: string;
  sensors: { name: string; value: string; show_in_popup: string }[];
  services: { name: string; value: string; expiring: boolean }[];
  engineStatus: boolean | null;
}

/**
 * Drivers, sensor readings and service states of a page of the live list, each loaded
 * for all its devices at once (one query per kind, not per device).
 */
export async function loadLiveExtras(db: Db, user: User, devices: readonly UserDeviceRecord[], states: ReadonlyMap<number, LiveState>): Promise<Map<number, LiveExtras>> {
  const [drivers, sensors] = await Promise.all([liveDrivers(db, user, devices), liveSensors(db, user, devices, states)]);
  const services = await liveServices(db, user, devices, states, sensors);
  const out = new Map<number, LiveExtras>();
  for (const d of devices) {
    const s = sensors.get(d.id);
    out.set(d.id, {
      driver: drivers.get(d.id) ?? "-",
      sensors: s?.readings ?? [],
      services: services.get(d.id) ?? [],
      engineStatus: s?.engineStatus ?? null,
    });
  }
  return out;
}

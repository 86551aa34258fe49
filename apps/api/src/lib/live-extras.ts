import type { LiveState } from "@fleet/contracts";
import type { User } from "@fleet/db";
import type { LiveRecord } from "./live-records.js";
import { deviceSensorReadings } from "./live-sensors.js";
import { serviceItems } from "./live-services.js";

/** What the live list shows of a device beyond its record and position. */
export interface LiveExtras {
  /** The current driver's name, "-" when none. */
  driver: string;
  sensors: { name: string; value: string; show_in_popup: string }[];
  services: { name: string; value: string; expiring: boolean }[];
  engineStatus: boolean | null;
}

/** A device's driver, sensor readings and service states, from its cached record and its latest state. */
export function liveExtras(user: User, record: LiveRecord, state: LiveState | undefined, nowMs: number): LiveExtras {
  const sensors = deviceSensorReadings(record.device, record.sensors, state);
  return {
    driver: record.driver ?? "-",
    sensors: sensors.readings,
    services: serviceItems(user, record.device, record.services, state, sensors, nowMs),
    engineStatus: sensors.engineStatus,
  };
}

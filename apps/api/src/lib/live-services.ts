import type { LiveState } from "@fleet/contracts";
import type { Service, User, UserDeviceRecord } from "@fleet/db";
import { clockOf } from "./clock.js";
import { serviceCounters, serviceLeftText, serviceState, todayIn, type ServiceNow } from "@fleet/sensors";
import type { DeviceSensorReadings } from "./live-sensors.js";

/**
 * Where a device stands for its services: its odometer and engine hours as the sensors
 * compute them (a device without `readings` counts as one without sensors) and today's
 * date in the user's timezone.
 */
export function serviceNow(user: User, device: UserDeviceRecord, state: LiveState | undefined, readings: DeviceSensorReadings | undefined, nowMs: number): ServiceNow {
  return { ...serviceCounters(device, readings?.definitions ?? [], state), today: todayIn(nowMs, clockOf(user)) };
}

/** The live list's entries of a device's services: what is left of each, and whether it is expiring. */
export function serviceItems(user: User, device: UserDeviceRecord, services: readonly Service[], state: LiveState | undefined, readings: DeviceSensorReadings, nowMs: number) {
  if (services.length === 0) return [];
  const now = serviceNow(user, device, state, readings, nowMs);
  return services.map((row) => {
    const s = serviceState(row, now, user.unitOfDistance);
    return { name: row.name, value: serviceLeftText(s), expiring: s.expiring };
  });
}

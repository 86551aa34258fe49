import type { LiveState } from "@fleet/contracts";
import type { Service, User, UserDeviceRecord } from "@fleet/db";
import { clockOf } from "./clock.js";
import { deviceEngineHours, deviceOdometerKm, sensorInput, serviceLeftText, serviceState, todayIn, type SensorInput, type ServiceNow } from "@fleet/sensors";
import type { DeviceSensorReadings } from "./live-sensors.js";

/** What the counters are computed from when the sensors gave no input: the live state, or zeros for a device that never reported. */
function inputOf(state: LiveState | undefined): SensorInput {
  return state ? sensorInput(state) : { attributes: {}, speedKmh: 0, odometerKm: 0, engineSeconds: 0 };
}

/**
 * Where a device stands for its services: its odometer and engine hours as the sensors
 * compute them (a device without `readings` counts as one without sensors) and today's
 * date in the user's timezone.
 */
export function serviceNow(user: User, device: UserDeviceRecord, state: LiveState | undefined, readings: DeviceSensorReadings | undefined, nowMs: number): ServiceNow {
  const definitions = readings?.definitions ?? [];
  const input = readings?.input ?? inputOf(state);
  return {
    odometerKm: deviceOdometerKm(definitions, input),
    engineHours: deviceEngineHours(device, definitions, input),
    today: todayIn(nowMs, clockOf(user)),
  };
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

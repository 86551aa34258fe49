import type { LiveState } from "@fleet/contracts";
import { sensorInput } from "./input.js";
import { odometerReadingKm, readSensor } from "./readings.js";
import type { SensorDefinition, SensorInput } from "./types.js";

/**
 * The device's odometer in km: its odometer sensor's reading (the first one that has a
 * value) when it has one, else the tracker's GPS distance total. Services expiring by
 * odometer count with this.
 */
export function deviceOdometerKm(sensors: readonly SensorDefinition[], input: SensorInput): number {
  for (const s of sensors) {
    if (s.type !== "odometer") continue;
    const km = odometerReadingKm(s, readSensor(s, input));
    if (km !== null) return km;
  }
  return input.odometerKm;
}

/**
 * The device's engine hours: its engine hours sensor's reading when the device takes
 * them from a tag (`engine_hours` = "engine_hours") and the sensor has a value, else the
 * tracker's engine-on time. Services expiring by engine hours count with this.
 */
export function deviceEngineHours(device: { engineHours: string }, sensors: readonly SensorDefinition[], input: SensorInput): number {
  if (device.engineHours === "engine_hours") {
    for (const s of sensors) {
      if (s.type !== "engine_hours") continue;
      const { value } = readSensor(s, input);
      if (typeof value === "number") return value;
    }
  }
  return input.engineSeconds / 3600;
}

/**
 * The counters a device's services count with, from its sensors over its latest live state;
 * a device that never reported counts 0 for both, as the vendor's "0" shows.
 */
export function serviceCounters(device: { engineHours: string }, sensors: readonly SensorDefinition[], state: LiveState | undefined): { odometerKm: number; engineHours: number } {
  const input = state ? sensorInput(state) : { attributes: {}, speedKmh: 0, odometerKm: 0, engineSeconds: 0 };
  return { odometerKm: deviceOdometerKm(sensors, input), engineHours: deviceEngineHours(device, sensors, input) };
}

import type { SensorDefinition, SensorInput } from "./types.js";

/**
 * The device's odometer in km: its odometer sensor's reading when it has one, else the
 * tracker's GPS distance total. Services expiring by odometer count with this.
 * (First version: GPS total only; the sensor-aware version comes with the sensor calculations.)
 */
export function deviceOdometerKm(_sensors: readonly SensorDefinition[], input: SensorInput): number {
  return input.odometerKm;
}

/**
 * The device's engine hours: its engine hours sensor's reading when the device takes them
 * from a tag, else the tracker's engine-on time. Services expiring by engine hours count with this.
 * (First version: engine-on time only; the sensor-aware version comes with the sensor calculations.)
 */
export function deviceEngineHours(_device: { engineHours: string }, _sensors: readonly SensorDefinition[], input: SensorInput): number {
  return input.engineSeconds / 3600;
}

import type { LiveState } from "@fleet/contracts";
import type { UserDeviceRecord } from "@fleet/db";
import { engineOn, readSensor, sensorInput, type SensorDefinition, type SensorInput } from "@fleet/sensors";

export interface DeviceSensorReadings {
  readings: { name: string; value: string; show_in_popup: string }[];
  engineStatus: boolean | null;
  /** The device's sensors, for the service states computed after. */
  definitions: readonly SensorDefinition[];
  /** What the readings were computed from; undefined when the device never reported. */
  input: SensorInput | undefined;
}

/** A device's engine detection settings as the calculations take them. */
export function engineDevice(d: Pick<UserDeviceRecord, "detectEngine" | "minMovingSpeed">) {
  return { detectEngine: d.detectEngine, minMovingSpeed: Number(d.minMovingSpeed) };
}

/** One device's readings and engine status from its sensors and latest live state. */
export function deviceSensorReadings(device: Pick<UserDeviceRecord, "detectEngine" | "minMovingSpeed">, definitions: readonly SensorDefinition[], state: LiveState | undefined): DeviceSensorReadings {
  const input = state ? sensorInput(state) : undefined;
  return {
    // Every sensor, popup or not: the item carries show_in_popup so the client can choose.
    readings: definitions.map((s) => ({ name: s.name, value: readSensor(s, input).text, show_in_popup: s.showInPopup ? "1" : "0" })),
    // The tracker's engine state at the fix, kept from before it when the sensor read nothing there.
    engineStatus: input ? engineOn(engineDevice(device), definitions, input, state?.engineOn) : null,
    definitions,
    input,
  };
}

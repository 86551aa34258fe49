import type { LiveState } from "@fleet/contracts";
import { listSensorsOfDevices, type Db, type User, type UserDeviceRecord } from "@fleet/db";
import { engineOn, readSensor, sensorInput, type SensorDefinition, type SensorInput } from "@fleet/sensors";

export interface DeviceSensorReadings {
  readings: { name: string; value: string; show_in_popup: string }[];
  engineStatus: boolean | null;
  /** The device's sensors, for the service states computed after. */
  definitions: SensorDefinition[];
  /** What the readings were computed from; undefined when the device never reported. */
  input: SensorInput | undefined;
}

/** A device's engine detection settings as the calculations take them. */
export function engineDevice(d: Pick<UserDeviceRecord, "detectEngine" | "minMovingSpeed">) {
  return { detectEngine: d.detectEngine, minMovingSpeed: Number(d.minMovingSpeed) };
}

/** One device's readings and engine status from its sensors and latest live state. */
export function deviceSensorReadings(device: Pick<UserDeviceRecord, "detectEngine" | "minMovingSpeed">, definitions: SensorDefinition[], state: LiveState | undefined): DeviceSensorReadings {
  const input = state ? sensorInput(state) : undefined;
  return {
    // Every sensor, popup or not: the item carries show_in_popup so the client can choose.
    readings: definitions.map((s) => ({ name: s.name, value: readSensor(s, input).text, show_in_popup: s.showInPopup ? "1" : "0" })),
    engineStatus: input ? engineOn(engineDevice(device), definitions, input) : null,
    definitions,
    input,
  };
}

/** device id → its sensors' readings, all devices' sensors loaded in one query. */
export async function liveSensors(db: Db, _user: User, devices: readonly UserDeviceRecord[], states: ReadonlyMap<number, LiveState>): Promise<Map<number, DeviceSensorReadings>> {
  const byDevice = new Map<number, SensorDefinition[]>();
  for (const s of await listSensorsOfDevices(db, devices.map((d) => d.id))) {
    const list = byDevice.get(s.deviceId);
    if (list) list.push(s);
    else byDevice.set(s.deviceId, [s]);
  }
  const out = new Map<number, DeviceSensorReadings>();
  for (const d of devices) out.set(d.id, deviceSensorReadings(d, byDevice.get(d.id) ?? [], states.get(d.id)));
  return out;
}

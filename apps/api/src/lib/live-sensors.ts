import type { LiveState } from "@fleet/contracts";
import type { Db, User, UserDeviceRecord } from "@fleet/db";
import type { SensorDefinition, SensorInput } from "@fleet/sensors";

export interface DeviceSensorReadings {
  readings: { name: string; value: string; show_in_popup: string }[];
  engineStatus: boolean | null;
  /** The device's sensors, for the service states computed after. */
  definitions: SensorDefinition[];
  /** What the readings were computed from; undefined when the device never reported. */
  input: SensorInput | undefined;
}

/** device id → its sensors' readings. (Sensor readings land with the sensors endpoints.) */
export async function liveSensors(
  _db: Db,
  _user: User,
  _devices: readonly UserDeviceRecord[],
  _states: ReadonlyMap<number, LiveState>,
): Promise<Map<number, DeviceSensorReadings>> {
  return new Map();
}

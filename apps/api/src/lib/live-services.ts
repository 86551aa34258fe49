import type { LiveState } from "@fleet/contracts";
import type { Db, User, UserDeviceRecord } from "@fleet/db";
import type { DeviceSensorReadings } from "./live-sensors.js";

/** device id → its services' states. (Services land with the services endpoints.) */
export async function liveServices(
  _db: Db,
  _user: User,
  _devices: readonly UserDeviceRecord[],
  _states: ReadonlyMap<number, LiveState>,
  _sensors: ReadonlyMap<number, DeviceSensorReadings>,
): Promise<Map<number, { name: string; value: string; expiring: boolean }[]>> {
  return new Map();
}

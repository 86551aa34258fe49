import type { Db, User, UserDeviceRecord } from "@fleet/db";

/** device id → current driver's name, for the devices that have one. (Drivers land with the drivers endpoints.) */
export async function liveDrivers(_db: Db, _user: User, _devices: readonly UserDeviceRecord[]): Promise<Map<number, string>> {
  return new Map();
}

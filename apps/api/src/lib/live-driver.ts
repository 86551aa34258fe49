import { currentDriverNames, type Db, type User, type UserDeviceRecord } from "@fleet/db";

/** device id → current driver's name, for the devices that have one. */
export async function liveDrivers(db: Db, user: User, devices: readonly UserDeviceRecord[]): Promise<Map<number, string>> {
  // The pivots in hand already say whether any device has a driver: most polls need no query.
  if (!devices.some((d) => d.pivot.currentDriverId !== null)) return new Map();
  const names = await currentDriverNames(db, user.id);
  const out = new Map<number, string>();
  for (const d of devices) {
    const name = names.get(d.id);
    if (name !== undefined) out.set(d.id, name);
  }
  return out;
}

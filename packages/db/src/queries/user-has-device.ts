import { and, eq } from "drizzle-orm";
import type { Queryable } from "../client.js";
import { isRowId } from "../row-id.js";
import { devices } from "../schema/devices.js";
import { userDevices } from "../schema/user-devices.js";

/** Whether the device is one the user has and not deleted: what every device-scoped read and write checks first. */
export async function userHasDevice(q: Queryable, userId: number, deviceId: number): Promise<boolean> {
  if (!isRowId(deviceId)) return false;
  const [row] = await q
    .select({ id: devices.id })
    .from(userDevices)
    .innerJoin(devices, eq(devices.id, userDevices.deviceId))
    .where(and(eq(userDevices.userId, userId), eq(userDevices.deviceId, deviceId), eq(devices.deleted, false)));
  return row !== undefined;
}

import { asc, eq } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { deviceGroups, type DeviceGroup } from "../schema/device-groups.js";

/** The user's device groups, by id. */
export function listDeviceGroups(db: Db | Tx, userId: number): Promise<DeviceGroup[]> {
  return db.select().from(deviceGroups).where(eq(deviceGroups.userId, userId)).orderBy(asc(deviceGroups.id));
}

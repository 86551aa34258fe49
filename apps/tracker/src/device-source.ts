import { findDeviceByImei, listDevicesChangedSince, type Db, type TrackedDevice } from "@fleet/db";
import type { DeviceInfo, DeviceSource } from "./handlers/device-directory.js";

const info = (d: TrackedDevice): DeviceInfo => ({ id: d.id, imei: d.imei, userIds: d.userIds, minMovingSpeed: Number(d.minMovingSpeed) });

/** The records store as the tracker's device directory sees it. */
export function dbDeviceSource(db: Db): DeviceSource {
  return {
    async findByImei(imei) {
      const d = await findDeviceByImei(db, imei);
      return d ? info(d) : undefined;
    },
    async changedSince(since) {
      const rows = await listDevicesChangedSince(db, since);
      let newest: Date | undefined;
      for (const d of rows) if (!newest || d.updatedAt > newest) newest = d.updatedAt;
      return { devices: rows.map((d) => ({ ...info(d), removed: d.deleted })), newest };
    },
  };
}

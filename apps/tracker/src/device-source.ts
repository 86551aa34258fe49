import { databaseNow, findDeviceByImei, groupByDevice, listDevicesChangedSince, listEngineSensorsChangedSince, listEngineSensorsOfDevices, type Db, type Sensor, type TrackedDevice } from "@fleet/db";
import { engineSensorOf } from "@fleet/sensors";
import type { DeviceInfo, DeviceSource } from "./handlers/device-directory.js";

function info(d: TrackedDevice, engineSensors: readonly Sensor[]): DeviceInfo {
  const sensor = engineSensorOf(d.detectEngine, engineSensors);
  return {
    id: d.id,
    imei: d.imei,
    userIds: d.userIds,
    minMovingSpeed: Number(d.minMovingSpeed),
    detectEngine: d.detectEngine,
    // Only what engine detection reads, so the cache stays small.
    engineSensor: sensor ? { type: sensor.type, tagName: sensor.tagName, onValue: sensor.onValue, offValue: sensor.offValue } : null,
  };
}

/** The records store as the tracker's device directory sees it: devices with what engine detection needs. */
export function dbDeviceSource(db: Db): DeviceSource {
  return {
    async findByImei(imei) {
      const d = await findDeviceByImei(db, imei);
      return d ? info(d, await listEngineSensorsOfDevices(db, [d.id])) : undefined;
    },
    async changedSince(since) {
      // The clock first: whatever commits after these reads began is stamped after it, less the overlap.
      const readAt = await databaseNow(db);
      const [rows, sensors] = await Promise.all([listDevicesChangedSince(db, since), listEngineSensorsChangedSince(db, since)]);
      const sensorsOf = groupByDevice(sensors);
      return { devices: rows.map((d) => ({ ...info(d, sensorsOf.get(d.id) ?? []), removed: d.deleted })), readAt };
    },
  };
}

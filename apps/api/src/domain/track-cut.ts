import { rfidOf, type HistoryRow } from "@fleet/contracts";
import type { Sensor, UserDeviceRecord } from "@fleet/db";
import type { StoredRow } from "@fleet/history";
import { engineSensorOf, readSensor, type SensorDefinition } from "@fleet/sensors";
import type { SegmentOptions } from "@fleet/trips";

/*
 * How a device's track is cut into drives and stops, for get_history and the reports alike,
 * so the history screen and a report never disagree.
 */

/** A numeric sensor's number at a fix, or null. */
export function numberAt(def: SensorDefinition, row: HistoryRow): number | null {
  const { value } = readSensor(def, { attributes: row.attributes, speedKmh: row.speedKmh, odometerKm: 0, engineSeconds: 0 });
  return typeof value === "number" ? value : null;
}

export const isFuelLevel = (s: Sensor) => s.type === "fuel_tank" || s.type === "fuel_tank_calibration";

/** The sensors a device's track is cut by, besides its speeds: engine state, engine-hours counter, fuel level. */
export function cutSensors(device: Pick<UserDeviceRecord, "detectEngine" | "engineHours">, sensors: readonly Sensor[]) {
  return {
    hasEngineSensor: engineSensorOf(device.detectEngine, sensors) !== undefined,
    hours: device.engineHours === "engine_hours" ? sensors.find((s) => s.type === "engine_hours") : undefined,
    fuel: sensors.find(isFuelLevel),
  };
}

/** How the device's track is cut: its moving speed and engine sensor, its engine-hours and fuel sensors, and the stop length asked for. */
export function segmentOptions(device: UserDeviceRecord, sensors: readonly Sensor[], stopsSeconds: number | undefined, rows: readonly StoredRow[]): SegmentOptions {
  // Only positions whose stored attributes name a card are parsed for it: most carry none.
  const carded = new Set<HistoryRow>(rows.filter((r) => r.attributesHold('"rfid"') || r.attributesHold('"driveruniqueid"')));
  const { hasEngineSensor, hours, fuel } = cutSensors(device, sensors);
  return {
    minMovingSpeedKmh: Number(device.minMovingSpeed),
    hasEngineSensor,
    minStopMs: (stopsSeconds ?? 180) * 1000,
    ...(hours ? { engineHoursAt: (row: HistoryRow) => numberAt(hours, row) } : {}),
    ...(fuel ? { fuel: { levelAt: (row: HistoryRow) => numberAt(fuel, row), minFilling: Number(device.minFuelFillings), minTheft: Number(device.minFuelThefts) } } : {}),
    driverKeyAt: (row) => (carded.has(row) ? (rfidOf(row.attributes) ?? null) : null),
  };
}

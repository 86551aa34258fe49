import type { LiveState } from "@fleet/contracts";
import { listServicesOfDevices, type Db, type User, type UserDeviceRecord } from "@fleet/db";
import { deviceEngineHours, deviceOdometerKm, sensorInput, serviceLeftText, serviceState, todayIn, type SensorInput, type ServiceNow } from "@fleet/sensors";
import type { DeviceSensorReadings } from "./live-sensors.js";

/** What the counters are computed from when the sensors gave no input: the live state, or zeros for a device that never reported. */
function inputOf(state: LiveState | undefined): SensorInput {
  return state ? sensorInput(state) : { attributes: {}, speedKmh: 0, odometerKm: 0, engineSeconds: 0 };
}

/**
 * Where a device stands for its services: its odometer and engine hours as the sensors
 * compute them (a device without an entry in `readings` counts as one without sensors)
 * and today's date in the user's timezone.
 */
export function serviceNow(user: User, device: UserDeviceRecord, state: LiveState | undefined, readings: DeviceSensorReadings | undefined, nowMs: number): ServiceNow {
  const definitions = readings?.definitions ?? [];
  const input = readings?.input ?? inputOf(state);
  return {
    odometerKm: deviceOdometerKm(definitions, input),
    engineHours: deviceEngineHours(device, definitions, input),
    today: todayIn(nowMs, user.timezoneId),
  };
}

/** device id → its services' states, for all the devices in one query. */
export async function liveServices(
  db: Db,
  user: User,
  devices: readonly UserDeviceRecord[],
  states: ReadonlyMap<number, LiveState>,
  sensors: ReadonlyMap<number, DeviceSensorReadings>,
): Promise<Map<number, { name: string; value: string; expiring: boolean }[]>> {
  const out = new Map<number, { name: string; value: string; expiring: boolean }[]>();
  const rows = await listServicesOfDevices(db, user.id, devices.map((d) => d.id));
  if (rows.length === 0) return out;
  const byId = new Map(devices.map((d) => [d.id, d]));
  const nowMs = Date.now();
  const counters = new Map<number, ServiceNow>();
  for (const row of rows) {
    const device = byId.get(row.deviceId);
    if (!device) continue;
    let now = counters.get(device.id);
    if (!now) counters.set(device.id, (now = serviceNow(user, device, states.get(device.id), sensors.get(device.id), nowMs)));
    const state = serviceState(row, now, user.unitOfDistance);
    const list = out.get(device.id) ?? [];
    list.push({ name: row.name, value: serviceLeftText(state), expiring: state.expiring });
    out.set(device.id, list);
  }
  return out;
}

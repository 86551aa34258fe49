import { InvalidInputError, KM_PER_MILE, NotFoundError, SensorTypeLabels, isTruthy, type AddSensorBody, type EditSensorBody, type SensorRecord } from "@fleet/contracts";
import { createUserSensor, deleteUserSensor, findUserDevice, findUserSensor, pageDeviceSensors, updateUserSensor, type Db, type Sensor, type SensorValues, type User, type UserDeviceRecord } from "@fleet/db";
import type { LiveStore } from "@fleet/live";
import { checkSensorForm, readSensor, sensorInput, type SensorFields, type SensorInput } from "@fleet/sensors";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { queryOrBody } from "../lib/query-or-body.js";

/*
 * A device's sensors: definitions the live list reads the device's state through. A
 * sensor belongs to its device, so every user who sees the device sees and edits it.
 */

/** Where the readings come from: the live store's latest state of a device. */
export type LiveStates = Pick<LiveStore, "getStates">;

const str = (n: number | null) => (n === null ? null : String(n));

async function stateOf(live: LiveStates, deviceId: number) {
  return (await live.getStates([deviceId])).get(deviceId);
}

async function inputOf(live: LiveStates, deviceId: number): Promise<SensorInput | undefined> {
  const state = await stateOf(live, deviceId);
  return state ? sensorInput(state) : undefined;
}

/** The user's device, or the 404 "Device not found." (services of a device answer alike). */
export async function userDevice(db: Db, user: User, deviceId: number): Promise<UserDeviceRecord> {
  const device = await findUserDevice(db, user.id, deviceId);
  if (!device) throw new NotFoundError("Device");
  return device;
}

async function userSensor(db: Db, user: User, sensorId: number): Promise<Sensor> {
  const sensor = await findUserSensor(db, user.id, sensorId);
  if (!sensor) throw new NotFoundError("Sensor");
  return sensor;
}

/** What the odometer_value field shows: a virtual odometer's current reading, so a form sent back unchanged keeps it. */
function odometerValueText(row: Sensor, input: SensorInput | undefined): string | null {
  if (row.odometerValueBy !== "virtual_odometer" || !input) return str(row.odometerValue);
  const { value } = readSensor(row, input);
  return typeof value === "number" ? String(Math.round(value * 1000) / 1000) : str(row.odometerValue);
}

/** A sensor row as the spec's Sensor record: ids and numbers as strings, unused fields null. */
export function record(row: Sensor, input: SensorInput | undefined): SensorRecord {
  return {
    id: String(row.id),
    user_id: String(row.userId),
    device_id: String(row.deviceId),
    name: row.name,
    type: row.type,
    tag_name: row.tagName,
    add_to_history: row.addToHistory ? "1" : "0",
    on_value: row.onValue ?? "",
    off_value: row.offValue ?? "",
    shown_value_by: row.shownValueBy,
    fuel_tank_name: row.fuelTankName,
    full_tank: str(row.fullTank),
    full_tank_value: str(row.fullTankValue),
    min_value: str(row.minValue),
    max_value: str(row.maxValue),
    formula: row.formula,
    odometer_value_by: row.odometerValueBy,
    odometer_value: odometerValueText(row, input),
    odometer_value_unit: row.odometerValueUnit,
    temperature_max: null,
    temperature_max_value: null,
    temperature_min: null,
    temperature_min_value: null,
    value: readSensor(row, input).text,
    value_formula: row.formula ? "1" : "0",
    show_in_popup: row.showInPopup ? "1" : "0",
    unit_of_measurement: row.unitOfMeasurement,
    on_tag_value: null,
    off_tag_value: null,
    on_type: null,
    off_type: null,
    calibrations: row.calibrations,
  };
}

/** The body's checked fields; every bad field named at once. */
function fieldsOf(b: AddSensorBody): SensorFields {
  const checked = checkSensorForm({ ...b, show_in_popup: isTruthy(b.show_in_popup), add_to_history: isTruthy(b.add_to_history) });
  if (!checked.ok) throw new InvalidInputError(checked.errors);
  return checked.fields;
}

/** A virtual odometer's set value in another unit: switching km and mi keeps the distance it stands for. */
function inUnit(value: number, from: string, to: string): number {
  if (from === to) return value;
  if (from === "mi" && to === "km") return value * KM_PER_MILE;
  if (from === "km" && to === "mi") return value / KM_PER_MILE;
  return value;
}

/**
 * The row's values. A virtual odometer reads the value set plus the GPS distance driven
 * since, so setting odometer_value also records the device's current GPS total as its
 * baseline. An edit without odometer_value keeps a virtual odometer's reading as it is, in
 * the unit it is now read in.
 */
async function rowValues(live: LiveStates, deviceId: number, fields: SensorFields, previous?: Sensor): Promise<SensorValues> {
  if (fields.odometerValueBy !== "virtual_odometer") return { ...fields, odometerValue: null, odometerBaselineKm: null };
  const keep = fields.odometerValue === null && previous?.odometerValueBy === "virtual_odometer" && previous.odometerValue !== null && previous.odometerBaselineKm !== null;
  if (keep) return { ...fields, odometerValue: inUnit(previous.odometerValue!, previous.odometerValueUnit, fields.odometerValueUnit), odometerBaselineKm: previous.odometerBaselineKm };
  return { ...fields, odometerValue: fields.odometerValue ?? 0, odometerBaselineKm: (await stateOf(live, deviceId))?.odometerKm ?? 0 };
}

export async function addData(db: Db, user: User, deviceId: number) {
  const device = await userDevice(db, user, deviceId);
  return { sensors: SensorTypeLabels, device_id: device.id, route: "add_sensor", status: 1 as const };
}

/** Creates a sensor on the device named in the query or the body (the two must agree). */
export async function add(db: Db, live: LiveStates, user: User, inQuery: number | undefined, body: AddSensorBody) {
  const given = queryOrBody("device_id", inQuery, body.device_id);
  if (given.error !== undefined) throw new InvalidInputError({ device_id: given.error });
  const deviceId = given.value;
  await userDevice(db, user, deviceId);
  const values = await rowValues(live, deviceId, fieldsOf(body));
  // Undefined when the device was deleted or unshared between the check and the write.
  const created = await createUserSensor(db, user.id, deviceId, values);
  if (!created) throw new NotFoundError("Device");
  return { status: 1 as const, id: created.id };
}

export async function editData(db: Db, live: LiveStates, user: User, sensorId: number) {
  const sensor = await userSensor(db, user, sensorId);
  const item = record(sensor, await inputOf(live, sensor.deviceId));
  return { sensors: SensorTypeLabels, device_id: sensor.deviceId, item, route: "edit_sensor", status: 1 as const };
}

/** Rewrites the sensor from the whole body; a sensor stays on its device. */
export async function edit(db: Db, live: LiveStates, user: User, sensorId: number, body: EditSensorBody): Promise<void> {
  const sensor = await userSensor(db, user, sensorId);
  if (body.device_id !== undefined && body.device_id !== sensor.deviceId) throw new InvalidInputError({ device_id: "A sensor cannot move to another device." });
  const values = await rowValues(live, sensor.deviceId, fieldsOf(body), sensor);
  if (!(await updateUserSensor(db, user.id, sensor.id, values))) throw new NotFoundError("Sensor");
}

export async function destroy(db: Db, user: User, sensorId: number): Promise<void> {
  if (!(await deleteUserSensor(db, user.id, sensorId))) throw new NotFoundError("Sensor");
}

/** A page of the device's sensors, each with its type's label and current reading; `url` is the request's, for the page links. */
export async function list(db: Db, live: LiveStates, user: User, query: { device_id: number; page?: number; per_page?: number }, url: string) {
  const device = await userDevice(db, user, query.device_id);
  const page = pageRequest(query);
  const [{ total, rows }, input] = await Promise.all([pageDeviceSensors(db, device.id, pageWindow(page)), inputOf(live, device.id)]);
  const data = rows.map((row) => ({ ...record(row, input), type_title: SensorTypeLabels[row.type] }));
  return { ...paginate({ url }, page, total, data), status: 1 as const };
}

import {
  AddSensorBodySchema,
  AddSensorDataResponseSchema,
  AddSensorQuerySchema,
  AddSensorResponseSchema,
  EditSensorBodySchema,
  EditSensorDataResponseSchema,
  FailureResponses,
  GetSensorsQuerySchema,
  GetSensorsResponseSchema,
  OkSchema,
  SensorDeviceQuerySchema,
  SensorIdQuerySchema,
  SensorTypeLabels,
  isTruthy,
  type AddSensorBody,
  type SensorRecord,
} from "@fleet/contracts";
import { createUserSensor, deleteUserSensor, findUserDevice, findUserSensor, pageDeviceSensors, updateUserSensor, type Sensor, type SensorValues } from "@fleet/db";
import { checkSensorForm, readSensor, sensorInput, type SensorFields, type SensorInput } from "@fleet/sensors";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { queryOrBody } from "../lib/query-or-body.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { currentUser } from "../plugins/app/auth.js";

const TAGS = ["Sensor"];

const str = (n: number | null) => (n === null ? null : String(n));

/** What the odometer_value field shows: a virtual odometer's current reading, so a form sent back unchanged keeps it. */
function odometerValueText(row: Sensor, input: SensorInput | undefined): string | null {
  if (row.odometerValueBy !== "virtual_odometer" || !input) return str(row.odometerValue);
  const { value } = readSensor(row, input);
  return typeof value === "number" ? String(Math.round(value * 1000) / 1000) : str(row.odometerValue);
}

/** A sensor row as the spec's Sensor record: ids and numbers as strings, unused fields null. */
function sensorRecord(row: Sensor, input: SensorInput | undefined): SensorRecord {
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

/** The body's checked fields, or a 422 already sent. */
function checkBody(reply: FastifyReply, b: AddSensorBody): SensorFields | undefined {
  const checked = checkSensorForm({ ...b, show_in_popup: isTruthy(b.show_in_popup), add_to_history: isTruthy(b.add_to_history) });
  if (checked.ok) return checked.fields;
  void reply.code(422).send({ status: 0, errors: checked.errors });
  return undefined;
}

/**
 * The row's values. A virtual odometer reads the value set plus the GPS distance driven
 * since, so setting odometer_value also records the device's current GPS total as its
 * baseline. An edit without odometer_value keeps a virtual odometer's reading as it is.
 */
async function rowValues(fields: SensorFields, currentKm: () => Promise<number>, previous?: Sensor): Promise<SensorValues> {
  if (fields.odometerValueBy !== "virtual_odometer") return { ...fields, odometerValue: null, odometerBaselineKm: null };
  const keep = fields.odometerValue === null && previous?.odometerValueBy === "virtual_odometer" && previous.odometerValue !== null && previous.odometerBaselineKm !== null;
  if (keep) return { ...fields, odometerValue: previous.odometerValue, odometerBaselineKm: previous.odometerBaselineKm };
  return { ...fields, odometerValue: fields.odometerValue ?? 0, odometerBaselineKm: await currentKm() };
}

export const sensorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live } = app.services;

  const stateOf = async (deviceId: number) => (await live.getStates([deviceId])).get(deviceId);
  const inputOf = async (deviceId: number) => {
    const state = await stateOf(deviceId);
    return state ? sensorInput(state) : undefined;
  };
  const odometerKmOf = (deviceId: number) => async () => (await stateOf(deviceId))?.odometerKm ?? 0;

  app.get(
    "/add_sensor_data",
    { schema: { tags: TAGS, summary: "The sensor types, to create a sensor", querystring: SensorDeviceQuerySchema, response: { 200: AddSensorDataResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const device = await findUserDevice(db, currentUser(req).id, req.query.device_id);
      if (!device) return notFound(reply, "Device");
      return { sensors: SensorTypeLabels, device_id: device.id, route: "add_sensor", status: 1 as const };
    },
  );

  app.post(
    "/add_sensor",
    {
      schema: {
        tags: TAGS,
        summary: "Create a sensor (device_id in the query or the body)",
        querystring: AddSensorQuerySchema,
        body: AddSensorBodySchema,
        response: { 200: AddSensorResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const given = queryOrBody("device_id", req.query.device_id, req.body.device_id);
      if (given.error !== undefined) return reply.code(422).send({ status: 0, errors: { device_id: given.error } });
      const deviceId = given.value;
      if (!(await findUserDevice(db, user.id, deviceId))) return notFound(reply, "Device");
      const fields = checkBody(reply, req.body);
      if (!fields) return reply;
      const created = await createUserSensor(db, user.id, deviceId, await rowValues(fields, odometerKmOf(deviceId)));
      // The device was deleted or unshared between the check and the write.
      if (!created) return notFound(reply, "Device");
      await live.markChanged([{ deviceId, userIds: created.userIds }]);
      return { status: 1 as const, id: created.sensor.id };
    },
  );

  app.get(
    "/edit_sensor_data",
    { schema: { tags: TAGS, summary: "A sensor and the sensor types, to edit it", querystring: SensorIdQuerySchema, response: { 200: EditSensorDataResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const sensor = await findUserSensor(db, currentUser(req).id, req.query.sensor_id);
      if (!sensor) return notFound(reply, "Sensor");
      const item = sensorRecord(sensor, await inputOf(sensor.deviceId));
      return { sensors: SensorTypeLabels, device_id: sensor.deviceId, item, route: "edit_sensor", status: 1 as const };
    },
  );

  app.post(
    "/edit_sensor",
    {
      schema: {
        tags: TAGS,
        summary: "Rewrite a sensor: the body is the whole sensor, fields left out are cleared",
        querystring: SensorIdQuerySchema,
        body: EditSensorBodySchema,
        response: { 200: OkSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const sensor = await findUserSensor(db, user.id, req.query.sensor_id);
      if (!sensor) return notFound(reply, "Sensor");
      if (req.body.device_id !== undefined && req.body.device_id !== sensor.deviceId) {
        return reply.code(422).send({ status: 0, errors: { device_id: "A sensor cannot move to another device." } });
      }
      const fields = checkBody(reply, req.body);
      if (!fields) return reply;
      const updated = await updateUserSensor(db, user.id, sensor.id, await rowValues(fields, odometerKmOf(sensor.deviceId), sensor));
      if (!updated) return notFound(reply, "Sensor");
      await live.markChanged([{ deviceId: sensor.deviceId, userIds: updated.userIds }]);
      return { status: 1 as const };
    },
  );

  app.get(
    "/destroy_sensor",
    { schema: { tags: TAGS, summary: "Delete a sensor", querystring: SensorIdQuerySchema, response: { 200: OkSchema, ...FailureResponses } } },
    async (req, reply) => {
      const deleted = await deleteUserSensor(db, currentUser(req).id, req.query.sensor_id);
      if (!deleted) return notFound(reply, "Sensor");
      await live.markChanged([{ deviceId: deleted.sensor.deviceId, userIds: deleted.userIds }]);
      return { status: 1 as const };
    },
  );

  app.get(
    "/get_sensors",
    { schema: { tags: TAGS, summary: "A device's sensors, paged", querystring: GetSensorsQuerySchema, response: { 200: GetSensorsResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const device = await findUserDevice(db, currentUser(req).id, req.query.device_id);
      if (!device) return notFound(reply, "Device");
      const page = pageRequest(req.query);
      const [{ total, rows }, input] = await Promise.all([pageDeviceSensors(db, device.id, pageWindow(page)), inputOf(device.id)]);
      const data = rows.map((row) => ({ ...sensorRecord(row, input), type_title: SensorTypeLabels[row.type] }));
      return { ...paginate(req, page, total, data), status: 1 as const };
    },
  );
};

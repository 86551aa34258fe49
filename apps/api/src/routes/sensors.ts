import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as sensors from "../domain/sensors.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const sensorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live } = app.services;
  const api = endpoints(app, ["Sensor"]);

  api.get("/add_sensor_data", { summary: "The sensor types, to create a sensor", query: contracts.SensorDeviceQuerySchema, response: contracts.AddSensorDataResponseSchema }, ({ user, query }) => sensors.addData(db, user, query.device_id));
  api.post(
    "/add_sensor",
    { summary: "Create a sensor (device_id in the query or the body)", query: contracts.AddSensorQuerySchema, body: contracts.AddSensorBodySchema, response: contracts.AddSensorResponseSchema },
    ({ user, query, body }) => sensors.add(db, live, user, query.device_id, body),
  );
  api.get("/edit_sensor_data", { summary: "A sensor and the sensor types, to edit it", query: contracts.SensorIdQuerySchema, response: contracts.EditSensorDataResponseSchema }, ({ user, query }) =>
    sensors.editData(db, live, user, query.sensor_id),
  );
  api.post(
    "/edit_sensor",
    { summary: "Rewrite a sensor: the body is the whole sensor, fields left out are cleared", query: contracts.SensorIdQuerySchema, body: contracts.EditSensorBodySchema, response: contracts.OkSchema },
    async ({ user, query, body }) => (await sensors.edit(db, live, user, query.sensor_id, body), OK),
  );
  api.get("/destroy_sensor", { summary: "Delete a sensor", query: contracts.SensorIdQuerySchema, response: contracts.OkSchema }, async ({ user, query }) => (await sensors.destroy(db, user, query.sensor_id), OK));
  api.get("/get_sensors", { summary: "A device's sensors, paged", query: contracts.GetSensorsQuerySchema, response: contracts.GetSensorsResponseSchema }, ({ user, query, req }) => sensors.list(db, live, user, query, req.url));
};

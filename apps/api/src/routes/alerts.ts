import {
  AddAlertBodySchema,
  AddAlertDataResponseSchema,
  AddAlertResponseSchema,
  AlertIdQuerySchema,
  AlertOkResponseSchema,
  ChangeActiveAlertSchema,
  EditAlertBodySchema,
  EditAlertDataResponseSchema,
  GetAlertsResponseSchema,
  GetProtocolsResponseSchema,
  SetAlertDevicesBodySchema,
  SetAlertDevicesQuerySchema,
} from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as alerts from "../domain/alerts.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const alertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const api = endpoints(app, ["Alert"]);

  api.get("/get_protocols", { summary: "Device protocols by event type: custom events (1) and system events (2)", response: GetProtocolsResponseSchema }, alerts.protocols);
  api.get("/get_alerts", { summary: "The user's alerts, by id", response: GetAlertsResponseSchema }, ({ user }) => alerts.list(db, user));
  api.get("/add_alert_data", { summary: "Everything an alert can name and choose, to create one", response: AddAlertDataResponseSchema }, ({ user }) => alerts.addData(db, user));
  api.post("/add_alert", { summary: "Create an alert; the chosen type's attributes come as fields of their own", body: AddAlertBodySchema, response: AddAlertResponseSchema }, ({ user, body }) => alerts.add(db, user, body));
  api.get("/edit_alert_data", { summary: "An alert as saved, with add_alert_data's lists", query: AlertIdQuerySchema, response: EditAlertDataResponseSchema }, ({ user, query }) => alerts.editData(db, user, query.alert_id));
  api.post(
    "/edit_alert",
    {
      summary: "Update an alert; optional fields left out keep their values (the type's attributes too while the type stays)",
      body: EditAlertBodySchema,
      response: AlertOkResponseSchema,
    },
    async ({ user, body }) => (await alerts.edit(db, user, body), OK),
  );
  api.get("/destroy_alert", { summary: "Delete an alert", query: AlertIdQuerySchema, response: AlertOkResponseSchema }, async ({ user, query }) => (await alerts.destroy(db, user, query.alert_id), OK));
  api.either(
    "/change_active_alert",
    { summary: "Turn one or more alerts on or off, all or nothing", input: ChangeActiveAlertSchema, response: AlertOkResponseSchema },
    async ({ user, input }) => (await alerts.changeActive(db, user, input), OK),
  );
  // Not `either`: the POST form keeps alert_id in the query and only the devices in the body.
  const setDevices = { summary: "Replace the devices an alert watches", response: AlertOkResponseSchema };
  api.get("/set_alert_devices", { ...setDevices, query: SetAlertDevicesQuerySchema }, async ({ user, query }) => (await alerts.setDevices(db, user, query.alert_id, query.devices), OK));
  api.post("/set_alert_devices", { ...setDevices, query: AlertIdQuerySchema, body: SetAlertDevicesBodySchema }, async ({ user, query, body }) => (await alerts.setDevices(db, user, query.alert_id, body.devices), OK));
};

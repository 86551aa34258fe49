import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as alerts from "../domain/alerts.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const alertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, rulesNotices } = app.services;
  // Every write here changes what the rules service checks for the user; it is told once the write resolved.
  const api = endpoints(app, ["Alert"]);

  api.get("/get_protocols", { summary: "Device protocols by event type: custom events (1) and system events (2)", response: contracts.GetProtocolsResponseSchema }, alerts.protocols);
  api.get("/get_alerts", { summary: "The user's alerts, by id", response: contracts.GetAlertsResponseSchema }, ({ user }) => alerts.list(db, user));
  api.get("/add_alert_data", { summary: "Everything an alert can name and choose, to create one", response: contracts.AddAlertDataResponseSchema }, ({ user }) => alerts.addData(db, user));
  api.post("/add_alert", { summary: "Create an alert; the chosen type's attributes come as fields of their own", body: contracts.AddAlertBodySchema, response: contracts.AddAlertResponseSchema }, ({ user, body }) => rulesNotices.afterUserWrite(user.id, alerts.add(db, user, body)));
  api.get("/edit_alert_data", { summary: "An alert as saved, with add_alert_data's lists", query: contracts.AlertIdQuerySchema, response: contracts.EditAlertDataResponseSchema }, ({ user, query }) => alerts.editData(db, user, query.alert_id));
  api.post(
    "/edit_alert",
    {
      summary: "Update an alert; optional fields left out keep their values (the type's attributes too while the type stays)",
      body: contracts.EditAlertBodySchema,
      response: contracts.AlertOkResponseSchema,
    },
    async ({ user, body }) => (await rulesNotices.afterUserWrite(user.id, alerts.edit(db, user, body)), OK),
  );
  api.get("/destroy_alert", { summary: "Delete an alert", query: contracts.AlertIdQuerySchema, response: contracts.AlertOkResponseSchema }, async ({ user, query }) => (await rulesNotices.afterUserWrite(user.id, alerts.destroy(db, user, query.alert_id)), OK));
  api.either(
    "/change_active_alert",
    { summary: "Turn one or more alerts on or off, all or nothing", input: contracts.ChangeActiveAlertSchema, response: contracts.AlertOkResponseSchema },
    async ({ user, input }) => (await rulesNotices.afterUserWrite(user.id, alerts.changeActive(db, user, input)), OK),
  );
  // Not `either`: the POST form keeps alert_id in the query and only the devices in the body.
  const setDevices = { summary: "Replace the devices an alert watches", response: contracts.AlertOkResponseSchema };
  api.get("/set_alert_devices", { ...setDevices, query: contracts.SetAlertDevicesQuerySchema }, async ({ user, query }) => (await rulesNotices.afterUserWrite(user.id, alerts.setDevices(db, user, query.alert_id, query.devices)), OK));
  api.post("/set_alert_devices", { ...setDevices, query: contracts.AlertIdQuerySchema, body: contracts.SetAlertDevicesBodySchema }, async ({ user, query, body }) => (await rulesNotices.afterUserWrite(user.id, alerts.setDevices(db, user, query.alert_id, body.devices)), OK));
};

import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as lookups from "../domain/alert-lookups.js";
import * as alerts from "../domain/alerts.js";
import * as deviceAlerts from "../domain/device-alerts.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const alertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live, rulesNotices } = app.services;
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

  api.get("/get_alerts_attributes", { summary: "Each alert type with its input fields", response: contracts.AlertsAttributesResponseSchema }, ({ user }) => lookups.attributes(db, user));
  // The vendor documents a GET with a body; fastify reads no GET body, so the body comes by POST.
  api.either(
    "/get_alerts_commands",
    { summary: "The commands an alert may send that all the given devices take (the alert's devices without any)", input: contracts.AlertsCommandsSchema, response: contracts.AlertsCommandsResponseSchema },
    ({ user, input }) => lookups.commands(db, live, user, input),
  );
  api.get(
    "/get_alerts_summary",
    { summary: "The user's alerts counted, with the events each recorded in the period (all time without one)", query: contracts.AlertsSummaryQuerySchema, response: contracts.AlertsSummaryResponseSchema },
    ({ user, query }) => lookups.summary(db, user, query),
  );
  api.get(
    "/devices/:device_id/alerts",
    { summary: "The user's alerts watching the device, with the period each applies there", params: contracts.DeviceAlertsParamsSchema, query: contracts.DeviceAlertsQuerySchema, response: contracts.DeviceAlertsResponseSchema },
    ({ user, params, query, req }) => deviceAlerts.list(db, user, params.device_id, query, req.url),
  );
  api.post(
    "/devices/:device_id/alerts/:alert_id/time_period",
    { summary: "Set when the alert applies to the device (from and/or to; a bound left out is none)", params: contracts.DeviceAlertParamsSchema, body: contracts.AlertTimePeriodBodySchema, response: contracts.AlertOkResponseSchema },
    async ({ user, params, body }) => (await rulesNotices.afterUserWrite(user.id, deviceAlerts.setPeriod(db, user, params.device_id, params.alert_id, body)), OK),
  );
};

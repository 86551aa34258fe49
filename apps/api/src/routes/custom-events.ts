import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as events from "../domain/custom-events.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const customEventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live, rulesNotices } = app.services;
  // Alerts match positions against custom events: each write tells the rules service.
  const api = endpoints(app, ["Custom event"]);

  api.get("/get_custom_events", { summary: "The user's custom events, a page at a time, by id", query: contracts.GetCustomEventsQuerySchema, response: contracts.GetCustomEventsResponseSchema }, ({ user, query, req }) => events.list(db, user, query, req.url));
  api.get("/add_custom_event_data", { summary: "Protocols and condition types, to create a custom event", response: contracts.AddCustomEventDataResponseSchema }, events.addData);
  api.post("/add_custom_event", { summary: "Create a custom event: conditions on a protocol's position attributes", body: contracts.AddCustomEventBodySchema, response: contracts.AddCustomEventResponseSchema }, ({ user, body }) => rulesNotices.afterUserWrite(user.id, events.add(db, user, body)));
  api.get(
    "/edit_custom_event_data",
    { summary: "A custom event, protocols and condition types", query: contracts.CustomEventIdQuerySchema, response: contracts.EditCustomEventDataResponseSchema },
    ({ user, query }) => events.editData(db, user, query.custom_event_id),
  );
  api.post(
    "/edit_custom_event",
    { summary: "Rewrite a custom event's protocol, message and conditions; show_always left out keeps its value", body: contracts.EditCustomEventBodySchema, response: contracts.CustomEventOkResponseSchema },
    async ({ user, body }) => (await rulesNotices.afterUserWrite(user.id, events.edit(db, user, body)), OK),
  );
  api.get(
    "/destroy_custom_event",
    { summary: "Delete a custom event; alerts naming it no longer list it", query: contracts.CustomEventIdQuerySchema, response: contracts.CustomEventOkResponseSchema },
    async ({ user, query }) => (await rulesNotices.afterUserWrite(user.id, events.destroy(db, user, query.custom_event_id)), OK),
  );

  // Listed with alerts, whose form asks for it.
  endpoints(app, ["Alert"]).either(
    "/get_custom_events_by_device",
    { summary: "The user's custom events for the protocols of the given devices (all without devices), by protocol", input: contracts.CustomEventsByDeviceSchema, response: contracts.CustomEventsByDeviceResponseSchema },
    ({ user, input }) => events.byDevice(db, live, user, input.devices),
  );
};

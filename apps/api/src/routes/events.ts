import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as events from "../domain/events.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, geocoder } = app.services;
  const api = endpoints(app, ["Event"]);

  api.get(
    "/get_events",
    { summary: "The user's events, newest first, 30 a page: by device, type, period (the account's clock) and text in the message, device name or address", query: contracts.GetEventsQuerySchema, response: contracts.GetEventsResponseSchema },
    ({ user, query, req }) => events.list(db, geocoder, user, query, req.url),
  );
  api.get("/destroy_events", { summary: "Delete every event of the user", response: contracts.DestroyEventsResponseSchema }, async ({ user }) => (await events.destroyAll(db, user), OK));

  // Listed with alerts, whose form asks for it.
  endpoints(app, ["Alert"]).get(
    "/get_events_by_protocol",
    { summary: "The events an alert can watch for a protocol: the user's custom events (type 1) or system events (type 2), keyed by position", query: contracts.EventsByProtocolQuerySchema, response: contracts.EventsByProtocolResponseSchema },
    ({ user, query }) => events.byProtocol(db, user, query),
  );
};

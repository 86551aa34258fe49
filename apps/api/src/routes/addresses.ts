import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as addresses from "../domain/addresses.js";
import { blankQueryAsMissing } from "../lib/blank-query.js";
import { endpoints } from "../lib/endpoints.js";

/** A blank coordinate is one not given, not 0. */
const blankPointAsMissing = blankQueryAsMissing("lat", "lng");

export const addressRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, geocoder } = app.services;
  const api = endpoints(app, ["Address"]);
  app.addHook("preValidation", blankPointAsMissing);

  api.get(
    "/address",
    { summary: "The name of the user's geofence holding the point lat/lng, else the point's address; empty when neither is known", query: contracts.AddressPointQuerySchema, response: contracts.AddressTextResponseSchema },
    // A JSON string, as the vendor answers: fastify would send a returned string as text/plain, unquoted.
    async ({ user, query, reply }) => (reply.type("application/json; charset=utf-8"), JSON.stringify(await addresses.nameAt(db, geocoder, user, query))),
  );
  api.get(
    "/address/reverse",
    { summary: "The address of the point lat/lng; 404 when the geocoder knows none there", query: contracts.AddressPointQuerySchema, response: contracts.AddressLocationResponseSchema },
    ({ query }) => addresses.reverse(geocoder, query),
  );
  api.get(
    "/address/search",
    { summary: "The address or place that best matches q; 404 when none does", query: contracts.AddressTextQuerySchema, response: contracts.AddressLocationResponseSchema },
    ({ query }) => addresses.search(geocoder, query.q),
  );
  api.get(
    "/address/autocomplete",
    { summary: `Up to ${addresses.AUTOCOMPLETE_LIMIT} addresses or places matching q (offline: towns whose names start with it), best first`, query: contracts.AddressTextQuerySchema, response: contracts.AddressListResponseSchema },
    ({ query }) => addresses.autocomplete(geocoder, query.q),
  );
};

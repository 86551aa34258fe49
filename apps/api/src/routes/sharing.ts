import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as sharing from "../domain/sharing.js";
import { OK, endpoints } from "../lib/endpoints.js";

/** The user's sharing links, as the vendor's swagger has them (REST paths, PUT and DELETE). */
export const sharingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const api = endpoints(app, ["Sharing"]);
  const params = contracts.SharingIdParamsSchema;

  api.get("/sharing", { summary: "A page of the user's sharing links", query: contracts.SharingListQuerySchema, response: contracts.SharingListResponseSchema }, ({ user, query, req }) =>
    sharing.list(db, user, query, req.url),
  );
  api.post("/sharing", { summary: "Create a sharing link to some of the user's devices; its hash is the link's credential", body: contracts.SharingBodySchema, response: contracts.SharingResponseSchema }, ({ user, body }) =>
    sharing.create(db, user, body),
  );
  api.get("/sharing/:id", { summary: "One of the user's sharing links", params, response: contracts.SharingResponseSchema }, ({ user, params }) => sharing.get(db, user, params.id));
  api.put(
    "/sharing/:id",
    { summary: "Change a sharing link; fields left out keep their values, `devices` is the complete list", params, body: contracts.SharingUpdateBodySchema, response: contracts.SharingResponseSchema },
    ({ user, params, body }) => sharing.update(db, user, params.id, body),
  );
  api.delete("/sharing/:id", { summary: "Delete a sharing link; it shows nothing from then on", params, response: contracts.GeoOkSchema }, async ({ user, params }) => (await sharing.destroy(db, user, params.id), OK));
  api.put("/sharing/:id/devices", { summary: "Replace the devices a sharing link shows", params, body: contracts.SharingDevicesBodySchema, response: contracts.SharingResponseSchema }, ({ user, params, body }) =>
    sharing.setDevices(db, user, params.id, body.devices),
  );
};

/** What a sharing link shows, outside the signed-in routes: the link's hash is what authorises it. */
export const sharedViewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live, settings } = app.services;
  const deps: sharing.SharedDeps = { db, states: (ids) => live.getStates(ids), offlineAfterMs: settings.offlineAfterMs };
  app.get(
    "/shared_devices",
    {
      schema: {
        tags: ["Sharing"],
        summary: "The devices a sharing link shows, live; a wrong, inactive or expired link is missing",
        querystring: contracts.SharedDevicesQuerySchema,
        response: { 200: contracts.SharedDevicesResponseSchema, ...contracts.FailureResponses },
      },
    },
    (req) => sharing.shared(deps, req.query.token),
  );
};

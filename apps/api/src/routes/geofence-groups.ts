import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import * as groups from "../domain/geofence-groups.js";
import { endpoints } from "../lib/endpoints.js";
import { currentUser } from "../plugins/app/auth.js";

const tags = ["Geofence"];

/** A form cannot send an empty array; `geofences=` (empty) is how it says "no geofences". */
async function emptyMembersAsList(req: FastifyRequest) {
  const body = req.body as Record<string, unknown> | null | undefined;
  if (body && typeof body === "object" && body.geofences === "") body.geofences = [];
}

export const geofenceGroupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const api = endpoints(app, tags);
  app.addHook("preValidation", emptyMembersAsList);

  api.get(
    "/geofences_groups",
    { summary: "A page of the user's geofence groups, optionally filtered by title and sorted", query: contracts.GeofenceGroupsQuerySchema, response: contracts.GeofenceGroupsResponseSchema },
    ({ user, query, req }) => groups.list(db, user, query, req.url),
  );
  api.post("/geofences_groups/store", { summary: "Create a geofence group; listed geofences move into it", body: contracts.StoreGeofenceGroupBodySchema, response: contracts.GeoCreatedSchema }, ({ user, body }) =>
    groups.store(db, user, body),
  );

  // endpoints() declares no path parameters, so the two routes with an id in the path are declared here.
  // PUT as the vendor documents it; POST too, as every other edit of the API and HTML forms use.
  app.route({
    method: ["PUT", "POST"],
    url: "/geofences_groups/update/:id",
    schema: {
      tags,
      summary: "Rename a geofence group and/or replace its geofences (those left out become ungrouped); fields left out keep their values",
      params: contracts.GeofenceGroupIdParamsSchema,
      body: contracts.UpdateGeofenceGroupBodySchema,
      response: { 200: contracts.GeoCreatedSchema, ...contracts.FailureResponses },
    },
    handler: (req) => groups.update(db, currentUser(req), req.params.id, req.body),
  });
  app.get(
    "/geofences_groups/destroy/:id",
    { schema: { tags, summary: "Delete a geofence group; its geofences become ungrouped", params: contracts.GeofenceGroupIdParamsSchema, response: { 200: contracts.GeoCreatedSchema, ...contracts.FailureResponses } } },
    (req) => groups.destroy(db, currentUser(req), req.params.id),
  );
};

import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as geofences from "../domain/geofences.js";
import { blankQueryAsMissing } from "../lib/blank-query.js";
import { OK, endpoints } from "../lib/endpoints.js";
import { geofenceGroupRoutes } from "./geofence-groups.js";

/** A blank coordinate is one not given, not 0. */
const blankPointAsMissing = blankQueryAsMissing("lat", "lng");

export const geofenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, rulesNotices } = app.services;
  // A geofence write changes what the rules service checks for the user (groups do not).
  const api = endpoints(app, ["Geofence"]);

  api.get("/get_geofences", { summary: "The user's geofences and geofence groups, by id", response: contracts.GetGeofencesResponseSchema }, ({ user }) => geofences.list(db, user));
  api.post("/add_geofence", { summary: "Create a polygon or circle geofence", body: contracts.AddGeofenceBodySchema, response: contracts.GeoCreatedSchema }, ({ user, body }) => rulesNotices.afterUserWrite(user.id, geofences.add(db, user, body)));
  api.post(
    "/edit_geofence",
    { summary: "Rewrite a geofence (id plus geofencePost); group_id and active left out keep their values", body: contracts.EditGeofenceBodySchema, response: contracts.GeoOkSchema },
    async ({ user, body }) => (await rulesNotices.afterUserWrite(user.id, geofences.edit(db, user, body)), OK),
  );
  api.get("/destroy_geofence", { summary: "Delete a geofence", query: contracts.GeofenceIdQuerySchema, response: contracts.GeoOkSchema }, async ({ user, query }) => (await rulesNotices.afterUserWrite(user.id, geofences.destroy(db, user, query.geofence_id)), OK));
  api.either(
    "/change_active_geofence",
    { summary: "Set active on one or more of the user's geofences, all or nothing; active left out means off", input: contracts.ChangeActiveSchema, response: contracts.GeoOkSchema },
    async ({ user, input }) => (await rulesNotices.afterUserWrite(user.id, geofences.changeActive(db, user, input)), OK),
  );
  app.addHook("preValidation", blankPointAsMissing);
  api.get(
    "/point_in_geofences",
    { summary: "The names of the user's active geofences that hold the point lat/lng", query: contracts.PointInGeofencesQuerySchema, response: contracts.PointInGeofencesResponseSchema },
    ({ user, query }) => geofences.pointIn(db, user, query),
  );

  await app.register(geofenceGroupRoutes);
};

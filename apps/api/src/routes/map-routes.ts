import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as mapRoutes from "../domain/map-routes.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const mapRouteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const api = endpoints(app, ["Route"]);

  api.get("/get_routes", { summary: "A page of the user's routes, by id", query: contracts.GetRoutesQuerySchema, response: contracts.GetRoutesResponseSchema }, ({ user, query, req }) => mapRoutes.list(db, user, query, req.url));
  api.post("/add_route", { summary: "Create a route", body: contracts.AddRouteBodySchema, response: contracts.GeoCreatedSchema }, ({ user, body }) => mapRoutes.add(db, user, body));
  api.post("/edit_route", { summary: "Rewrite a route (id plus the add_route fields)", body: contracts.EditRouteBodySchema, response: contracts.GeoOkSchema }, async ({ user, body }) => (await mapRoutes.edit(db, user, body), OK));
  api.get("/destroy_route", { summary: "Delete a route", query: contracts.RouteIdQuerySchema, response: contracts.GeoOkSchema }, async ({ user, query }) => (await mapRoutes.destroy(db, user, query.route_id), OK));
  api.either(
    "/change_active_route",
    { summary: "Set active on one or more of the user's routes, all or nothing; active left out means off", input: contracts.ChangeActiveSchema, response: contracts.GeoOkSchema },
    async ({ user, input }) => (await mapRoutes.changeActive(db, user, input), OK),
  );
};

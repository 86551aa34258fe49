import { AddRouteBodySchema, ChangeActiveSchema, EditRouteBodySchema, GeoCreatedSchema, GeoOkSchema, GetRoutesQuerySchema, GetRoutesResponseSchema, RouteIdQuerySchema } from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as mapRoutes from "../domain/map-routes.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const mapRouteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const api = endpoints(app, ["Route"]);

  api.get("/get_routes", { summary: "A page of the user's routes, by id", query: GetRoutesQuerySchema, response: GetRoutesResponseSchema }, ({ user, query, req }) => mapRoutes.list(db, user, query, req.url));
  api.post("/add_route", { summary: "Create a route", body: AddRouteBodySchema, response: GeoCreatedSchema }, ({ user, body }) => mapRoutes.add(db, user, body));
  api.post("/edit_route", { summary: "Rewrite a route (id plus the add_route fields)", body: EditRouteBodySchema, response: GeoOkSchema }, async ({ user, body }) => (await mapRoutes.edit(db, user, body), OK));
  api.get("/destroy_route", { summary: "Delete a route", query: RouteIdQuerySchema, response: GeoOkSchema }, async ({ user, query }) => (await mapRoutes.destroy(db, user, query.route_id), OK));
  api.either(
    "/change_active_route",
    { summary: "Set active on one or more of the user's routes, all or nothing; active left out means off", input: ChangeActiveSchema, response: GeoOkSchema },
    async ({ user, input }) => (await mapRoutes.changeActive(db, user, input), OK),
  );
};

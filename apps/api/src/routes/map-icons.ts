import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as mapIcons from "../domain/map-icons.js";
import { OK, endpoints } from "../lib/endpoints.js";

export const mapIconRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Map icons are the points of interest of poi_* alerts: a change is the rules service's to know.
  const { db, rulesNotices } = app.services;
  const api = endpoints(app, ["Map icon"]);

  api.get("/get_map_icons", { summary: "The catalogue of icons a map icon can use", response: contracts.GetMapIconsResponseSchema }, mapIcons.catalogue);
  api.get("/get_user_map_icons", { summary: "The user's map icons, by id", response: contracts.GetUserMapIconsResponseSchema }, ({ user }) => mapIcons.list(db, user));
  api.post("/add_map_icon", { summary: "Place a map icon", body: contracts.AddMapIconBodySchema, response: contracts.GeoCreatedSchema }, ({ user, body }) => mapIcons.add(db, user, body));
  api.post(
    "/edit_map_icon",
    { summary: "Rewrite a map icon (id plus the add_map_icon fields; a description left out keeps its value)", body: contracts.EditMapIconBodySchema, response: contracts.GeoOkSchema },
    async ({ user, body }) => (await rulesNotices.afterUserWrite(user.id, mapIcons.edit(db, user, body)), OK),
  );
  api.get("/destroy_map_icon", { summary: "Delete one of the user's map icons", query: contracts.MapIconIdQuerySchema, response: contracts.GeoOkSchema }, async ({ user, query }) => (await rulesNotices.afterUserWrite(user.id, mapIcons.destroy(db, user, query.map_icon_id)), OK));
  api.either(
    "/change_active_map_icon",
    { summary: "Set active on one or more of the user's map icons, all or nothing; active left out means off", input: contracts.ChangeActiveSchema, response: contracts.GeoOkSchema },
    async ({ user, input }) => (await rulesNotices.afterUserWrite(user.id, mapIcons.changeActive(db, user, input)), OK),
  );
};

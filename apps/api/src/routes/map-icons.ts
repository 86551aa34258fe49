import {
  AddMapIconBodySchema,
  ChangeActiveSchema,
  EditMapIconBodySchema,
  FailureResponses,
  GeoCreatedSchema,
  GeoOkSchema,
  GetMapIconsResponseSchema,
  GetUserMapIconsResponseSchema,
  MapIconIdQuerySchema,
  findMapIcon,
  formatDateTime,
  mapIconCatalogue,
  readChangeActive,
  readMapIconPoint,
  type AddMapIconBody,
  type ChangeActive,
  type UserMapIconRecord,
} from "@fleet/contracts";
import { createUserMapIcon, destroyUserMapIcon, listUserMapIcons, setUserMapIconsActive, updateUserMapIcon, type UserMapIcon, type UserMapIconInput } from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { currentUser } from "../plugins/app/auth.js";

/*
 * Map icons: the shipped catalogue (get_map_icons) and the user's points of interest
 * drawn with one of its icons (the other endpoints; their ids are the user's records).
 */

// A stored icon id always comes from the catalogue; this stands in should one be retired.
const missingIcon = (id: number) => ({ id, path: "", width: "0.00", height: "0.00" });

/** The User map icon record: `coordinates` as JSON text and the catalogue entry embedded. */
function userMapIconRecord(m: UserMapIcon, timezoneId: number): UserMapIconRecord {
  return {
    id: m.id,
    user_id: m.userId,
    map_icon_id: m.mapIconId,
    active: m.active ? 1 : 0,
    name: m.name,
    description: m.description,
    coordinates: JSON.stringify({ lat: m.coordinates.lat, lng: m.coordinates.lng }),
    created_at: formatDateTime(m.createdAt.getTime(), timezoneId),
    updated_at: formatDateTime(m.updatedAt.getTime(), timezoneId),
    map_icon: findMapIcon(m.mapIconId) ?? missingIcon(m.mapIconId),
  };
}

/** The body as the row's fields, or a 422 already sent naming every bad field. */
function mapIconInput(reply: FastifyReply, b: AddMapIconBody): UserMapIconInput | undefined {
  const errors: Record<string, string> = {};
  if (!findMapIcon(b.map_icon_id)) errors.map_icon_id = "The selected map icon id is invalid.";
  const point = readMapIconPoint(b.coordinates);
  if (!point) errors.coordinates = "The coordinates must be {lat, lng}, lat -90 to 90 and lng -180 to 180.";
  if (!point || Object.keys(errors).length > 0) {
    void reply.code(422).send({ status: 0, errors });
    return undefined;
  }
  return { mapIconId: b.map_icon_id, name: b.name, description: b.description, coordinates: point };
}

export const mapIconRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const tags = ["Map icon"];

  app.get("/get_map_icons", { schema: { tags, summary: "The catalogue of icons a map icon can use", response: { 200: GetMapIconsResponseSchema, ...FailureResponses } } }, async () => ({
    items: [...mapIconCatalogue],
    status: 1 as const,
  }));

  app.get(
    "/get_user_map_icons",
    { schema: { tags, summary: "The user's map icons, by id", response: { 200: GetUserMapIconsResponseSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const rows = await listUserMapIcons(db, user.id);
      return { items: { mapIcons: rows.map((m) => userMapIconRecord(m, user.timezoneId)) }, status: 1 as const };
    },
  );

  app.post(
    "/add_map_icon",
    { schema: { tags, summary: "Place a map icon", body: AddMapIconBodySchema, response: { 200: GeoCreatedSchema, ...FailureResponses } } },
    async (req, reply) => {
      const input = mapIconInput(reply, req.body);
      if (!input) return reply;
      return { status: 1 as const, id: (await createUserMapIcon(db, currentUser(req).id, input)).id };
    },
  );

  app.post(
    "/edit_map_icon",
    { schema: { tags, summary: "Rewrite a map icon (id plus the add_map_icon fields; a description left out keeps its value)", body: EditMapIconBodySchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => {
      const input = mapIconInput(reply, req.body);
      if (!input) return reply;
      if (!(await updateUserMapIcon(db, currentUser(req).id, req.body.id, input))) return notFound(reply, "Map icon");
      return { status: 1 as const };
    },
  );

  app.get(
    "/destroy_map_icon",
    { schema: { tags, summary: "Delete one of the user's map icons", querystring: MapIconIdQuerySchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => {
      if (!(await destroyUserMapIcon(db, currentUser(req).id, req.query.map_icon_id))) return notFound(reply, "Map icon");
      return { status: 1 as const };
    },
  );

  const changeActive = async (userId: number, input: ChangeActive, reply: FastifyReply) => {
    const { ids, active } = readChangeActive(input);
    if (!(await setUserMapIconsActive(db, userId, ids, active))) return notFound(reply, "Map icon");
    return { status: 1 as const };
  };
  const changeActiveSummary = "Set active on one or more of the user's map icons, all or nothing; active left out means off";
  // GET as the vendor documents it; fastify reads no GET body, so body clients use POST.
  app.get(
    "/change_active_map_icon",
    { schema: { tags, summary: changeActiveSummary, querystring: ChangeActiveSchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => changeActive(currentUser(req).id, req.query, reply),
  );
  app.post(
    "/change_active_map_icon",
    { schema: { tags, summary: changeActiveSummary, body: ChangeActiveSchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => changeActive(currentUser(req).id, req.body, reply),
  );
};

import {
  FailureResponses,
  GeoCreatedSchema,
  GeofenceGroupIdParamsSchema,
  GeofenceGroupsQuerySchema,
  GeofenceGroupsResponseSchema,
  StoreGeofenceGroupBodySchema,
  UpdateGeofenceGroupBodySchema,
  type GeofenceGroupRecord,
} from "@fleet/contracts";
import { UnknownGeofencesError, createGeofenceGroup, destroyGeofenceGroup, pageUserGeofenceGroups, updateGeofenceGroup, type GeofenceGroup } from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../lib/not-found.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { currentUser } from "../plugins/app/auth.js";

/*
 * The vendor's geofence groups: list, store and update as its swagger has them, plus a
 * destroy it does not show. `open` (whether a client shows a group expanded) has no
 * column, so it is accepted and always returned false.
 */

export function geofenceGroupRecord(g: GeofenceGroup): GeofenceGroupRecord {
  return { id: g.id, user_id: g.userId, title: g.title, open: false };
}

/** A form cannot send an empty array; `geofences=` (empty) is how it says "no geofences". */
async function emptyMembersAsList(req: FastifyRequest) {
  const body = req.body as Record<string, unknown> | null | undefined;
  if (body && typeof body === "object" && body.geofences === "") body.geofences = [];
}

const unknownGeofences = (reply: FastifyReply) => reply.code(422).send({ status: 0 as const, errors: { geofences: "The selected geofences are invalid." } });

export const geofenceGroupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const tags = ["Geofence"];

  app.get(
    "/geofences_groups",
    {
      schema: {
        tags,
        summary: "A page of the user's geofence groups, optionally filtered by title and sorted",
        querystring: GeofenceGroupsQuerySchema,
        response: { 200: GeofenceGroupsResponseSchema, ...FailureResponses },
      },
    },
    async (req) => {
      const { search_phrase, limit, page: pageNo, sort_by, sort } = req.query;
      const page = pageRequest({ page: pageNo, per_page: limit });
      const { total, rows } = await pageUserGeofenceGroups(db, currentUser(req).id, { search: search_phrase, sortBy: sort_by ?? "id", sort: sort ?? "asc", ...pageWindow(page) });
      const { data, from: _from, to: _to, ...pagination } = paginate(req, page, total, rows.map(geofenceGroupRecord));
      return { status: 1 as const, data, pagination };
    },
  );

  app.post(
    "/geofences_groups/store",
    {
      schema: { tags, summary: "Create a geofence group; listed geofences move into it", body: StoreGeofenceGroupBodySchema, response: { 200: GeoCreatedSchema, ...FailureResponses } },
      preValidation: emptyMembersAsList,
    },
    async (req, reply) => {
      try {
        const group = await createGeofenceGroup(db, currentUser(req).id, { title: req.body.title, geofenceIds: req.body.geofences });
        return { status: 1 as const, id: group.id };
      } catch (err) {
        if (err instanceof UnknownGeofencesError) return unknownGeofences(reply);
        throw err;
      }
    },
  );

  // PUT as the vendor documents it; POST too, as every other edit of the API and HTML forms use.
  app.route({
    method: ["PUT", "POST"],
    url: "/geofences_groups/update/:id",
    schema: {
      tags,
      summary: "Rename a geofence group and/or replace its geofences (those left out become ungrouped); fields left out keep their values",
      params: GeofenceGroupIdParamsSchema,
      body: UpdateGeofenceGroupBodySchema,
      response: { 200: GeoCreatedSchema, ...FailureResponses },
    },
    preValidation: emptyMembersAsList,
    handler: async (req, reply) => {
      try {
        const group = await updateGeofenceGroup(db, currentUser(req).id, req.params.id, { title: req.body.title, geofenceIds: req.body.geofences });
        if (!group) return notFound(reply, "Geofence group");
        return { status: 1 as const, id: group.id };
      } catch (err) {
        if (err instanceof UnknownGeofencesError) return unknownGeofences(reply);
        throw err;
      }
    },
  });

  app.get(
    "/geofences_groups/destroy/:id",
    { schema: { tags, summary: "Delete a geofence group; its geofences become ungrouped", params: GeofenceGroupIdParamsSchema, response: { 200: GeoCreatedSchema, ...FailureResponses } } },
    async (req, reply) => {
      if (!(await destroyGeofenceGroup(db, currentUser(req).id, req.params.id))) return notFound(reply, "Geofence group");
      return { status: 1 as const, id: req.params.id };
    },
  );
};

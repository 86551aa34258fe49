import {
  AddRouteBodySchema,
  ChangeActiveSchema,
  EditRouteBodySchema,
  FailureResponses,
  GeoCreatedSchema,
  GeoOkSchema,
  GetRoutesQuerySchema,
  GetRoutesResponseSchema,
  MAX_ROUTE_POINTS,
  RouteIdQuerySchema,
  formatDateTime,
  readChangeActive,
  readPointList,
  type AddRouteBody,
  type ChangeActive,
  type RouteRecord,
} from "@fleet/contracts";
import { createRoute, destroyRoute, pageUserRoutes, setRoutesActive, updateRoute, type Route, type RouteInput } from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { currentUser } from "../plugins/app/auth.js";

/*
 * Routes the user draws on the map (polylines). The spec shows none of their responses;
 * reads follow the vendor's swagger (`{data, pagination}`), writes answer like geofences'.
 */

/** A route as get_routes returns it. Routes have no groups here, so group_id is 0 (ungrouped). */
function routeRecord(r: Route, timezoneId: number): RouteRecord {
  return {
    id: r.id,
    user_id: r.userId,
    group_id: 0,
    active: r.active ? 1 : 0,
    name: r.name,
    color: r.color,
    coordinates: r.polyline.map((p) => ({ lat: p.lat, lng: p.lng })),
    created_at: formatDateTime(r.createdAt.getTime(), timezoneId),
    updated_at: formatDateTime(r.updatedAt.getTime(), timezoneId),
  };
}

/** The body as the row's fields, or a 422 already sent: at least 2 points, not all the same. */
function routeInput(reply: FastifyReply, b: AddRouteBody): RouteInput | undefined {
  const points = readPointList(b.polyline, MAX_ROUTE_POINTS);
  let error: string | undefined;
  if (!points) error = `The polyline must be a list of at most ${MAX_ROUTE_POINTS} points {lat, lng}, lat -90 to 90 and lng -180 to 180.`;
  else if (points.length < 2 || points.every((p) => p.lat === points[0]!.lat && p.lng === points[0]!.lng)) error = "The polyline must have at least 2 different points.";
  if (error !== undefined || !points) {
    void reply.code(422).send({ status: 0, errors: { polyline: error ?? "The polyline is invalid." } });
    return undefined;
  }
  return { name: b.name, color: b.color, polyline: points.map((p) => ({ lat: p.lat, lng: p.lng })) };
}

export const mapRouteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const tags = ["Route"];

  app.get(
    "/get_routes",
    { schema: { tags, summary: "A page of the user's routes, by id", querystring: GetRoutesQuerySchema, response: { 200: GetRoutesResponseSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const page = pageRequest(req.query);
      const { total, rows } = await pageUserRoutes(db, user.id, pageWindow(page));
      const { data, from: _from, to: _to, ...pagination } = paginate(req, page, total, rows.map((r) => routeRecord(r, user.timezoneId)));
      return { data, pagination, status: 1 as const };
    },
  );

  app.post(
    "/add_route",
    { schema: { tags, summary: "Create a route", body: AddRouteBodySchema, response: { 200: GeoCreatedSchema, ...FailureResponses } } },
    async (req, reply) => {
      const input = routeInput(reply, req.body);
      if (!input) return reply;
      return { status: 1 as const, id: (await createRoute(db, currentUser(req).id, input)).id };
    },
  );

  app.post(
    "/edit_route",
    { schema: { tags, summary: "Rewrite a route (id plus the add_route fields)", body: EditRouteBodySchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => {
      const input = routeInput(reply, req.body);
      if (!input) return reply;
      if (!(await updateRoute(db, currentUser(req).id, req.body.id, input))) return notFound(reply, "Route");
      return { status: 1 as const };
    },
  );

  app.get(
    "/destroy_route",
    { schema: { tags, summary: "Delete a route", querystring: RouteIdQuerySchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => {
      if (!(await destroyRoute(db, currentUser(req).id, req.query.route_id))) return notFound(reply, "Route");
      return { status: 1 as const };
    },
  );

  const changeActive = async (userId: number, input: ChangeActive, reply: FastifyReply) => {
    const { ids, active } = readChangeActive(input);
    if (!(await setRoutesActive(db, userId, ids, active))) return notFound(reply, "Route");
    return { status: 1 as const };
  };
  const changeActiveSummary = "Set active on one or more of the user's routes, all or nothing; active left out means off";
  // GET as the vendor documents it; fastify reads no GET body, so body clients use POST.
  app.get(
    "/change_active_route",
    { schema: { tags, summary: changeActiveSummary, querystring: ChangeActiveSchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => changeActive(currentUser(req).id, req.query, reply),
  );
  app.post(
    "/change_active_route",
    { schema: { tags, summary: changeActiveSummary, body: ChangeActiveSchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => changeActive(currentUser(req).id, req.body, reply),
  );
};

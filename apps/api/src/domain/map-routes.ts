import {
  InvalidInputError,
  MAX_ROUTE_POINTS,
  readChangeActive,
  readPointList,
  type AddRouteBody,
  type ChangeActive,
  type EditRouteBody,
  type GetRoutesQuery,
  type RouteRecord,
  type UserClock,
} from "@fleet/contracts";
import { createRoute, destroyRoute, pageUserRoutes, setRoutesActive, updateRoute, type Db, type Route, type RouteInput, type User } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { pageRequest, pageWindow, paginateCompact } from "../lib/pagination.js";
import { found } from "./found.js";

/*
 * Routes the user draws on the map (polylines). The spec shows none of their responses;
 * reads follow the vendor's swagger (`{data, pagination}`), writes answer like geofences'.
 */

const WHAT = "Route";

/** A route as get_routes returns it; group_id 0 is ungrouped (the swagger types it an integer, never null). */
function record(r: Route, clock: UserClock): RouteRecord {
  return {
    id: r.id,
    user_id: r.userId,
    group_id: r.groupId ?? 0,
    active: r.active ? 1 : 0,
    name: r.name,
    color: r.color,
    coordinates: r.polyline.map((p) => ({ lat: p.lat, lng: p.lng })),
    created_at: clock.format(r.createdAt.getTime()),
    updated_at: clock.format(r.updatedAt.getTime()),
  };
}

/** The body as the row's fields: at least 2 points, not all the same. */
function input(b: AddRouteBody): RouteInput {
  const points = readPointList(b.polyline, MAX_ROUTE_POINTS);
  if (!points) throw new InvalidInputError({ polyline: `The polyline must be a list of at most ${MAX_ROUTE_POINTS} points {lat, lng}, lat -90 to 90 and lng -180 to 180.` });
  if (points.length < 2 || points.every((p) => p.lat === points[0]!.lat && p.lng === points[0]!.lng)) throw new InvalidInputError({ polyline: "The polyline must have at least 2 different points." });
  return { name: b.name, color: b.color, polyline: points.map((p) => ({ lat: p.lat, lng: p.lng })) };
}

/** A page of the user's routes; `url` is the request's, for the page links. */
export async function list(db: Db, user: User, query: GetRoutesQuery, url: string) {
  const page = pageRequest(query);
  const { total, rows } = await pageUserRoutes(db, user.id, pageWindow(page));
  return { ...paginateCompact({ url }, page, total, rows.map((r) => record(r, clockOf(user)))), status: 1 as const };
}

export async function add(db: Db, user: User, body: AddRouteBody) {
  return { status: 1 as const, id: (await createRoute(db, user.id, input(body))).id };
}

export const edit = (db: Db, user: User, body: EditRouteBody) => found(updateRoute(db, user.id, body.id, input(body)), WHAT);

export const destroy = (db: Db, user: User, id: number) => found(destroyRoute(db, user.id, id), WHAT);

export async function changeActive(db: Db, user: User, change: ChangeActive) {
  const { ids, active } = readChangeActive(change);
  return found(setRoutesActive(db, user.id, ids, active), WHAT);
}

import { Type, type Static } from "@sinclair/typebox";
import { StatusOk } from "./common.js";
import { CompactPaginationSchema, HexColorSchema, LatLngRecordSchema, PointListSchema, RecordIdSchema } from "./geofences.js";
import { PageQuery } from "./pagination.js";

/*
 * Routes: polylines a user draws on the map (not to be confused with HTTP routes). The
 * spec shows no record or response; the shapes follow the vendor's swagger.
 */

/** Points accepted in one route: a long planned trip, far below the body limits. */
export const MAX_ROUTE_POINTS = 10_000;

/** The fields add_route and edit_route share. */
const routeFields = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  color: HexColorSchema,
  polyline: PointListSchema(MAX_ROUTE_POINTS, "at least 2 points, not all the same"),
};

export const AddRouteBodySchema = Type.Object(routeFields);
export type AddRouteBody = Static<typeof AddRouteBodySchema>;

export const EditRouteBodySchema = Type.Object({ id: RecordIdSchema, ...routeFields });
export type EditRouteBody = Static<typeof EditRouteBodySchema>;

export const RouteIdQuerySchema = Type.Object({ route_id: RecordIdSchema });

export const GetRoutesQuerySchema = Type.Object({ ...PageQuery });
export type GetRoutesQuery = Static<typeof GetRoutesQuerySchema>;

/** A route as get_routes returns it: the vendor's fields, plus the owner and timestamps. */
export const RouteSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  group_id: Type.Integer({ description: "the route's group (routes_groups), 0 when ungrouped" }),
  active: Type.Union([Type.Literal(0), Type.Literal(1)]),
  name: Type.String(),
  color: Type.String(),
  coordinates: Type.Array(LatLngRecordSchema),
  created_at: Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" }),
  updated_at: Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" }),
});
export type RouteRecord = Static<typeof RouteSchema>;

export const GetRoutesResponseSchema = Type.Object({ data: Type.Array(RouteSchema), pagination: CompactPaginationSchema, status: StatusOk });

import {
  AddGeofenceBodySchema,
  ChangeActiveSchema,
  EditGeofenceBodySchema,
  FailureResponses,
  GeoCreatedSchema,
  GeofenceIdQuerySchema,
  GeoOkSchema,
  GetGeofencesResponseSchema,
  MAX_POLYGON_POINTS,
  formatDateTime,
  isActive,
  readChangeActive,
  readPointList,
  type AddGeofenceBody,
  type ChangeActive,
  type GeofenceRecord,
} from "@fleet/contracts";
import {
  UnknownGeofenceGroupError,
  createGeofence,
  destroyGeofence,
  listUserGeofenceGroups,
  listUserGeofences,
  setGeofencesActive,
  updateGeofence,
  type Geofence,
  type GeofenceInput,
} from "@fleet/db";
import { isSimpleRing, type LatLng } from "@fleet/geo";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { currentUser } from "../plugins/app/auth.js";
import { geofenceGroupRecord, geofenceGroupRoutes } from "./geofence-groups.js";

type Errors = Record<string, string>;
type Shape = Pick<GeofenceInput, "type" | "coordinates" | "center" | "radius">;

const samePoint = (a: LatLng, b: LatLng) => a.lat === b.lat && a.lng === b.lng;

/** The ring without points repeating the one before (a double click while drawing). */
function withoutRepeats(points: readonly LatLng[]): LatLng[] {
  return points.filter((p, i) => i === 0 || !samePoint(p, points[i - 1]!));
}

/**
 * The geofence's shape from geofencePost, or undefined with the reasons in `errors`:
 * a circle needs a centre and a radius; a polygon needs a closed ring (first point =
 * last) of at least 3 different corners that neither crosses nor touches itself. The
 * fields of the other type are ignored, as vendor forms send them all.
 */
function geofenceShape(errors: Errors, b: Pick<AddGeofenceBody, "type" | "polygon" | "center" | "radius">): Shape | undefined {
  if (b.type === "circle") {
    if (!b.center) errors.center = "The center field is required when type is circle.";
    if (b.radius === undefined) errors.radius = "The radius field is required when type is circle.";
    if (!b.center || b.radius === undefined) return undefined;
    return { type: "circle", coordinates: [], center: { lat: b.center.lat, lng: b.center.lng }, radius: b.radius };
  }
  if (b.polygon === undefined) {
    errors.polygon = "The polygon field is required when type is polygon.";
    return undefined;
  }
  const points = readPointList(b.polygon, MAX_POLYGON_POINTS);
  if (!points) errors.polygon = `The polygon must be a list of at most ${MAX_POLYGON_POINTS} points {lat, lng}, lat -90 to 90 and lng -180 to 180.`;
  else if (points.length < 4) errors.polygon = "The polygon must have at least 3 different corners, and repeat the first point last.";
  else if (!samePoint(points[0]!, points.at(-1)!)) errors.polygon = "The polygon must be closed: its last point must be the same as its first.";
  else {
    const ring = withoutRepeats(points).map((p) => ({ lat: p.lat, lng: p.lng }));
    if (ring.length < 4) errors.polygon = "The polygon must have at least 3 different corners.";
    else if (!isSimpleRing(ring)) errors.polygon = "The polygon may not cross or touch itself.";
    else return { type: "polygon", coordinates: ring, center: null, radius: null };
  }
  return undefined;
}

/** The middle of the ring's bounding box: where a client can label a polygon. */
function boxCenter(ring: readonly LatLng[]): LatLng {
  if (ring.length === 0) return { lat: 0, lng: 0 };
  const lats = ring.map((p) => p.lat);
  const lngs = ring.map((p) => p.lng);
  return { lat: (Math.min(...lats) + Math.max(...lats)) / 2, lng: (Math.min(...lngs) + Math.max(...lngs)) / 2 };
}

/** The spec's Geofence record; `coordinates` is JSON text, as the vendor sends it. */
function geofenceRecord(g: Geofence, timezoneId: number): GeofenceRecord {
  const ring = g.coordinates.map((p) => ({ lat: p.lat, lng: p.lng }));
  return {
    id: g.id,
    user_id: g.userId,
    group_id: g.groupId,
    active: g.active ? 1 : 0,
    name: g.name,
    type: g.type,
    polygon_color: g.polygonColor,
    coordinates: JSON.stringify(ring),
    center: g.type === "circle" && g.center ? { lat: g.center.lat, lng: g.center.lng } : boxCenter(ring),
    radius: g.type === "circle" ? g.radius : null,
    created_at: formatDateTime(g.createdAt.getTime(), timezoneId),
    updated_at: formatDateTime(g.updatedAt.getTime(), timezoneId),
  };
}

/** The body as the row's fields, or a 422 already sent. */
function geofenceInput(reply: FastifyReply, b: AddGeofenceBody): GeofenceInput | undefined {
  const errors: Errors = {};
  const shape = geofenceShape(errors, b);
  if (!shape) {
    void reply.code(422).send({ status: 0, errors });
    return undefined;
  }
  return {
    ...shape,
    name: b.name,
    polygonColor: b.polygon_color,
    // 0 is "no group", as the vendor's forms send it.
    ...(b.group_id === undefined ? {} : { groupId: b.group_id || null }),
    ...(b.active === undefined ? {} : { active: isActive(b.active) }),
  };
}

const unknownGroup = (reply: FastifyReply) => reply.code(422).send({ status: 0 as const, errors: { group_id: "The selected group id is invalid." } });

export const geofenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const tags = ["Geofence"];

  app.get(
    "/get_geofences",
    { schema: { tags, summary: "The user's geofences and geofence groups, by id", response: { 200: GetGeofencesResponseSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const [rows, groups] = await Promise.all([listUserGeofences(db, user.id), listUserGeofenceGroups(db, user.id)]);
      return { items: { geofences: rows.map((g) => geofenceRecord(g, user.timezoneId)), groups: groups.map(geofenceGroupRecord) }, status: 1 as const };
    },
  );

  app.post(
    "/add_geofence",
    { schema: { tags, summary: "Create a polygon or circle geofence", body: AddGeofenceBodySchema, response: { 200: GeoCreatedSchema, ...FailureResponses } } },
    async (req, reply) => {
      const input = geofenceInput(reply, req.body);
      if (!input) return reply;
      try {
        const row = await createGeofence(db, currentUser(req).id, input);
        return { status: 1 as const, id: row.id };
      } catch (err) {
        if (err instanceof UnknownGeofenceGroupError) return unknownGroup(reply);
        throw err;
      }
    },
  );

  app.post(
    "/edit_geofence",
    {
      schema: {
        tags,
        summary: "Rewrite a geofence (id plus geofencePost); group_id and active left out keep their values",
        body: EditGeofenceBodySchema,
        response: { 200: GeoOkSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const input = geofenceInput(reply, req.body);
      if (!input) return reply;
      try {
        if (!(await updateGeofence(db, currentUser(req).id, req.body.id, input))) return notFound(reply, "Geofence");
        return { status: 1 as const };
      } catch (err) {
        if (err instanceof UnknownGeofenceGroupError) return unknownGroup(reply);
        throw err;
      }
    },
  );

  app.get(
    "/destroy_geofence",
    { schema: { tags, summary: "Delete a geofence", querystring: GeofenceIdQuerySchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => {
      if (!(await destroyGeofence(db, currentUser(req).id, req.query.geofence_id))) return notFound(reply, "Geofence");
      return { status: 1 as const };
    },
  );

  const changeActive = async (userId: number, input: ChangeActive, reply: FastifyReply) => {
    const { ids, active } = readChangeActive(input);
    if (!(await setGeofencesActive(db, userId, ids, active))) return notFound(reply, "Geofence");
    return { status: 1 as const };
  };
  const changeActiveSummary = "Set active on one or more of the user's geofences, all or nothing; active left out means off";
  // GET as the vendor documents it; fastify reads no GET body, so body clients use POST.
  app.get(
    "/change_active_geofence",
    { schema: { tags, summary: changeActiveSummary, querystring: ChangeActiveSchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => changeActive(currentUser(req).id, req.query, reply),
  );
  app.post(
    "/change_active_geofence",
    { schema: { tags, summary: changeActiveSummary, body: ChangeActiveSchema, response: { 200: GeoOkSchema, ...FailureResponses } } },
    async (req, reply) => changeActive(currentUser(req).id, req.body, reply),
  );

  await app.register(geofenceGroupRoutes);
};

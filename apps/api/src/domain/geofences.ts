import {
  InvalidInputError,
  MAX_POLYGON_POINTS,
  isActive,
  readChangeActive,
  readPointList,
  type AddGeofenceBody,
  type ChangeActive,
  type EditGeofenceBody,
  type GeofenceRecord,
  type PointInGeofencesQuery,
  type UserClock,
} from "@fleet/contracts";
import { createGeofence, destroyGeofence, listUserGeofenceGroups, listUserGeofences, setGeofencesActive, updateGeofence, type Db, type Geofence, type GeofenceInput, type User } from "@fleet/db";
import { inGeofence, isSimpleRing, ringCenter, type LatLng } from "@fleet/geo";
import { clockOf } from "../lib/clock.js";
import { groupRecord } from "./geofence-groups.js";
import { found } from "./found.js";

/*
 * The user's geofences: polygons and circles the rules service tests positions against.
 * An unknown group_id is the database's refusal, worded by default.
 */

const WHAT = "Geofence";

type Shape = Pick<GeofenceInput, "type" | "coordinates" | "center" | "radius">;

const samePoint = (a: LatLng, b: LatLng) => a.lat === b.lat && a.lng === b.lng;

/** The ring without points repeating the one before (a double click while drawing). */
function withoutRepeats(points: readonly LatLng[]): LatLng[] {
  return points.filter((p, i) => i === 0 || !samePoint(p, points[i - 1]!));
}

/** A polygon's closed ring of at least 3 different corners that neither crosses nor touches itself, or why not. */
function polygonShape(polygon: AddGeofenceBody["polygon"]): Shape | string {
  if (polygon === undefined) return "The polygon field is required when type is polygon.";
  const points = readPointList(polygon, MAX_POLYGON_POINTS);
  if (!points) return `The polygon must be a list of at most ${MAX_POLYGON_POINTS} points {lat, lng}, lat -90 to 90 and lng -180 to 180.`;
  if (points.length < 4) return "The polygon must have at least 3 different corners, and repeat the first point last.";
  if (!samePoint(points[0]!, points.at(-1)!)) return "The polygon must be closed: its last point must be the same as its first.";
  const ring = withoutRepeats(points).map((p) => ({ lat: p.lat, lng: p.lng }));
  if (ring.length < 4) return "The polygon must have at least 3 different corners.";
  if (!isSimpleRing(ring)) return "The polygon may not cross or touch itself.";
  return { type: "polygon", coordinates: ring, center: null, radius: null };
}

/**
 * The geofence's shape from geofencePost: a circle needs a centre and a radius, a polygon
 * a ring (see polygonShape). The fields of the other type are ignored, as vendor forms
 * send them all.
 */
function shape(b: AddGeofenceBody): Shape {
  if (b.type === "polygon") {
    const polygon = polygonShape(b.polygon);
    if (typeof polygon === "string") throw new InvalidInputError({ polygon });
    return polygon;
  }
  if (!b.center || b.radius === undefined) {
    throw new InvalidInputError({
      ...(b.center ? {} : { center: "The center field is required when type is circle." }),
      ...(b.radius === undefined ? { radius: "The radius field is required when type is circle." } : {}),
    });
  }
  return { type: "circle", coordinates: [], center: { lat: b.center.lat, lng: b.center.lng }, radius: b.radius };
}

/** The body as the row's fields. */
function input(b: AddGeofenceBody): GeofenceInput {
  return {
    ...shape(b),
    name: b.name,
    polygonColor: b.polygon_color,
    // 0 is "no group", as the vendor's forms send it.
    ...(b.group_id === undefined ? {} : { groupId: b.group_id || null }),
    ...(b.active === undefined ? {} : { active: isActive(b.active) }),
    // 0 is "no limit", as an emptied form field sends it.
    ...(b.speed_limit === undefined ? {} : { speedLimit: b.speed_limit || null }),
  };
}

/** The middle of the ring's bounding box: where a client can label a polygon (across the antimeridian too). */
function boxCenter(ring: readonly LatLng[]): LatLng {
  const center = ringCenter(ring);
  if (center) return center;
  if (ring.length === 0) return { lat: 0, lng: 0 };
  const lats = ring.map((p) => p.lat);
  const lngs = ring.map((p) => p.lng);
  return { lat: (Math.min(...lats) + Math.max(...lats)) / 2, lng: (Math.min(...lngs) + Math.max(...lngs)) / 2 };
}

/** The spec's Geofence record; `coordinates` is JSON text, as the vendor sends it. */
function record(g: Geofence, clock: UserClock): GeofenceRecord {
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
    speed_limit: g.speedLimit,
    created_at: clock.format(g.createdAt.getTime()),
    updated_at: clock.format(g.updatedAt.getTime()),
  };
}

/** The user's geofences and geofence groups, by id. */
export async function list(db: Db, user: User) {
  const [rows, groups] = await Promise.all([listUserGeofences(db, user.id), listUserGeofenceGroups(db, user.id)]);
  return { items: { geofences: rows.map((g) => record(g, clockOf(user))), groups: groups.map(groupRecord) }, status: 1 as const };
}

export async function add(db: Db, user: User, body: AddGeofenceBody) {
  return { status: 1 as const, id: (await createGeofence(db, user.id, input(body))).id };
}

export const edit = (db: Db, user: User, body: EditGeofenceBody) => found(updateGeofence(db, user.id, body.id, input(body)), WHAT);

export const destroy = (db: Db, user: User, id: number) => found(destroyGeofence(db, user.id, id), WHAT);

export async function changeActive(db: Db, user: User, change: ChangeActive) {
  const { ids, active } = readChangeActive(change);
  return found(setGeofencesActive(db, user.id, ids, active), WHAT);
}

/** point_in_geofences: the names of the user's active geofences holding the point, by geofence id. */
export async function pointIn(db: Db, user: User, point: PointInGeofencesQuery) {
  const rows = await listUserGeofences(db, user.id);
  return { status: 1 as const, zones: rows.filter((g) => g.active && inGeofence(point, g)).map((g) => g.name) };
}

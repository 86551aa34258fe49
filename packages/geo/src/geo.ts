import { prepareRing, ringHolds } from "./polygon.js";

export interface LatLng {
  lat: number;
  lng: number;
}

/** Radius of the sphere `distanceKm` measures on (the IUGG mean radius). */
export const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/**
 * Faster than any vehicle: a fix the device would have had to reach faster than this from the
 * fix before it is a GPS jump (docs/decisions.md, "GPS jumps").
 */
export const GPS_JUMP_KMH = 500;

/** Whether `km` covered in `ms` is faster than GPS_JUMP_KMH: a GPS jump, not a vehicle's step. */
export const isGpsJump = (km: number, ms: number): boolean => km * 3_600_000 > GPS_JUMP_KMH * ms;

/** Great-circle distance in km (haversine; good to ~0.5% which GPS noise dwarfs). */
export function distanceKm(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Inside or on the edge of a circle of `radiusMeters` around `center`. */
export function inCircle(p: LatLng, center: LatLng, radiusMeters: number): boolean {
  return distanceKm(p, center) * 1000 <= radiusMeters;
}

/**
 * Ray casting on lat/lng as a plane, which is what every fleet product does for geofences
 * of city scale. The ring may be closed (first = last) or open and may cross the
 * antimeridian; a point on an edge or vertex is inside; fewer than three distinct points
 * hold nothing.
 */
export function inPolygon(p: LatLng, ring: readonly LatLng[]): boolean {
  const prepared = prepareRing(ring);
  return prepared !== null && ringHolds(prepared, p);
}

/** A geofence's shape as stored: a polygon's ring, or a circle's centre and radius in metres. */
export interface GeofenceShape {
  type: "polygon" | "circle";
  coordinates: readonly LatLng[];
  center: LatLng | null;
  radius: number | null;
}

/** Whether the geofence holds `p`: inside or on the edge of a polygon's ring or of a circle. */
export function inGeofence(p: LatLng, g: GeofenceShape): boolean {
  if (g.type === "circle") return g.center !== null && g.radius !== null && inCircle(p, g.center, g.radius);
  return inPolygon(p, g.coordinates);
}

function orientation(a: LatLng, b: LatLng, c: LatLng): number {
  const v = (b.lng - a.lng) * (c.lat - b.lat) - (b.lat - a.lat) * (c.lng - b.lng);
  return Math.sign(v);
}

function segmentsCross(p1: LatLng, p2: LatLng, q1: LatLng, q2: LatLng): boolean {
  const o1 = orientation(p1, p2, q1);
  const o2 = orientation(p1, p2, q2);
  const o3 = orientation(q1, q2, p1);
  const o4 = orientation(q1, q2, p2);
  return o1 !== o2 && o3 !== o4 && o1 !== 0 && o2 !== 0 && o3 !== 0 && o4 !== 0;
}

/** True when two non-adjacent edges of a closed ring cross each other. */
export function selfIntersects(closedRing: readonly LatLng[]): boolean {
  const n = closedRing.length - 1; // edges
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // first and last edges share a vertex
      if (segmentsCross(closedRing[i]!, closedRing[i + 1]!, closedRing[j]!, closedRing[j + 1]!)) return true;
    }
  }
  return false;
}

/**
 * The middle of a ring's bounding box, where a client can label it: taken with each step the
 * short way round, as containment takes it, so a zone across the antimeridian gets a middle
 * in it rather than on the far side of the planet. Null for a ring that holds nothing.
 */
export function ringCenter(ring: readonly LatLng[]): LatLng | null {
  const r = prepareRing(ring);
  if (!r) return null;
  const lng = (r.west + r.east) / 2;
  return { lat: (r.south + r.north) / 2, lng: lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng };
}

import type { LatLng } from "./geo.js";

/** A polygon ring ready for repeated tests: open, longitudes unwrapped, with its bounds. */
export interface Ring {
  readonly lats: Float64Array;
  readonly lngs: Float64Array;
  readonly south: number;
  readonly north: number;
  /** West and east of the unwrapped longitudes: either may lie beyond ±180. */
  readonly west: number;
  readonly east: number;
}

const same = (a: LatLng, b: LatLng) => a.lat === b.lat && a.lng === b.lng;

function hasThreeDistinct(ring: readonly LatLng[], n: number): boolean {
  const a = ring[0]!;
  let b: LatLng | undefined;
  for (let i = 1; i < n; i++) {
    const q = ring[i]!;
    if (same(q, a)) continue;
    if (b === undefined) b = q;
    else if (!same(q, b)) return true;
  }
  return false;
}

/** The offset that takes a ring's step from `from` to `to` (stored longitudes, ±180) the short way round, given the offset so far. */
export function shortWay(offset: number, from: number, to: number): number {
  const step = to - from;
  return step > 180 ? offset - 360 : step < -180 ? offset + 360 : offset;
}

/**
 * The ring, closed (first point repeated last) or open, prepared for `ringHolds`; null when
 * it has fewer than three distinct points and so holds nothing.
 *
 * Stored longitudes stay within ±180, so a zone straddling the antimeridian has an edge that
 * jumps ~359° the wrong way round the planet, and plain ray casting would test the band
 * outside the zone instead. Each step of more than 180° is taken the short way instead,
 * which makes the ring continuous in a longitude space that may run past ±180.
 */
export function prepareRing(ring: readonly LatLng[]): Ring | null {
  let n = ring.length;
  if (n > 1 && same(ring[0]!, ring[n - 1]!)) n--;
  if (n < 3 || !hasThreeDistinct(ring, n)) return null;
  const lats = new Float64Array(n);
  const lngs = new Float64Array(n);
  let offset = 0;
  let south = Infinity;
  let north = -Infinity;
  let west = Infinity;
  let east = -Infinity;
  for (let i = 0; i < n; i++) {
    const q = ring[i]!;
    if (i > 0) offset = shortWay(offset, ring[i - 1]!.lng, q.lng);
    const lng = q.lng + offset;
    lats[i] = q.lat;
    lngs[i] = lng;
    south = Math.min(south, q.lat);
    north = Math.max(north, q.lat);
    west = Math.min(west, lng);
    east = Math.max(east, lng);
  }
  return { lats, lngs, south, north, west, east };
}

const between = (v: number, a: number, b: number) => (a <= b ? a <= v && v <= b : b <= v && v <= a);

/**
 * Ray casting northwards from (lat, lng) in the ring's unwrapped plane, where a point on an
 * edge or vertex counts as inside. Plain ray casting puts boundary points on one side or the
 * other depending on which way an edge runs, so a vehicle on the line between two zones
 * would be in one, both or neither by accident; "on the line is in" is the rule a user expects.
 * The crossing test uses the same cross product as the on-edge test (no division), so the
 * two always agree about which side of an edge a point lies.
 */
function holdsAt(r: Ring, lat: number, lng: number): boolean {
  const { lats, lngs } = r;
  const n = lats.length;
  let inside = false;
  let aLat = lats[n - 1]!;
  let aLng = lngs[n - 1]!;
  for (let i = 0; i < n; i++) {
    const bLat = lats[i]!;
    const bLng = lngs[i]!;
    const cross = (bLng - aLng) * (lat - aLat) - (bLat - aLat) * (lng - aLng);
    if (cross === 0 && between(lng, aLng, bLng) && between(lat, aLat, bLat)) return true;
    // The edge spans the point's meridian (half-open, so a vertex counts once) and passes north of it.
    if (aLng > lng !== bLng > lng && cross < 0 === bLng > aLng) inside = !inside;
    aLat = bLat;
    aLng = bLng;
  }
  return inside;
}

/** Whether the prepared ring holds `p`, edges and vertices included, at any of p's longitudes lng + 360k. */
export function ringHolds(r: Ring, p: LatLng): boolean {
  if (!(p.lat >= r.south && p.lat <= r.north) || !Number.isFinite(p.lng)) return false;
  const last = Math.ceil((r.east - p.lng) / 360);
  for (let k = Math.floor((r.west - p.lng) / 360); k <= last; k++) {
    const lng = p.lng + 360 * k;
    if (lng >= r.west && lng <= r.east && holdsAt(r, p.lat, lng)) return true;
  }
  return false;
}

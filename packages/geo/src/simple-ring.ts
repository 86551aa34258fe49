import type { LatLng } from "./geo.js";
import { shortWay } from "./polygon.js";

/*
 * `selfIntersects` counts only proper crossings, so a ring that touches itself (a figure
 * eight through a shared vertex, a vertex lying on another edge, an edge folding back
 * along the previous one) passes it, and it compares every pair of edges. Geofences
 * written through the API need the strict test, and one that stays cheap on the few
 * thousand points a request may carry.
 */

function orient(a: LatLng, b: LatLng, c: LatLng): number {
  return Math.sign((b.lng - a.lng) * (c.lat - a.lat) - (b.lat - a.lat) * (c.lng - a.lng));
}

/** `p` (collinear with a–b) lies within the segment's bounding box, ends included. */
function onSegment(a: LatLng, b: LatLng, p: LatLng): boolean {
  return Math.min(a.lng, b.lng) <= p.lng && p.lng <= Math.max(a.lng, b.lng) && Math.min(a.lat, b.lat) <= p.lat && p.lat <= Math.max(a.lat, b.lat);
}

/** Closed segments a–b and c–d share at least one point (crossing, touching or overlapping). */
function segmentsMeet(a: LatLng, b: LatLng, c: LatLng, d: LatLng): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSegment(a, b, c)) || (o2 === 0 && onSegment(a, b, d)) || (o3 === 0 && onSegment(c, d, a)) || (o4 === 0 && onSegment(c, d, b));
}

/** Edges u–v and v–w, which share v, also share more than v: w doubles back along u–v. */
function foldsBack(u: LatLng, v: LatLng, w: LatLng): boolean {
  return orient(u, v, w) === 0 && (u.lng - v.lng) * (w.lng - v.lng) + (u.lat - v.lat) * (w.lat - v.lat) > 0;
}

/**
 * The closed ring with each step taken the short way round, as containment reads it
 * (prepareRing): a zone straddling the antimeridian becomes one continuous outline instead of
 * one whose edges jump ~359° across the others. A ring whose steps do not come back to where
 * they began (one round a pole) is left as stored.
 */
function unwrapped(ring: readonly LatLng[]): readonly LatLng[] {
  let offset = 0;
  let moved = false;
  const out: LatLng[] = [ring[0]!];
  for (let i = 1; i < ring.length; i++) {
    offset = shortWay(offset, ring[i - 1]!.lng, ring[i]!.lng);
    if (offset !== 0) moved = true;
    out.push(offset === 0 ? ring[i]! : { lat: ring[i]!.lat, lng: ring[i]!.lng + offset });
  }
  return moved && offset === 0 ? out : ring;
}

/**
 * Whether a closed ring (first point equal to the last) is a simple polygon: at least
 * three corners, no repeated consecutive point, and no two edges meeting anywhere but
 * at the vertex that neighbouring edges share. Edges are compared only when their
 * bounding boxes overlap (a sweep over edges sorted by west end), which keeps real
 * outlines near n log n. A ring built to defeat that (thousands of long, nearly
 * parallel edges) is still O(n²): about 40 ms at 2,000 points, so callers bound n. A ring
 * across the antimeridian is judged as containment reads it, unwrapped.
 */
export function isSimpleRing(ring: readonly LatLng[]): boolean {
  const n = ring.length - 1; // edges
  if (n < 3) return false;
  const first = ring[0]!;
  const last = ring[n]!;
  if (first.lat !== last.lat || first.lng !== last.lng) return false;
  ring = unwrapped(ring);
  for (let i = 0; i < n; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    if (a.lat === b.lat && a.lng === b.lng) return false;
  }
  for (let i = 0; i < n; i++) {
    if (foldsBack(ring[(i + n - 1) % n]!, ring[i]!, ring[i + 1]!)) return false;
  }
  if (n === 3) return true; // every pair of a triangle's edges is adjacent; checked above
  // Edge bounds in flat arrays: the pair loop below is the hot path.
  const west = new Float64Array(n);
  const east = new Float64Array(n);
  const south = new Float64Array(n);
  const north = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    west[i] = Math.min(a.lng, b.lng);
    east[i] = Math.max(a.lng, b.lng);
    south[i] = Math.min(a.lat, b.lat);
    north[i] = Math.max(a.lat, b.lat);
  }
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((x, y) => west[x]! - west[y]!);
  for (let s = 0; s < n; s++) {
    const i = order[s]!;
    const reach = east[i]!;
    const lo = south[i]!;
    const hi = north[i]!;
    for (let t = s + 1; t < n; t++) {
      const j = order[t]!;
      if (west[j]! > reach) break;
      if (north[j]! < lo || south[j]! > hi) continue;
      const gap = i > j ? i - j : j - i;
      if (gap === 1 || gap === n - 1) continue; // neighbours share a vertex; fold-backs are checked above
      if (segmentsMeet(ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!)) return false;
    }
  }
  return true;
}

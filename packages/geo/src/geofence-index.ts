import Flatbush from "flatbush";
import { EARTH_RADIUS_KM, inCircle, type GeofenceShape, type LatLng } from "./geo.js";
import { prepareRing, ringHolds } from "./polygon.js";

/** A geofence as the index takes it: its id and its shape. */
export interface IndexedGeofence {
  id: number;
  shape: GeofenceShape;
}

interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

interface Entry {
  id: number;
  box: Box;
  holds: (p: LatLng) => boolean;
}

const deg = (rad: number) => (rad * 180) / Math.PI;

/*
 * Boxes are only a filter before the exact test, so they may be a little too large but never
 * too small: each is padded by about 0.1 mm to absorb rounding in the longitude shifts below.
 */
const PAD = 1e-9;

/**
 * The exact bounds of a spherical cap on the sphere `distanceKm` measures on. A flat
 * "r / 111,320 m per degree" box is slightly too small for that sphere, and dividing by
 * cos(lat) under-reaches in longitude (the widest point of a cap lies poleward of its
 * centre); asin(sin d / cos lat) is that widest longitude, so no point the circle holds
 * falls outside its box.
 */
function circleBox(center: LatLng, radiusMeters: number): Box {
  const d = radiusMeters / 1000 / EARTH_RADIUS_KM;
  const south = center.lat - deg(d);
  const north = center.lat + deg(d);
  if (south <= -90 || north >= 90) return { south: Math.max(south, -90), north: Math.min(north, 90), west: -180, east: 180 };
  const reach = deg(Math.asin(Math.sin(d) / Math.cos((center.lat * Math.PI) / 180)));
  return { south, north, west: center.lng - reach, east: center.lng + reach };
}

function entry(g: IndexedGeofence): Entry | null {
  const { shape } = g;
  if (shape.type === "circle") {
    const { center, radius } = shape;
    // Like inCircle: no centre, no radius or a negative one holds nothing.
    if (center === null || radius === null || !(radius >= 0)) return null;
    return { id: g.id, box: circleBox(center, radius), holds: (p) => inCircle(p, center, radius) };
  }
  const ring = prepareRing(shape.coordinates);
  if (ring === null) return null;
  return { id: g.id, box: ring, holds: (p) => ringHolds(ring, p) };
}

/** Shift a box by whole turns so its west edge lies in [-180, 180); a box a turn wide or more covers every longitude. */
function normalised(b: Box): Box {
  if (b.east - b.west >= 360) return { ...b, west: -180, east: 180 };
  const shift = 360 * Math.floor((b.west + 180) / 360);
  return { ...b, west: b.west - shift, east: b.east - shift };
}

/**
 * The geofences of one user in a static R-tree (flatbush) of bounding boxes, for asking which
 * of them hold a position: a box search, then the exact test on the few candidates. Build a
 * new index when the geofences change.
 *
 * Boxes live in a longitude space running from -180 to 540: each box starts west of 180, and
 * one that crosses the antimeridian runs on past it. A position is then looked up at its
 * longitude in [-180, 180) and again 360° east, which finds both halves of every crossing.
 */
export class GeofenceIndex {
  readonly #entries: Entry[];
  readonly #tree: Flatbush | null;

  constructor(geofences: readonly IndexedGeofence[]) {
    // In id order, so that the tree's item numbers are already in the order answers are given.
    this.#entries = [...geofences]
      .sort((a, b) => a.id - b.id)
      .map(entry)
      .filter((e) => e !== null);
    if (this.#entries.length === 0) {
      this.#tree = null; // flatbush refuses an empty index
      return;
    }
    const tree = new Flatbush(this.#entries.length);
    for (const { box } of this.#entries) {
      const b = normalised(box);
      tree.add(b.west - PAD, b.south - PAD, b.east + PAD, b.north + PAD);
    }
    tree.finish();
    this.#tree = tree;
  }

  /** The ids of every geofence holding `p` (edges included), in ascending order. */
  containing(p: LatLng): number[] {
    if (this.#tree === null || !Number.isFinite(p.lat) || !Number.isFinite(p.lng)) return [];
    const lng = p.lng - 360 * Math.floor((p.lng + 180) / 360);
    const candidates = this.#tree.search(lng, p.lat, lng, p.lat);
    // The second look only where some box runs past the antimeridian that far (few indexes have any).
    if (lng + 360 <= this.#tree.maxX) candidates.push(...this.#tree.search(lng + 360, p.lat, lng + 360, p.lat));
    candidates.sort((a, b) => a - b);
    const ids: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[i]!;
      if (c === candidates[i - 1]) continue; // a box covering every longitude is found by both searches
      const e = this.#entries[c]!;
      if (e.holds(p)) ids.push(e.id);
    }
    return ids;
  }
}

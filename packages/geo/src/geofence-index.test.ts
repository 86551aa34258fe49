import { describe, expect, it } from "vitest";
import { inGeofence, type GeofenceShape, type LatLng } from "./geo.js";
import { GeofenceIndex, type IndexedGeofence } from "./geofence-index.js";

const at = (lat: number, lng: number): LatLng => ({ lat, lng });
const polygon = (...pts: [number, number][]): GeofenceShape => ({ type: "polygon", coordinates: pts.map(([lat, lng]) => at(lat, lng)), center: null, radius: null });
const circle = (lat: number, lng: number, radius: number | null): GeofenceShape => ({ type: "circle", coordinates: [], center: at(lat, lng), radius });

/** A seeded pseudo-random source in [0, 1) (mulberry32): the same numbers on every run. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const wrap = (lng: number) => (lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng);

/** What the index must answer: every shape tested, no index. */
const bruteForce = (fences: readonly IndexedGeofence[], p: LatLng) =>
  fences
    .filter((g) => inGeofence(p, g.shape))
    .map((g) => g.id)
    .sort((a, b) => a - b);

interface Place {
  center: LatLng;
  /** Rough size in degrees, for scattering test points around it. */
  size: number;
  vertices: LatLng[];
}

/**
 * Geofences as users draw them: half crowded into one city (so a point is often in several),
 * the rest across the globe, a fifth of those straddling the antimeridian and some over the
 * poles; star-shaped polygons (mostly concave) and circles from 50 m to 300 km.
 */
function randomFences(random: () => number, count: number): { fences: IndexedGeofence[]; places: Place[] } {
  const fences: IndexedGeofence[] = [];
  const places: Place[] = [];
  for (let i = 0; i < count; i++) {
    const kind = random();
    const city = kind < 0.5;
    const lat = city ? 54.6 + random() * 0.2 : kind < 0.6 ? (random() < 0.5 ? -1 : 1) * (84 + random() * 6) : random() * 140 - 70;
    const lng = city ? 25.2 + random() * 0.2 : kind < 0.8 ? wrap(177 + random() * 6) : random() * 360 - 180;
    const size = city ? 0.002 + random() * 0.05 : 0.05 + random() * 3;
    const id = 1 + ((i * 7919) % 100_003); // unique, and not in the order the fences are listed
    if (random() < 0.5) {
      const n = 3 + Math.floor(random() * 10);
      const ring = Array.from({ length: n }, (_, v) => {
        const angle = (2 * Math.PI * (v + random() * 0.8)) / n;
        const r = size * (0.2 + random() * 0.8);
        return at(Math.max(-90, Math.min(90, lat + r * Math.sin(angle))), wrap(lng + r * Math.cos(angle)));
      });
      fences.push({ id, shape: { type: "polygon", coordinates: random() < 0.5 ? [...ring, ring[0]!] : ring, center: null, radius: null } });
      places.push({ center: at(lat, lng), size, vertices: ring });
    } else {
      fences.push({ id, shape: circle(lat, lng, size * 111_195 * random()) });
      places.push({ center: at(lat, lng), size, vertices: [] });
    }
  }
  return { fences, places };
}

/** Points near the fences, on their vertices, on and around the antimeridian, and anywhere. */
function randomPoints(random: () => number, places: readonly Place[], count: number): LatLng[] {
  const points: LatLng[] = [];
  for (let i = 0; i < count; i++) {
    const kind = random();
    const place = places[Math.floor(random() * places.length)]!;
    if (kind < 0.5) {
      const lat = place.center.lat + (random() * 2 - 1) * place.size * 1.5;
      points.push(at(Math.max(-90, Math.min(90, lat)), wrap(place.center.lng + (random() * 2 - 1) * place.size * 1.5)));
    } else if (kind < 0.6 && place.vertices.length > 0) {
      points.push(place.vertices[Math.floor(random() * place.vertices.length)]!);
    } else if (kind < 0.75) {
      points.push(at(random() * 140 - 70, [180, -180, 179.9, -179.9][Math.floor(random() * 4)]!));
    } else {
      points.push(at(random() * 180 - 90, random() * 360 - 180));
    }
  }
  return points;
}

describe("GeofenceIndex", () => {
  it("finds nothing when there are no geofences", () => {
    const index = new GeofenceIndex([]);
    for (const p of [at(0, 0), at(54.69, 25.28), at(-90, 180), at(NaN, 0)]) expect(index.containing(p)).toEqual([]);
  });

  it("answers ids in ascending order, edges included, whatever order the geofences came in", () => {
    const index = new GeofenceIndex([
      { id: 30, shape: circle(54.69, 25.29, 800) },
      { id: 4, shape: polygon([54.68, 25.27], [54.68, 25.29], [54.7, 25.29], [54.7, 25.27]) },
      { id: 12, shape: polygon([54.69, 25.28], [54.69, 25.3], [54.72, 25.3], [54.72, 25.28], [54.69, 25.28]) },
    ]);
    expect(index.containing(at(54.69, 25.285))).toEqual([4, 12, 30]); // 12's south edge
    expect(index.containing(at(54.695, 25.275))).toEqual([4]);
    expect(index.containing(at(54.71, 25.29))).toEqual([12]);
    expect(index.containing(at(54.68, 25.27))).toEqual([4]); // 4's corner
    expect(index.containing(at(54.75, 25.28))).toEqual([]);
  });

  it("skips shapes that hold nothing", () => {
    const index = new GeofenceIndex([
      { id: 1, shape: polygon([0, 0], [1, 1], [0, 0]) },
      { id: 2, shape: circle(0, 0, null) },
      { id: 3, shape: { type: "circle", coordinates: [], center: null, radius: 100 } },
      { id: 4, shape: circle(0, 0, -5) },
      { id: 5, shape: circle(0, 0, 0) },
    ]);
    expect(index.containing(at(0, 0))).toEqual([5]);
    expect(index.containing(at(0.5, 0.5))).toEqual([]);
  });

  it("finds geofences across the antimeridian from either side, and over the poles", () => {
    const index = new GeofenceIndex([
      { id: 1, shape: polygon([-10, 170], [-10, -170], [10, -170], [10, 170]) },
      { id: 2, shape: circle(0, 179.99, 5000) },
      { id: 3, shape: circle(0, -179.99, 5000) },
      { id: 4, shape: polygon([20, 170], [20, 180], [30, 180], [30, 170]) }, // touches the line from the west
      { id: 5, shape: circle(89.99, 0, 5000) }, // holds the north pole
    ]);
    expect(index.containing(at(0, 175))).toEqual([1]);
    expect(index.containing(at(0, -175))).toEqual([1]);
    expect(index.containing(at(0, 180))).toEqual([1, 2, 3]);
    expect(index.containing(at(0, -180))).toEqual([1, 2, 3]);
    expect(index.containing(at(0, -179.97))).toEqual([1, 2, 3]); // ~2.2 km from 3, ~4.4 km from 2 across the line
    expect(index.containing(at(0, 179.95))).toEqual([1, 2]);
    expect(index.containing(at(25, -180))).toEqual([4]);
    expect(index.containing(at(25, -179.999))).toEqual([]);
    for (const lng of [-180, -90, 0, 45, 179.5, 180]) expect(index.containing(at(89.98, lng))).toEqual([5]);
    expect(index.containing(at(90, 123))).toEqual([5]);
    expect(index.containing(at(89.9, 0))).toEqual([]);
  });

  it("agrees with testing every geofence, over 1,000 random geofences and 3,000 points", () => {
    const random = mulberry32(20240611);
    const { fences, places } = randomFences(random, 1000);
    const index = new GeofenceIndex(fences);
    const mismatches: unknown[] = [];
    let hits = 0;
    let crowded = 0;
    let acrossTheLine = 0;
    for (const p of randomPoints(random, places, 3000)) {
      const expected = bruteForce(fences, p);
      const got = index.containing(p);
      if (JSON.stringify(got) !== JSON.stringify(expected)) mismatches.push({ p, expected, got });
      hits += expected.length;
      if (expected.length >= 3) crowded++;
      if (Math.abs(p.lng) > 179 && expected.length > 0) acrossTheLine++;
    }
    expect(mismatches).toEqual([]);
    // The comparison means something only if the points land in many geofences.
    expect(hits).toBeGreaterThan(5000);
    expect(crowded).toBeGreaterThan(300);
    expect(acrossTheLine).toBeGreaterThan(100);
  });

  it("stays fast with 1,000 geofences", () => {
    const random = mulberry32(99);
    const { fences, places } = randomFences(random, 1000);
    const points = randomPoints(random, places, 20_000);
    const started = performance.now();
    const index = new GeofenceIndex(fences);
    let hits = 0;
    for (const p of points) hits += index.containing(p).length;
    // Testing every geofence takes seconds here; the index, tens of milliseconds.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(hits).toBeGreaterThan(10_000);
  });
});

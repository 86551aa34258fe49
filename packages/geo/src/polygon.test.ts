import { describe, expect, it } from "vitest";
import { inGeofence, inPolygon, type LatLng } from "./geo.js";

/** An open ring from [lat, lng] pairs. */
const open = (...pts: [number, number][]): LatLng[] => pts.map(([lat, lng]) => ({ lat, lng }));
const closed = (...pts: [number, number][]): LatLng[] => open(...pts, pts[0]!);
const at = (lat: number, lng: number): LatLng => ({ lat, lng });

/** A seeded pseudo-random source in [0, 1) (mulberry32): the same numbers on every run. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The ring in every form a caller may hand over: open, closed, reversed, started elsewhere. */
function variants(ring: LatLng[]): LatLng[][] {
  const rev = [...ring].reverse();
  const rot = [...ring.slice(2), ...ring.slice(0, 2)];
  return [ring, [...ring, ring[0]!], rev, [...rev, rev[0]!], rot, [...rot, rot[0]!]];
}

/** Whether every variant of the ring agrees that it holds p, and what they say. */
function holds(ring: LatLng[], p: LatLng): boolean {
  const answers = variants(ring).map((r) => inPolygon(p, r));
  expect(new Set(answers).size, `variants disagree on ${JSON.stringify(p)}`).toBe(1);
  return answers[0]!;
}

describe("inPolygon on the boundary", () => {
  const square = open([0, 0], [0, 10], [10, 10], [10, 0]);

  it("holds every vertex and points along every edge, whichever way the ring runs", () => {
    for (const v of square) expect(holds(square, v)).toBe(true);
    for (const p of [at(0, 5), at(5, 10), at(10, 5), at(5, 0), at(0, 0.001), at(9.999, 10)]) expect(holds(square, p)).toBe(true);
  });

  it("still leaves out points just beyond the edges and on their extensions", () => {
    for (const p of [at(-1e-9, 5), at(5, 10 + 1e-9), at(10 + 1e-9, 5), at(5, -1e-9), at(0, 11), at(0, -1), at(11, 10), at(-1, 0)]) {
      expect(holds(square, p)).toBe(false);
    }
  });

  it("holds points on a slanted edge", () => {
    const triangle = open([0, 0], [10, 10], [0, 10]);
    expect(holds(triangle, at(5, 5))).toBe(true);
    expect(holds(triangle, at(2.5, 2.5))).toBe(true);
    expect(holds(triangle, at(5, 4.999))).toBe(false);
    expect(holds(triangle, at(5, 5.001))).toBe(true);
  });
});

describe("inPolygon on a concave ring", () => {
  // A block with a V-shaped notch cut into its north side, tip at (4, 3).
  const notched = open([0, 0], [0, 6], [8, 6], [4, 3], [8, 0]);

  it("tells the arms and body from the notch", () => {
    expect(holds(notched, at(2, 3))).toBe(true); // under the tip: the ray north passes through a vertex
    expect(holds(notched, at(6, 1))).toBe(true); // west arm
    expect(holds(notched, at(6, 5))).toBe(true); // east arm
    expect(holds(notched, at(6, 3))).toBe(false); // in the notch, above the tip
    expect(holds(notched, at(6, 2))).toBe(false);
    expect(holds(notched, at(-1, 3))).toBe(false); // south of the block, under the tip
  });

  it("holds the notch's tip and points on its inner edges", () => {
    expect(holds(notched, at(4, 3))).toBe(true);
    expect(holds(notched, at(6, 1.5))).toBe(true); // midway along the tip's western edge
    expect(holds(notched, at(6, 4.5))).toBe(true);
  });
});

describe("inPolygon across the antimeridian", () => {
  // 20° wide, from 170°E across the date line to 170°W.
  const pacific = open([-10, 170], [-10, -170], [10, -170], [10, 170]);

  it("holds points on both sides of the antimeridian and on it", () => {
    for (const p of [at(0, 175), at(0, -175), at(0, 180), at(0, -180), at(5, 179.999), at(-9, -170.5)]) expect(holds(pacific, p)).toBe(true);
  });

  it("holds its edges and leaves out the rest of the world", () => {
    for (const p of [at(10, -175), at(0, -170), at(-10, 179), at(10, 170)]) expect(holds(pacific, p)).toBe(true);
    for (const p of [at(0, 0), at(0, 160), at(0, -160), at(20, 175), at(0, 169.999), at(0, -169.999)]) expect(holds(pacific, p)).toBe(false);
  });

  it("handles a concave ring that crosses the antimeridian more than once", () => {
    // A C opening east: its back at 178°E–179°E, its arms reaching across to 175°W.
    const c = open([0, 178], [0, -175], [1, -175], [1, 179], [3, 179], [3, -175], [4, -175], [4, 178]);
    expect(holds(c, at(0.5, -176))).toBe(true); // south arm, past the date line
    expect(holds(c, at(3.5, 179.5))).toBe(true); // north arm
    expect(holds(c, at(2, 178.5))).toBe(true); // back
    expect(holds(c, at(2, -178))).toBe(false); // in the mouth
    expect(holds(c, at(2, 179))).toBe(true); // the mouth's inner wall
    expect(holds(c, at(2, 177))).toBe(false);
  });

  it("agrees with the same polygons moved away from the antimeridian", () => {
    // Coordinates on a 2^-16 grid keep every sum and product exact, so moving a polygon and
    // its points by 180° may change no answer, edges and vertices included.
    const random = mulberry32(7);
    const grid = (x: number) => Math.round(x * 65536) / 65536;
    const wrap = (lng: number) => (lng > 180 ? lng - 360 : lng);
    const mismatches: unknown[] = [];
    let inside = 0;
    let outside = 0;
    for (let shape = 0; shape < 200; shape++) {
      const lat0 = grid(random() * 120 - 60);
      const lng0 = grid(180 + random() * 6 - 3);
      const n = 3 + Math.floor(random() * 10);
      // A star-shaped ring: a radius at each of n increasing angles.
      const ring = Array.from({ length: n }, (_, i) => {
        const angle = (2 * Math.PI * (i + random() * 0.8)) / n;
        const r = 0.5 + random() * 4;
        return { lat: grid(lat0 + r * Math.sin(angle)), lng: grid(lng0 + r * Math.cos(angle)) };
      });
      const points = [...ring, ...ring.map((v, i) => ({ lat: (v.lat + ring[(i + 1) % n]!.lat) / 2, lng: (v.lng + ring[(i + 1) % n]!.lng) / 2 }))];
      for (let i = 0; i < 100; i++) points.push({ lat: grid(lat0 + random() * 10 - 5), lng: grid(lng0 + random() * 10 - 5) });
      const stored = ring.map((v) => ({ lat: v.lat, lng: wrap(v.lng) }));
      const moved = ring.map((v) => ({ lat: v.lat, lng: v.lng - 180 }));
      for (const p of points) {
        const expected = inPolygon({ lat: p.lat, lng: p.lng - 180 }, moved);
        if (inPolygon({ lat: p.lat, lng: wrap(p.lng) }, stored) !== expected) mismatches.push({ shape, p, expected });
        if (expected) inside++;
        else outside++;
      }
    }
    expect(mismatches).toEqual([]);
    expect(inside).toBeGreaterThan(3000);
    expect(outside).toBeGreaterThan(5000);
  });
});

describe("inPolygon on degenerate rings", () => {
  it("holds nothing, not even its own points, with fewer than three distinct points", () => {
    const cases: LatLng[][] = [[], open([1, 1]), open([1, 1], [2, 2]), closed([1, 1], [2, 2]), open([1, 1], [1, 1], [2, 2], [2, 2], [1, 1])];
    for (const ring of cases) {
      for (const p of [at(1, 1), at(1.5, 1.5), at(2, 2)]) expect(inPolygon(p, ring), JSON.stringify(ring)).toBe(false);
    }
  });

  it("gives nothing for a point that is not a number", () => {
    const square = open([0, 0], [0, 10], [10, 10], [10, 0]);
    for (const p of [at(NaN, 5), at(5, NaN), at(5, Infinity), at(5, -Infinity)]) expect(inPolygon(p, square)).toBe(false);
  });
});

describe("inGeofence across the antimeridian", () => {
  it("holds a polygon's points on both sides", () => {
    const g = { type: "polygon" as const, coordinates: closed([-1, 179.5], [-1, -179.5], [1, -179.5], [1, 179.5]), center: null, radius: null };
    expect(inGeofence(at(0, 179.9), g)).toBe(true);
    expect(inGeofence(at(0, -179.9), g)).toBe(true);
    expect(inGeofence(at(0, 0), g)).toBe(false);
  });

  it("holds points of a circle on the far side of the antimeridian within its radius", () => {
    // At the equator 0.01° of longitude is about 1.11 km.
    const g = { type: "circle" as const, coordinates: [], center: at(0, 179.99), radius: 5000 };
    expect(inGeofence(at(0, -179.99), g)).toBe(true); // ~2.2 km east, across the line
    expect(inGeofence(at(0.02, -179.98), g)).toBe(true); // ~3.9 km
    expect(inGeofence(at(0, -179.95), g)).toBe(false); // ~6.7 km
    expect(inGeofence(at(0, 179.9), g)).toBe(false); // ~10 km west
  });
});

import { describe, expect, it } from "vitest";
import type { LatLng } from "./geo.js";
import { isSimpleRing } from "./simple-ring.js";

/** A closed ring from [lat, lng] pairs, the first repeated at the end. */
const ring = (...pts: [number, number][]): LatLng[] => [...pts, pts[0]!].map(([lat, lng]) => ({ lat, lng }));

describe("isSimpleRing", () => {
  it("accepts triangles, squares and concave outlines", () => {
    expect(isSimpleRing(ring([0, 0], [0, 1], [1, 0]))).toBe(true);
    expect(isSimpleRing(ring([0, 0], [0, 10], [10, 10], [10, 0]))).toBe(true);
    // An L shape: concave, still simple.
    expect(isSimpleRing(ring([0, 0], [0, 4], [1, 4], [1, 1], [4, 1], [4, 0]))).toBe(true);
  });

  it("refuses rings that are not closed or have fewer than three corners", () => {
    expect(isSimpleRing([{ lat: 0, lng: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 0 }, { lat: 1, lng: 1 }])).toBe(false);
    expect(isSimpleRing(ring([0, 0], [0, 1]))).toBe(false);
    expect(isSimpleRing([])).toBe(false);
  });

  it("judges a ring across the antimeridian as one outline: a concave one is simple, a bow tie is not", () => {
    // A C opening east: its back at 178°E–179°E, its arms reaching across to 175°W.
    const c = ring([0, 178], [0, -175], [1, -175], [1, 179], [3, 179], [3, -175], [4, -175], [4, 178]);
    expect(isSimpleRing(c)).toBe(true);
    // The same C away from the antimeridian, for comparison.
    expect(isSimpleRing(ring([0, 8], [0, 15], [1, 15], [1, 9], [3, 9], [3, 15], [4, 15], [4, 8]))).toBe(true);
    expect(isSimpleRing(ring([0, 179], [1, -179], [0, -179], [1, 179]))).toBe(false);
    // An L whose foot crosses the line, and one whose corner touches its other arm.
    expect(isSimpleRing(ring([0, 179], [0, -177], [1, -177], [1, -179.5], [4, -179.5], [4, 179]))).toBe(true);
    expect(isSimpleRing(ring([0, 179], [0, -177], [1, -177], [0, -179.5], [4, -179.5], [4, 179]))).toBe(false);
  });

  it("refuses a bow tie (two edges crossing)", () => {
    expect(isSimpleRing(ring([0, 0], [10, 10], [0, 10], [10, 0]))).toBe(false);
  });

  it("refuses rings that touch themselves without crossing", () => {
    // A notch is fine; a notch whose tip lies on the opposite edge is not.
    expect(isSimpleRing(ring([0, 0], [0, 10], [5, 5], [10, 10], [10, 0], [5, 0]))).toBe(true);
    expect(isSimpleRing(ring([0, 0], [0, 10], [10, 5], [5, 5], [0, 5]))).toBe(false);
    // A figure eight through a shared vertex.
    expect(isSimpleRing(ring([0, 0], [5, 5], [0, 10], [10, 10], [5, 5], [10, 0]))).toBe(false);
    // An edge folding back along the previous one (a spike), and all corners on one line.
    expect(isSimpleRing(ring([0, 0], [0, 10], [0, 5], [10, 0]))).toBe(false);
    expect(isSimpleRing(ring([0, 0], [0, 1], [0, 2]))).toBe(false);
    // Two edges overlapping along a line.
    expect(isSimpleRing(ring([0, 0], [0, 10], [1, 10], [1, 5], [0, 5], [0, 3], [2, 3], [2, 0]))).toBe(false);
  });

  it("refuses a repeated consecutive point", () => {
    expect(isSimpleRing(ring([0, 0], [0, 10], [0, 10], [10, 10], [10, 0]))).toBe(false);
  });

  it("checks a 5,000-point outline quickly, and finds one crossing among them", () => {
    const pts: [number, number][] = [];
    for (let i = 0; i < 5000; i++) pts.push([54 + 0.01 * Math.sin((2 * Math.PI * i) / 5000), 25 + 0.01 * Math.cos((2 * Math.PI * i) / 5000)]);
    const started = performance.now();
    expect(isSimpleRing(ring(...pts))).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
    // Swapping two neighbouring points makes their edges cross.
    [pts[100], pts[101]] = [pts[101]!, pts[100]!];
    expect(isSimpleRing(ring(...pts))).toBe(false);
  });
});

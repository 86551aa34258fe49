import { describe, expect, it } from "vitest";
import { distanceKm, inCircle, inGeofence, inPolygon, ringCenter, selfIntersects } from "./geo.js";

describe("distanceKm", () => {
  it("matches known city distances", () => {
    // Vilnius to Kaunas, about 92 km as the crow flies.
    const vk = distanceKm({ lat: 54.6872, lng: 25.2797 }, { lat: 54.8985, lng: 23.9036 });
    expect(vk).toBeGreaterThan(90);
    expect(vk).toBeLessThan(93);
    // London to Paris, about 344 km.
    expect(distanceKm({ lat: 51.5074, lng: -0.1278 }, { lat: 48.8566, lng: 2.3522 })).toBeCloseTo(343.5, 0);
  });
  it("is zero for the same point and symmetric", () => {
    const a = { lat: 10, lng: 20 };
    const b = { lat: -33.9, lng: 151.2 };
    expect(distanceKm(a, a)).toBe(0);
    expect(distanceKm(a, b)).toBeCloseTo(distanceKm(b, a), 9);
  });
});

describe("inCircle", () => {
  it("includes points within the radius and excludes those beyond", () => {
    const c = { lat: 54.6872, lng: 25.2797 };
    expect(inCircle({ lat: 54.6881, lng: 25.2797 }, c, 150)).toBe(true); // ~100 m north
    expect(inCircle({ lat: 54.6881, lng: 25.2797 }, c, 50)).toBe(false);
  });
});

describe("inPolygon", () => {
  const square = [
    { lat: 0, lng: 0 },
    { lat: 0, lng: 10 },
    { lat: 10, lng: 10 },
    { lat: 10, lng: 0 },
    { lat: 0, lng: 0 },
  ];
  it("tells inside from outside", () => {
    expect(inPolygon({ lat: 5, lng: 5 }, square)).toBe(true);
    expect(inPolygon({ lat: 15, lng: 5 }, square)).toBe(false);
    expect(inPolygon({ lat: 5, lng: -1 }, square)).toBe(false);
  });
  it("detects a bow-tie as self-intersecting and a square as not", () => {
    expect(selfIntersects(square)).toBe(false);
    const bowtie = [
      { lat: 0, lng: 0 },
      { lat: 10, lng: 10 },
      { lat: 0, lng: 10 },
      { lat: 10, lng: 0 },
      { lat: 0, lng: 0 },
    ];
    expect(selfIntersects(bowtie)).toBe(true);
  });
});

describe("inGeofence", () => {
  const ring = [
    { lat: 0, lng: 0 },
    { lat: 0, lng: 10 },
    { lat: 10, lng: 10 },
    { lat: 10, lng: 0 },
    { lat: 0, lng: 0 },
  ];
  it("tests a polygon by its ring and a circle by its centre and radius", () => {
    const polygon = { type: "polygon" as const, coordinates: ring, center: null, radius: null };
    expect(inGeofence({ lat: 5, lng: 5 }, polygon)).toBe(true);
    expect(inGeofence({ lat: 5, lng: 11 }, polygon)).toBe(false);
    const circle = { type: "circle" as const, coordinates: [], center: { lat: 54.6872, lng: 25.2797 }, radius: 150 };
    expect(inGeofence({ lat: 54.6881, lng: 25.2797 }, circle)).toBe(true);
    expect(inGeofence({ lat: 54.6872, lng: 25.2797 }, { ...circle, radius: 0.001 })).toBe(true);
    expect(inGeofence({ lat: 54.6901, lng: 25.2797 }, circle)).toBe(false);
  });
  it("holds nothing in a circle missing its centre or radius", () => {
    expect(inGeofence({ lat: 0, lng: 0 }, { type: "circle", coordinates: [], center: null, radius: 100 })).toBe(false);
    expect(inGeofence({ lat: 0, lng: 0 }, { type: "circle", coordinates: [], center: { lat: 0, lng: 0 }, radius: null })).toBe(false);
  });
});

describe("ringCenter", () => {
  it("is the middle of the ring's box, across the antimeridian the short way round", () => {
    expect(ringCenter([{ lat: 54, lng: 25 }, { lat: 54, lng: 26 }, { lat: 55, lng: 26 }, { lat: 55, lng: 25 }])).toEqual({ lat: 54.5, lng: 25.5 });
    // Fiji: 179° E to 179° W is two degrees wide, its middle on the antimeridian, not at 0°.
    const fiji = ringCenter([{ lat: -16, lng: 179 }, { lat: -16, lng: -179 }, { lat: -19, lng: -179 }, { lat: -19, lng: 179 }, { lat: -16, lng: 179 }])!;
    expect(fiji.lat).toBe(-17.5);
    expect(Math.abs(fiji.lng)).toBe(180);
    expect(inPolygon(fiji, [{ lat: -16, lng: 179 }, { lat: -16, lng: -179 }, { lat: -19, lng: -179 }, { lat: -19, lng: 179 }])).toBe(true);
    expect(ringCenter([{ lat: 1, lng: 1 }, { lat: 2, lng: 2 }])).toBeNull();
  });
});

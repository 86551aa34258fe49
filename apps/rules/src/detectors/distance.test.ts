import { describe, expect, it } from "vitest";
import { T0, alert, deviceRules, track, runTrack } from "../testing.js";

describe("distance", () => {
  it("distance fires each time the device has driven the alert's distance, in km or miles", () => {
    const km = runTrack(deviceRules([alert({ type: "distance", attributes: { distance: 10, distance_unit: 1 } })]), track(25, 60_000, () => ({ distanceKm: 1 })));
    expect(km.events.map((e) => e.time.getTime())).toEqual([T0 + 9 * 60_000, T0 + 19 * 60_000]);
    const mi = runTrack(deviceRules([alert({ type: "distance", attributes: { distance: 10, distance_unit: 2 } })]), track(25, 60_000, () => ({ distanceKm: 1 })));
    expect(mi.events.map((e) => e.time.getTime())).toEqual([T0 + 16 * 60_000]);
  });
});

import { describe, expect, it } from "vitest";
import { T0, alert, deviceRules, track, runTrack } from "../testing.js";

const MIN = 60_000;
// Two points of interest 1.1 km apart on a meridian; the track's positions (54.69, 25.28) sit at the first.
const depot = { id: 31, name: "Depot", lat: 54.69, lng: 25.28 };
const yard = { id: 32, name: "Yard", lat: 54.7, lng: 25.28 };

describe("points of interest", () => {
  it("poi_stop_duration fires once a stop within the tolerance of one of its points has lasted the minutes, naming it", () => {
    const rules = deviceRules([alert({ type: "poi_stop_duration", pois: [31, 32], attributes: { stop_duration: 10, distance_tolerance: 100 } })], { pois: [depot, yard] });
    // Moving 0–1, standing 60 m from the depot 2–14, moving again.
    const r = runTrack(rules, track(16, MIN, (i) => (i < 2 || i > 14 ? { moving: true, speedKmh: 40, latitude: 54.68 } : { latitude: 54.69054 })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([["poi_stop_duration", "Stopped at Depot for more than 10 min", T0 + 12 * MIN]]);
    expect(r.events[0]!.dedupeKey).toBe(`1:poi_stop_duration:1:since:${T0 + 2 * MIN}`);
  });

  it("poi_stop_duration does not fire for a stop beyond the tolerance, nor at a point the alert does not name", () => {
    const stop = track(15, MIN, () => ({ latitude: 54.6912 })); // 133 m from the depot
    const near = deviceRules([alert({ type: "poi_stop_duration", pois: [31], attributes: { stop_duration: 10, distance_tolerance: 100 } })], { pois: [depot, yard] });
    expect(runTrack(near, stop).events).toEqual([]);
    const wider = deviceRules([alert({ type: "poi_stop_duration", pois: [31], attributes: { stop_duration: 10, distance_tolerance: 150 } })], { pois: [depot, yard] });
    expect(runTrack(wider, stop).events).toHaveLength(1);
    const other = deviceRules([alert({ type: "poi_stop_duration", pois: [32], attributes: { stop_duration: 10, distance_tolerance: 150 } })], { pois: [depot, yard] });
    expect(runTrack(other, stop).events).toEqual([]);
  });

  it("poi_idle_duration counts only standing with the engine on at the point", () => {
    const rules = deviceRules([alert({ type: "poi_idle_duration", pois: [32], attributes: { idle_duration: 5, distance_tolerance: 50 } })], { pois: [depot, yard] });
    // At the yard: engine off 0–3, on 4–12.
    const r = runTrack(rules, track(13, MIN, (i) => ({ latitude: 54.7, engineOn: i >= 4 })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([["poi_idle_duration", "Idle at Yard for more than 5 min", T0 + 9 * MIN]]);
  });
});

import { describe, expect, it } from "vitest";
import { T0, alert, deviceRules, position, square, track, runTrack, typesOf, user } from "../testing.js";

describe("geofences", () => {
  const depot = square(3, "Depot", 54.7, 25.3);
  const yard = square(4, "Yard", 54.8, 25.4);
  const at = (g: typeof depot | "out") => (g === "out" ? { latitude: 54.5, longitude: 25.0 } : { latitude: g.shape.coordinates[0]!.lat + 0.005, longitude: g.shape.coordinates[0]!.lng + 0.005 });

  it("geofence_inout fires on each crossing of each of its geofences, never while the device stays in or out", () => {
    const rules = deviceRules([alert({ type: "geofence_inout", geofences: [3, 4] })], { geofences: [depot, yard] });
    const stops = ["out", depot, depot, "out", "out", yard, "out"] as const;
    const r = runTrack(rules, track(stops.length, 10_000, (i) => at(stops[i]!)));
    expect(r.events.map((e) => [e.type, e.message, e.geofenceId])).toEqual([
      ["geofence_in", "Entered Depot", 3],
      ["geofence_out", "Left Depot", 3],
      ["geofence_in", "Entered Yard", 4],
      ["geofence_out", "Left Yard", 4],
    ]);
  });

  it("geofence_in and geofence_out fire only on their own crossing, and only for the alert's geofences", () => {
    const path = ["out", depot, "out", yard, "out"] as const;
    const positions = track(path.length, 10_000, (i) => at(path[i]!));
    const ins = runTrack(deviceRules([alert({ type: "geofence_in", geofences: [3] })], { geofences: [depot, yard] }), positions);
    const outs = runTrack(deviceRules([alert({ type: "geofence_out", geofences: [3] })], { geofences: [depot, yard] }), positions);
    expect(ins.events.map((e) => [e.type, e.geofenceId])).toEqual([["geofence_in", 3]]);
    expect(outs.events.map((e) => [e.type, e.geofenceId])).toEqual([["geofence_out", 3]]);
  });

  it("runs, at a move from one geofence straight into another, each alert naming either and no other", () => {
    const rules = deviceRules(
      [alert({ id: 1, type: "geofence_inout", geofences: [3] }), alert({ id: 2, type: "geofence_in", geofences: [3] }), alert({ id: 3, type: "geofence_inout", geofences: [4] }), alert({ id: 4, type: "geofence_out", geofences: [4] })],
      { geofences: [depot, yard] },
    );
    const path = ["out", depot, yard] as const;
    // 13 km in ten minutes: a vehicle's pace, not a GPS jump.
    const r = runTrack(rules, track(path.length, 600_000, (i) => ({ ...at(path[i]!), distanceKm: i === 2 ? 13 : 1 })));
    expect(r.events.map((e) => [e.alertId, e.type, e.geofenceId])).toEqual([
      [1, "geofence_in", 3],
      [2, "geofence_in", 3],
      [1, "geofence_out", 3],
      [3, "geofence_in", 4],
    ]);
  });

  it("reports nothing for a GPS jump out of a geofence and back, and a crossing at a vehicle's speed as usual", () => {
    const rules = deviceRules([alert({ type: "geofence_inout", geofences: [3] })], { geofences: [depot] });
    const inside = at(depot);
    // 10 s apart, the jump is 25 km away and back (9,000 km/h); the real exit is 2.2 km in a minute (132 km/h).
    const jump = [
      { ...inside, fixTime: T0, distanceKm: 0 },
      { ...inside, fixTime: T0 + 10_000, distanceKm: 0.01 },
      { latitude: 54.5, longitude: 25.0, fixTime: T0 + 20_000, distanceKm: 25 },
      { ...inside, fixTime: T0 + 30_000, distanceKm: 25 },
      { latitude: inside.latitude + 0.02, longitude: inside.longitude, fixTime: T0 + 90_000, distanceKm: 2.2 },
    ];
    const r = runTrack(rules, jump.map((p) => position(p)));
    expect(r.events.map((e) => [e.type, e.time.getTime()])).toEqual([["geofence_out", T0 + 90_000]]);
  });

  it("runs each owner's geofence alerts on their own geofences, for a device on two accounts", () => {
    const rules = deviceRules(
      [alert({ id: 1, userId: 7, type: "geofence_inout", geofences: [3] }), alert({ id: 2, userId: 8, type: "geofence_inout", geofences: [4] })],
      { users: [user({ id: 7 }), user({ id: 8 })], geofences: [depot, yard] },
    );
    const path = ["out", depot, "out", yard, "out"] as const;
    const r = runTrack(rules, track(path.length, 10_000, (i) => ({ ...at(path[i]!), userIds: [7, 8] })));
    expect(r.events.map((e) => [e.userId, e.type, e.geofenceId])).toEqual([
      [7, "geofence_in", 3],
      [7, "geofence_out", 3],
      [8, "geofence_in", 4],
      [8, "geofence_out", 4],
    ]);
  });

  it("does not report a device inside as entering when an alert is added, and reports its leaving to every alert", () => {
    const first = deviceRules([alert({ id: 1, type: "geofence_inout", geofences: [3] })], { geofences: [depot] });
    const both = deviceRules([alert({ id: 1, type: "geofence_inout", geofences: [3] }), alert({ id: 2, type: "geofence_inout", geofences: [3] })], { geofences: [depot] });
    const [a, b, c] = track(3, 10_000, (i) => at(i < 2 ? depot : "out"));
    const before = runTrack(first, [a!]);
    const after = runTrack(both, [b!, c!], before.state);
    expect(after.events.map((e) => [e.alertId, e.type])).toEqual([
      [1, "geofence_out"],
      [2, "geofence_out"],
    ]);
  });

  it("names a geofence turned off while the device was inside in the exit that follows", () => {
    const on = deviceRules([alert({ id: 1, type: "geofence_inout", geofences: [3] })], { geofences: [depot] });
    const off = deviceRules([alert({ id: 1, type: "geofence_inout", geofences: [3] })], { geofenceNames: [[3, "Depot"]] });
    const [a, b] = track(2, 10_000, () => at(depot));
    const r = runTrack(off, [b!], runTrack(on, [a!]).state);
    expect(r.events.map((e) => [e.type, e.message, e.geofenceId])).toEqual([["geofence_out", "Left Depot", 3]]);
  });

  it("does not report a device that was inside when the alert first saw it as entering", () => {
    const rules = deviceRules([alert({ type: "geofence_in", geofences: [3] })], { geofences: [depot] });
    expect(typesOf(runTrack(rules, track(3, 10_000, () => at(depot))))).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { NO_NOTIFICATIONS } from "@fleet/db";
import { evaluateDevice } from "../evaluate.js";
import { T0, alert, deviceRules, position, square, track, user, runTrack, typesOf } from "../testing.js";

describe("overspeed", () => {
  const rules = deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 } })]);

  it("fires once when the speed rises above the limit, not again until it has dropped to the limit or below", () => {
    const speeds = [50, 95, 120, 91, 90, 100, 80];
    const r = runTrack(rules, track(speeds.length, 10_000, (i) => ({ speedKmh: speeds[i]! })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([
      ["overspeed", "Overspeed: 95 kph (limit 90 kph)", T0 + 10_000],
      ["overspeed", "Overspeed: 100 kph (limit 90 kph)", T0 + 50_000],
    ]);
    expect(r.events[0]).toMatchObject({ userId: 7, deviceId: 1, alertId: 1, speedKmh: 95, latitude: 54.69, longitude: 25.28 });
  });

  it("carries the alert's sound and push flags on its events", () => {
    const speeds = [50, 100];
    const loud = deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 }, notifications: { ...NO_NOTIFICATIONS, sound: { active: true }, push: { active: false } } })]);
    expect(runTrack(loud, track(2, 10_000, (i) => ({ speedKmh: speeds[i]! }))).events.map((e) => [e.sound, e.push])).toEqual([[true, false]]);
    expect(runTrack(rules, track(2, 10_000, (i) => ({ speedKmh: speeds[i]! }))).events.map((e) => [e.sound, e.push])).toEqual([[false, false]]);
  });

  it("says a speed just over the limit to a tenth, so it never reads as the limit", () => {
    const r = runTrack(rules, track(4, 10_000, (i) => ({ speedKmh: [50, 90.4, 50, 90.5][i]! })));
    expect(r.events.map((e) => e.message)).toEqual(["Overspeed: 90.4 kph (limit 90 kph)", "Overspeed: 91 kph (limit 90 kph)"]);
  });

  it("says the speed in the owner's units", () => {
    const miles = deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 } })], { users: [user({ unitOfDistance: "mi" })] });
    const r = runTrack(miles, track(2, 10_000, (i) => ({ speedKmh: [50, 100][i]! })));
    expect(r.events.map((e) => e.message)).toEqual(["Overspeed: 62 mph (limit 56 mph)"]);
  });

  it("learns at first sight without firing: a new alert does not report a vehicle already speeding", () => {
    expect(typesOf(runTrack(rules, track(3, 10_000, () => ({ speedKmh: 120 }))))).toEqual([]);
  });

  it("records the same event for a replayed position (same dedupe key), and nothing for a fix older than the latest", () => {
    const [a, b] = track(2, 10_000, (i) => ({ speedKmh: [50, 100][i]! }));
    const first = runTrack(rules, [a!, b!]);
    const again = runTrack(rules, [a!, b!]);
    expect(first.events.map((e) => e.dedupeKey)).toEqual(again.events.map((e) => e.dedupeKey));
    const late = runTrack(rules, [position({ fixTime: T0 + 5_000, speedKmh: 130, latest: false })], first.state);
    expect(late.events).toEqual([]);
    expect(late.state).toEqual(first.state);
    expect(evaluateDevice(rules, [position({ fixTime: T0 + 5_000, speedKmh: 130, latest: false })], first.state).change).toBeUndefined();
  });

  it("takes the lowest speed limit of the owner's geofences holding the position, and its own elsewhere, naming the zone whose limit it was", () => {
    // A 50 km/h zone and, inside it around the track's start, a 30 km/h one; the town around them has none.
    const zones = [{ ...square(1, "Town", 54.69, 25.28, 0.05), speedLimit: null }, { ...square(2, "Centre", 54.69, 25.28, 0.02), speedLimit: 50 }, { ...square(3, "School", 54.69, 25.28, 0.005), speedLimit: 30 }];
    const rules = deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 } })], { geofences: zones });
    // 40 outside the limits, 40 then 45 in the school zone, 45 then 60 in the centre only, 80 then 95 outside.
    const at = [
      [54.72, 40],
      [54.69, 40],
      [54.691, 45],
      [54.7, 45],
      [54.7, 60],
      [54.72, 80],
      [54.72, 95],
    ] as const;
    const r = runTrack(rules, track(at.length, 10_000, (i) => ({ latitude: at[i]![0], speedKmh: at[i]![1] })));
    expect(r.events.map((e) => [e.message, e.time.getTime(), e.geofenceId])).toEqual([
      ["Overspeed: 40 kph (limit 30 kph)", T0 + 10_000, 3],
      ["Overspeed: 60 kph (limit 50 kph)", T0 + 40_000, 2],
      ["Overspeed: 95 kph (limit 90 kph)", T0 + 60_000, null],
    ]);
  });
});

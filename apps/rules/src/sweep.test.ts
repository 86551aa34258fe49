import { describe, expect, it } from "vitest";
import type { LiveState } from "@fleet/contracts";
import { evaluateDevice } from "./evaluate.js";
import { sweepDevice } from "./sweep.js";
import { T0, alert, deviceRules, track, user } from "./testing.js";

const MIN = 60_000;

function liveState(serverTime: number): LiveState {
  return {
    deviceId: 1,
    positionId: 42,
    uniqueId: "imei-1",
    protocol: "osmand",
    latitude: 54.69,
    longitude: 25.28,
    altitude: 100,
    course: 0,
    fixTime: serverTime - 500,
    serverTime,
    attributes: {},
    speedKmh: 0,
    movedAt: serverTime,
    odometerKm: 0,
    tail: [],
  };
}

describe("the sweep over silent devices", () => {
  it("finds a device offline for longer than the alert's minutes, dated when the limit passed, once per silence", () => {
    const rules = deviceRules([alert({ type: "offline_duration", attributes: { offline_duration: 60 } })]);
    expect(sweepDevice(rules, liveState(T0), undefined, T0 + 59 * MIN)).toEqual([]);
    const [found] = sweepDevice(rules, liveState(T0), undefined, T0 + 61 * MIN);
    expect(found!.event).toMatchObject({ type: "offline_duration", message: "Offline for more than 60 min", time: new Date(T0 + 60 * MIN), positionId: 42, latitude: 54.69 });
    // Sweeping later in the same silence names the same episode; a new silence another.
    expect(sweepDevice(rules, liveState(T0), undefined, T0 + 90 * MIN)[0]!.event.dedupeKey).toBe(found!.event.dedupeKey);
    expect(sweepDevice(rules, liveState(T0 + 70 * MIN), undefined, T0 + 140 * MIN)[0]!.event.dedupeKey).not.toBe(found!.event.dedupeKey);
    expect(sweepDevice(rules, undefined, undefined, T0 + 90 * MIN)).toEqual([]);
  });

  it("says an offline event in its owner's language", () => {
    const rules = deviceRules([alert({ type: "offline_duration", attributes: { offline_duration: 60 } })], { users: [user({ lang: "lt" })] });
    expect(sweepDevice(rules, liveState(T0), undefined, T0 + 61 * MIN)[0]!.event.message).toBe("Be ryšio ilgiau nei 60 min");
  });

  it("finds a stop that outlasted the device's last position, with the key the position that crossed the limit would have used", () => {
    const rules = deviceRules([alert({ type: "stop_duration", attributes: { stop_duration: 10 } })]);
    // Moving, then stopped at minute 2, then silent after minute 5.
    const positions = track(6, MIN, (i) => ({ moving: i < 2, speedKmh: i < 2 ? 40 : 0 }));
    const { found: fromPositions, state } = evaluateDevice(rules, positions, undefined);
    expect(fromPositions).toEqual([]);
    expect(sweepDevice(rules, liveState(T0 + 5 * MIN), state, T0 + 11 * MIN)).toEqual([]);
    const [swept] = sweepDevice(rules, liveState(T0 + 5 * MIN), state, T0 + 12 * MIN);
    expect(swept!.event).toMatchObject({ type: "stop_duration", time: new Date(T0 + 12 * MIN) });
    // Had the device reported at minute 12, its position would have recorded the same event.
    const later = evaluateDevice(rules, track(13, MIN, (i) => ({ moving: i < 2, speedKmh: i < 2 ? 40 : 0 })), undefined);
    expect(later.found.map((f) => f.event.dedupeKey)).toEqual([swept!.event.dedupeKey]);
    // Once the position path fired, the sweep has nothing to add.
    expect(sweepDevice(rules, liveState(T0 + 12 * MIN), later.state, T0 + 20 * MIN)).toEqual([]);
  });

  it("keeps to the alert's schedule, at the moment the limit passed", () => {
    const rules = deviceRules([alert({ type: "offline_duration", attributes: { offline_duration: 60 }, schedule: { monday: ["09:00"] } })]);
    // T0 is Monday 08:00 UTC: an hour later falls in the 09:00 slot, two hours later does not.
    expect(sweepDevice(rules, liveState(T0), undefined, T0 + 61 * MIN)).toHaveLength(1);
    expect(sweepDevice(rules, liveState(T0 + 60 * MIN), undefined, T0 + 130 * MIN)).toEqual([]);
  });

  it("finds a stop at a point of interest that outlasted the device's last position, naming the point", () => {
    const depot = { id: 31, name: "Depot", lat: 54.69, lng: 25.28 };
    const rules = deviceRules([alert({ type: "poi_stop_duration", pois: [31], attributes: { stop_duration: 10, distance_tolerance: 100 } })], { pois: [depot] });
    const positions = track(6, MIN, (i) => ({ moving: i < 2, speedKmh: i < 2 ? 40 : 0 }));
    const { state } = evaluateDevice(rules, positions, undefined);
    const [swept] = sweepDevice(rules, liveState(T0 + 5 * MIN), state, T0 + 12 * MIN);
    expect(swept!.event).toMatchObject({ type: "poi_stop_duration", message: "Stopped at Depot for more than 10 min", time: new Date(T0 + 12 * MIN) });
    // Stopped away from every point: nothing to sweep.
    const away = evaluateDevice(rules, track(6, MIN, (i) => ({ moving: i < 2, latitude: 54.6 })), undefined);
    expect(sweepDevice(rules, { ...liveState(T0 + 5 * MIN), latitude: 54.6 }, away.state, T0 + 12 * MIN)).toEqual([]);
  });

  it("finds idling, the ignition on and idling at a point that outlasted the device's last position, once, as the positions would", () => {
    const depot = { id: 31, name: "Depot", lat: 54.69, lng: 25.28 };
    const rules = deviceRules(
      [
        alert({ id: 1, type: "idle_duration", attributes: { idle_duration: 10 } }),
        alert({ id: 2, type: "ignition_duration", attributes: { ignition_duration: 10 } }),
        alert({ id: 3, type: "poi_idle_duration", pois: [31], attributes: { idle_duration: 10, distance_tolerance: 100 } }),
      ],
      { pois: [depot] },
    );
    // Driving, then standing with the engine running from minute 2, then silent after minute 5.
    const at = (i: number) => ({ moving: i < 2, speedKmh: i < 2 ? 40 : 0, engineOn: true });
    const { found, state } = evaluateDevice(rules, track(6, MIN, at), undefined);
    expect(found).toEqual([]);
    // The ignition has been on since minute 0, the idling since minute 2.
    expect(sweepDevice(rules, liveState(T0 + 5 * MIN), state, T0 + 10 * MIN).map((f) => f.event.type)).toEqual(["ignition_duration"]);
    const swept = sweepDevice(rules, liveState(T0 + 5 * MIN), state, T0 + 12 * MIN);
    expect(swept.map((f) => [f.event.type, f.event.message])).toEqual([
      ["idle_duration", "Idle for more than 10 min"],
      ["ignition_duration", "Ignition on for more than 10 min"],
      ["poi_idle_duration", "Idle at Depot for more than 10 min"],
    ]);
    // Had the device reported at minute 12, its positions would have recorded the same events.
    const later = evaluateDevice(rules, track(13, MIN, at), undefined);
    expect(later.found.map((f) => f.event.dedupeKey).sort()).toEqual(swept.map((f) => f.event.dedupeKey).sort());
    // With the engine off at the last position there is no idling or ignition spell to carry on.
    const parked = evaluateDevice(rules, track(6, MIN, (i) => ({ ...at(i), engineOn: i < 2 })), undefined);
    expect(sweepDevice(rules, liveState(T0 + 5 * MIN), parked.state, T0 + 30 * MIN)).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import type { RuleState } from "@fleet/live";
import { evaluateDevice } from "./evaluate.js";
import { T0, alert, deviceRules, fuelTank, position, square, track, user, runTrack } from "./testing.js";

describe("a batch run again", () => {
  it("finds nothing and changes nothing when its state was already stored (a crash before the offset commit)", () => {
    const rules = deviceRules([alert({ id: 1, type: "overspeed", attributes: { overspeed: 90 } }), alert({ id: 2, type: "geofence_inout", geofences: [3] })], { geofences: [square(3, "Depot", 54.7, 25.3)] });
    const batch = track(4, 10_000, (i) => ({ speedKmh: [50, 100, 50, 100][i]!, ...(i >= 2 ? { latitude: 54.7, longitude: 25.3 } : {}) }));
    const before = evaluateDevice(rules, [position({ fixTime: T0 - 10_000, speedKmh: 50 })], undefined).state;
    const first = evaluateDevice(rules, batch, before);
    expect(first.found.map((f) => f.event.type)).toEqual(["overspeed", "geofence_in", "overspeed"]);
    const again = evaluateDevice(rules, batch, JSON.parse(JSON.stringify(first.state)) as RuleState);
    expect(again.found).toEqual([]);
    expect(again.change).toBeUndefined();
    // From the state before it, the same batch finds the same events, which record nothing new (same keys).
    expect(evaluateDevice(rules, batch, before).found.map((f) => f.event.dedupeKey)).toEqual(first.found.map((f) => f.event.dedupeKey));
  });
});

describe("a device whose clock jumped ahead once", () => {
  it("fires on its true fixes a minute after the glitch arrived, not only once the glitch's day came", () => {
    const rules = deviceRules([alert({ id: 1, type: "sos" })]);
    const sos = { attributes: { alarm: "sos" } };
    // A fix dated a day ahead arrives at T0; true fixes follow every 30 s, an SOS in the third.
    const glitch = position({ fixTime: T0 + 86_400_000, serverTime: T0 });
    const after = [1, 2, 3].map((k) => position({ id: 100 + k, fixTime: T0 + k * 30_000, serverTime: T0 + k * 30_000, ...(k === 3 ? sos : {}) }));
    const r = runTrack(rules, [glitch, ...after]);
    expect(r.events.map((e) => [e.type, e.time.getTime()])).toEqual([["sos", T0 + 90_000]]);
  });
});

describe("an event's fields", () => {
  it("carries the position's power as a number, whether the device sent it as a number or as a form's text", () => {
    const rules = deviceRules([alert({ id: 1, type: "overspeed", attributes: { overspeed: 90 } })]);
    const powers: (number | string | undefined)[] = [undefined, 12.6, undefined, "13.9", undefined, "n/a"];
    const r = runTrack(rules, track(powers.length, 10_000, (i) => {
      const power = powers[i];
      const attributes: Record<string, number | string> = power === undefined ? {} : { power };
      return { speedKmh: i % 2 === 0 ? 50 : 100, attributes };
    }));
    expect(r.events.map((e) => e.power)).toEqual([12.6, 13.9, null]);
  });
});

describe("a device on two users' accounts", () => {
  it("runs each user's alerts on their own: an event each, in each owner's units, with its own key", () => {
    const rules = deviceRules([alert({ id: 1, userId: 7, type: "overspeed", attributes: { overspeed: 90 } }), alert({ id: 2, userId: 8, type: "overspeed", attributes: { overspeed: 110 } })], {
      users: [user({ id: 7 }), user({ id: 8, unitOfDistance: "mi" })],
    });
    const speeds = [50, 100, 120];
    const r = runTrack(rules, track(speeds.length, 10_000, (i) => ({ speedKmh: speeds[i]!, userIds: [7, 8] })));
    expect(r.events.map((e) => [e.userId, e.alertId, e.message, e.time.getTime()])).toEqual([
      [7, 1, "Overspeed: 100 kph (limit 90 kph)", T0 + 10_000],
      [8, 2, "Overspeed: 75 mph (limit 68 mph)", T0 + 20_000],
    ]);
    expect(new Set(r.events.map((e) => e.dedupeKey)).size).toBe(2);
  });
});

describe("where and when an alert applies", () => {
  const depot = square(3, "Depot", 54.7, 25.3);
  const inDepot = { latitude: 54.7, longitude: 25.3 };

  it("fires only inside its zones with zone 1, and only outside them with zone 2", () => {
    const speeds = (i: number) => ({ speedKmh: i % 2 === 0 ? 50 : 100, ...(i < 4 ? inDepot : {}) });
    const positions = track(8, 10_000, speeds);
    const inside = runTrack(deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 }, zone: 1, zones: [3] })], { geofences: [depot] }), positions);
    const outside = runTrack(deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 }, zone: 2, zones: [3] })], { geofences: [depot] }), positions);
    expect(inside.events.map((e) => e.time.getTime())).toEqual([T0 + 10_000, T0 + 30_000]);
    expect(outside.events.map((e) => e.time.getTime())).toEqual([T0 + 50_000, T0 + 70_000]);
  });

  it("fires only inside its weekly schedule, read on the owner's clock", () => {
    const schedule = { monday: ["10:00", "10:15"] };
    const rules = deviceRules([alert({ type: "sos", schedule })], { users: [user({ timezoneId: 0 })] });
    // T0 is Monday 08:00 UTC: on a UTC clock the 10:00 and 10:15 slots are 2 h to 2 h 30 min after it.
    const alarm = (fixTime: number) => [position({ fixTime, attributes: {} }), position({ fixTime: fixTime + 1000, attributes: { alarm: "sos" } })];
    expect(runTrack(rules, alarm(T0)).events).toEqual([]);
    expect(runTrack(rules, alarm(T0 + 2 * 3_600_000 + 20 * 60_000)).events.map((e) => e.type)).toEqual(["sos"]);
    expect(runTrack(rules, alarm(T0 + 2 * 3_600_000 + 31 * 60_000)).events).toEqual([]);
  });

  it("fires only within the alert's time period on the device, its end excluded", () => {
    const rules = deviceRules([alert({ type: "sos", period: { fromMs: T0 + 60_000, toMs: T0 + 120_000 } })]);
    const sosAt = (ms: number) => [position({ fixTime: ms - 1000, attributes: {} }), position({ fixTime: ms, attributes: { alarm: "sos" } })];
    expect(runTrack(rules, sosAt(T0 + 30_000)).events).toEqual([]);
    expect(runTrack(rules, sosAt(T0 + 60_000)).events.map((e) => e.type)).toEqual(["sos"]);
    expect(runTrack(rules, sosAt(T0 + 120_000)).events).toEqual([]);
  });

  it("says what moved: only the fix while nothing else changes, an alert's memory when its episode starts, the device's geofences when it crosses one", () => {
    const rules = deviceRules([alert({ id: 1, type: "overspeed", attributes: { overspeed: 90 } }), alert({ id: 2, type: "geofence_inout", geofences: [3] }), alert({ id: 5, type: "geofence_in", geofences: [3] })], { geofences: [square(3, "Depot", 54.7, 25.3)] });
    const [a, b, c, d, e] = track(5, 10_000, (i) => ({ speedKmh: [50, 60, 100, 100, 100][i]!, ...(i === 4 ? { latitude: 54.7, longitude: 25.3 } : {}) }));
    const first = evaluateDevice(rules, [a!], undefined);
    // The geofence alerts keep nothing of their own: the device's geofences are kept once, for all of them.
    expect(first.change).toEqual({ set: { a1: first.state.a1, fix: a!.fixTime, geo: [] }, unset: [] });
    const quiet = evaluateDevice(rules, [b!], first.state);
    expect(quiet.change).toEqual({ set: { fix: b!.fixTime }, unset: [] });
    const over = evaluateDevice(rules, [c!], quiet.state);
    expect(Object.keys(over.change!.set).sort()).toEqual(["a1", "fix"]);
    const still = evaluateDevice(rules, [d!], over.state);
    expect(Object.keys(still.change!.set)).toEqual(["fix"]);
    const entered = evaluateDevice(rules, [e!], still.state);
    expect(entered.found.map((f) => [f.alert.id, f.event.type])).toEqual([[2, "geofence_in"], [5, "geofence_in"]]);
    expect(entered.change).toEqual({ set: { fix: e!.fixTime, geo: [3] }, unset: [] });
  });

  it("counts km and keeps the fuel level once per device: a drive moves them and the fix, not the distance and fuel alerts' memories", () => {
    const rules = deviceRules(
      [alert({ id: 1, type: "distance", attributes: { distance: 100, distance_unit: 1 } }), alert({ id: 2, type: "distance", attributes: { distance: 50, distance_unit: 1 } }), alert({ id: 3, type: "fuel_change", attributes: { state: 2, fuel_amount: 20, fuel_unit: 1 } })],
      { fuelSensor: fuelTank() },
    );
    const [a, b] = track(2, 60_000, (i) => ({ moving: true, speedKmh: 60, distanceKm: 1, attributes: { fuel: 70 - i } }));
    const first = evaluateDevice(rules, [a!], undefined);
    expect(Object.keys(first.change!.set).sort()).toEqual(["a1", "a2", "a3", "fix", "fuel", "km"]);
    expect(evaluateDevice(rules, [b!], first.state).change).toEqual({ set: { fix: b!.fixTime, km: 2, fuel: 69 }, unset: [] });
  });

  it("keeps the memory of the alerts that watch the device and drops a removed alert's", () => {
    const two = deviceRules([alert({ id: 1, type: "sos" }), alert({ id: 2, type: "overspeed", attributes: { overspeed: 90 } })]);
    const { state } = runTrack(two, [position({ attributes: { alarm: "sos" }, speedKmh: 100 })]);
    // Beside the alerts' memory, the latest fix time (for the GPS-jump check).
    expect(Object.keys(state!).sort()).toEqual(["a1", "a2", "fix"]);
    const one = deviceRules([alert({ id: 2, type: "overspeed", attributes: { overspeed: 90 } })]);
    expect(Object.keys(runTrack(one, [position({ speedKmh: 100 })], state).state!).sort()).toEqual(["a2", "fix"]);
    // Dropping a removed alert's memory is a change to store, even with no position to run.
    expect(evaluateDevice(one, [], state).change).toEqual({ set: {}, unset: ["a1"] });
    expect(evaluateDevice(two, [], state).change).toBeUndefined();
  });
});

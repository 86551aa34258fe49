import { describe, expect, it } from "vitest";
import type { EnrichedPosition } from "@fleet/contracts";
import { NO_NOTIFICATIONS } from "@fleet/db";
import type { RuleState } from "@fleet/live";
import { evaluateDevice } from "./evaluate.js";
import type { DeviceRules } from "./model.js";
import { T0, alert, deviceRules, fuelTank, position, square, track, user } from "./testing.js";

/**
 * Runs positions through a device's rules one at a time, storing the state between them as
 * the live store does (JSON), as a stream of single-position batches would; returns every
 * event found, as [type, message] plus the rest of the event row.
 */
function run(rules: DeviceRules, positions: readonly EnrichedPosition[], start?: RuleState) {
  let state: RuleState | undefined = start;
  const events = [];
  for (const p of positions) {
    const out = evaluateDevice(rules, [p], state);
    events.push(...out.found.map((f) => f.event));
    state = JSON.parse(JSON.stringify(out.state)) as RuleState;
  }
  return { events, state };
}

const types = (r: ReturnType<typeof run>) => r.events.map((e) => e.type);

describe("overspeed", () => {
  const rules = deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 } })]);

  it("fires once when the speed rises above the limit, not again until it has dropped to the limit or below", () => {
    const speeds = [50, 95, 120, 91, 90, 100, 80];
    const r = run(rules, track(speeds.length, 10_000, (i) => ({ speedKmh: speeds[i]! })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([
      ["overspeed", "Overspeed: 95 kph (limit 90 kph)", T0 + 10_000],
      ["overspeed", "Overspeed: 100 kph (limit 90 kph)", T0 + 50_000],
    ]);
    expect(r.events[0]).toMatchObject({ userId: 7, deviceId: 1, alertId: 1, speedKmh: 95, latitude: 54.69, longitude: 25.28 });
  });

  it("carries the alert's sound and push flags on its events", () => {
    const speeds = [50, 100];
    const loud = deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 }, notifications: { ...NO_NOTIFICATIONS, sound: { active: true }, push: { active: false } } })]);
    expect(run(loud, track(2, 10_000, (i) => ({ speedKmh: speeds[i]! }))).events.map((e) => [e.sound, e.push])).toEqual([[true, false]]);
    expect(run(rules, track(2, 10_000, (i) => ({ speedKmh: speeds[i]! }))).events.map((e) => [e.sound, e.push])).toEqual([[false, false]]);
  });

  it("says the speed in the owner's units", () => {
    const miles = deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 } })], { users: [user({ unitOfDistance: "mi" })] });
    const r = run(miles, track(2, 10_000, (i) => ({ speedKmh: [50, 100][i]! })));
    expect(r.events.map((e) => e.message)).toEqual(["Overspeed: 62 mph (limit 56 mph)"]);
  });

  it("learns at first sight without firing: a new alert does not report a vehicle already speeding", () => {
    expect(types(run(rules, track(3, 10_000, () => ({ speedKmh: 120 }))))).toEqual([]);
  });

  it("records the same event for a replayed position (same dedupe key), and nothing for a fix older than the latest", () => {
    const [a, b] = track(2, 10_000, (i) => ({ speedKmh: [50, 100][i]! }));
    const first = run(rules, [a!, b!]);
    const again = run(rules, [a!, b!]);
    expect(first.events.map((e) => e.dedupeKey)).toEqual(again.events.map((e) => e.dedupeKey));
    const late = run(rules, [position({ fixTime: T0 + 5_000, speedKmh: 130, latest: false })], first.state);
    expect(late.events).toEqual([]);
    expect(late.state).toEqual(first.state);
    expect(evaluateDevice(rules, [position({ fixTime: T0 + 5_000, speedKmh: 130, latest: false })], first.state).changed).toBe(false);
  });
});

describe("a batch run again", () => {
  it("finds nothing and changes nothing when its state was already stored (a crash before the offset commit)", () => {
    const rules = deviceRules([alert({ id: 1, type: "overspeed", attributes: { overspeed: 90 } }), alert({ id: 2, type: "geofence_inout", geofences: [3] })], { geofences: [square(3, "Depot", 54.7, 25.3)] });
    const batch = track(4, 10_000, (i) => ({ speedKmh: [50, 100, 50, 100][i]!, ...(i >= 2 ? { latitude: 54.7, longitude: 25.3 } : {}) }));
    const before = evaluateDevice(rules, [position({ fixTime: T0 - 10_000, speedKmh: 50 })], undefined).state;
    const first = evaluateDevice(rules, batch, before);
    expect(first.found.map((f) => f.event.type)).toEqual(["overspeed", "geofence_in", "overspeed"]);
    const again = evaluateDevice(rules, batch, JSON.parse(JSON.stringify(first.state)) as RuleState);
    expect(again.found).toEqual([]);
    expect(again.changed).toBe(false);
    // From the state before it, the same batch finds the same events, which record nothing new (same keys).
    expect(evaluateDevice(rules, batch, before).found.map((f) => f.event.dedupeKey)).toEqual(first.found.map((f) => f.event.dedupeKey));
  });
});

describe("a device on two users' accounts", () => {
  it("runs each user's alerts on their own: an event each, in each owner's units, with its own key", () => {
    const rules = deviceRules([alert({ id: 1, userId: 7, type: "overspeed", attributes: { overspeed: 90 } }), alert({ id: 2, userId: 8, type: "overspeed", attributes: { overspeed: 110 } })], {
      users: [user({ id: 7 }), user({ id: 8, unitOfDistance: "mi" })],
    });
    const speeds = [50, 100, 120];
    const r = run(rules, track(speeds.length, 10_000, (i) => ({ speedKmh: speeds[i]!, userIds: [7, 8] })));
    expect(r.events.map((e) => [e.userId, e.alertId, e.message, e.time.getTime()])).toEqual([
      [7, 1, "Overspeed: 100 kph (limit 90 kph)", T0 + 10_000],
      [8, 2, "Overspeed: 75 mph (limit 68 mph)", T0 + 20_000],
    ]);
    expect(new Set(r.events.map((e) => e.dedupeKey)).size).toBe(2);
  });
});

describe("geofences", () => {
  const depot = square(3, "Depot", 54.7, 25.3);
  const yard = square(4, "Yard", 54.8, 25.4);
  const at = (g: typeof depot | "out") => (g === "out" ? { latitude: 54.5, longitude: 25.0 } : { latitude: g.shape.coordinates[0]!.lat + 0.005, longitude: g.shape.coordinates[0]!.lng + 0.005 });

  it("geofence_inout fires on each crossing of each of its geofences, never while the device stays in or out", () => {
    const rules = deviceRules([alert({ type: "geofence_inout", geofences: [3, 4] })], { geofences: [depot, yard] });
    const stops = ["out", depot, depot, "out", "out", yard, "out"] as const;
    const r = run(rules, track(stops.length, 10_000, (i) => at(stops[i]!)));
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
    const ins = run(deviceRules([alert({ type: "geofence_in", geofences: [3] })], { geofences: [depot, yard] }), positions);
    const outs = run(deviceRules([alert({ type: "geofence_out", geofences: [3] })], { geofences: [depot, yard] }), positions);
    expect(ins.events.map((e) => [e.type, e.geofenceId])).toEqual([["geofence_in", 3]]);
    expect(outs.events.map((e) => [e.type, e.geofenceId])).toEqual([["geofence_out", 3]]);
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
    const r = run(rules, jump.map((p) => position(p)));
    expect(r.events.map((e) => [e.type, e.time.getTime()])).toEqual([["geofence_out", T0 + 90_000]]);
  });

  it("does not report a device that was inside when the alert first saw it as entering", () => {
    const rules = deviceRules([alert({ type: "geofence_in", geofences: [3] })], { geofences: [depot] });
    expect(types(run(rules, track(3, 10_000, () => at(depot))))).toEqual([]);
  });
});

describe("custom events", () => {
  const lowBattery = { id: 5, protocol: "osmand", conditions: [{ tag: "batt", type: 3 as const, tag_value: "20" }, { tag: "charging", type: 1 as const, tag_value: "false" }], message: "Battery low", always: false };

  it("fires when all its conditions start to hold on a position of its protocol, once until they stop holding", () => {
    const rules = deviceRules([alert({ type: "custom", customEvents: [5] })], { customEvents: [lowBattery] });
    const batt = [50, 15, 10, 10, 30, 12];
    const charging = [false, false, false, true, false, false];
    const r = run(rules, track(batt.length, 10_000, (i) => ({ attributes: { batt: batt[i]!, charging: charging[i]! } })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([
      ["custom", "Battery low", T0 + 10_000],
      ["custom", "Battery low", T0 + 50_000],
    ]);
  });

  it("fires on every matching position when `always` is set, and never for another protocol or a missing attribute", () => {
    const always = deviceRules([alert({ type: "custom", customEvents: [5] })], { customEvents: [{ ...lowBattery, always: true }] });
    expect(types(run(always, track(3, 10_000, () => ({ attributes: { batt: 5, charging: false } }))))).toEqual(["custom", "custom", "custom"]);
    expect(types(run(always, track(3, 10_000, () => ({ protocol: "gt06", attributes: { batt: 5, charging: false } }))))).toEqual([]);
    expect(types(run(always, track(3, 10_000, () => ({ attributes: { batt: 5 } }))))).toEqual([]);
  });
});

describe("durations", () => {
  it("stop_duration fires once a stop has lasted the alert's minutes, once per stop, the event at the position that crossed it", () => {
    const rules = deviceRules([alert({ type: "stop_duration", attributes: { stop_duration: 10 } })]);
    // Moving, then stopped for 15 minutes (a fix a minute), then moving, then stopped 5 minutes.
    const moving = (i: number) => i < 2 || (i >= 17 && i < 19);
    const r = run(rules, track(25, 60_000, (i) => ({ moving: moving(i), speedKmh: moving(i) ? 40 : 0 })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([["stop_duration", "Stopped for more than 10 min", T0 + 12 * 60_000]]);
    // The event belongs to the stop (it began at minute 2), so a sweep that finds the same stop records nothing new.
    expect(r.events[0]!.dedupeKey).toBe(`1:stop_duration:1:since:${T0 + 2 * 60_000}`);
  });

  it("idle_duration counts only engine-on standing, ignition_duration engine-on time moving or not", () => {
    const idle = deviceRules([alert({ type: "idle_duration", attributes: { idle_duration: 5 } })]);
    const ignition = deviceRules([alert({ type: "ignition_duration", attributes: { ignition_duration: 5 } })]);
    // Engine on the whole time: standing 4 minutes, moving 2, standing 6.
    const state = (i: number) => ({ engineOn: true, moving: i >= 4 && i < 6 });
    const positions = track(13, 60_000, state);
    expect(run(idle, positions).events.map((e) => e.time.getTime())).toEqual([T0 + 11 * 60_000]);
    expect(run(ignition, positions).events.map((e) => e.time.getTime())).toEqual([T0 + 5 * 60_000]);
  });
});

describe("driver, sos, distance", () => {
  it("driver fires on a card other than the last one read, not on positions without a card, and only for listed drivers when it lists some", () => {
    const drivers = [
      { id: 11, name: "Ann", rfid: "aa01" },
      { id: 12, name: "Bob", rfid: "bb02" },
    ];
    const cards = [undefined, "AA01", undefined, "aa01", "BB02", "cc03"];
    const positions = track(cards.length, 10_000, (i): Partial<EnrichedPosition> => ({ attributes: cards[i] === undefined ? {} : { rfid: cards[i]! } }));
    const any = run(deviceRules([alert({ type: "driver" })], { drivers }), positions);
    expect(any.events.map((e) => e.message)).toEqual(["Driver changed: Ann", "Driver changed: Bob", "Driver changed: cc03"]);
    const onlyBob = run(deviceRules([alert({ type: "driver", drivers: [12] })], { drivers }), positions);
    expect(onlyBob.events.map((e) => e.message)).toEqual(["Driver changed: Bob"]);
  });

  it("sos fires when a device starts reporting an alarm of sos, even at first sight, once while it keeps reporting it", () => {
    const rules = deviceRules([alert({ type: "sos" })]);
    const alarms = ["sos", "sos", undefined, "lowBattery,SOS", "overspeed"];
    const r = run(rules, track(alarms.length, 10_000, (i): Partial<EnrichedPosition> => ({ attributes: alarms[i] === undefined ? {} : { alarm: alarms[i]! } })));
    expect(r.events.map((e) => e.time.getTime())).toEqual([T0, T0 + 30_000]);
  });

  it("distance fires each time the device has driven the alert's distance, in km or miles", () => {
    const km = run(deviceRules([alert({ type: "distance", attributes: { distance: 10, distance_unit: 1 } })]), track(25, 60_000, () => ({ distanceKm: 1 })));
    expect(km.events.map((e) => e.time.getTime())).toEqual([T0 + 9 * 60_000, T0 + 19 * 60_000]);
    const mi = run(deviceRules([alert({ type: "distance", attributes: { distance: 10, distance_unit: 2 } })]), track(25, 60_000, () => ({ distanceKm: 1 })));
    expect(mi.events.map((e) => e.time.getTime())).toEqual([T0 + 16 * 60_000]);
  });
});

describe("fuel_change", () => {
  const fill = (amount: number, unit = 1) => alert({ type: "fuel_change", attributes: { state: 1, fuel_amount: amount, fuel_unit: unit } });
  const theft = (amount: number) => alert({ type: "fuel_change", attributes: { state: 2, fuel_amount: amount, fuel_unit: 1 } });
  // Standing at a pump: the level climbs over several positions, 40 l in all.
  const pump = [30, 30, 45, 60, 70, 70];

  it("reports a fill spread over a stop once, against the level when the device stopped", () => {
    const r = run(deviceRules([fill(20)], { fuelSensor: fuelTank() }), track(pump.length, 30_000, (i) => ({ attributes: { fuel: pump[i]! } })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([["fuel_fill", "Fuel filled: 30 l", T0 + 90_000]]);
  });

  it("reads the amount in gallons or as a share of the tank, and says nothing without a fuel sensor", () => {
    const positions = track(pump.length, 30_000, (i) => ({ attributes: { fuel: pump[i]! } }));
    // 40 l in all: 11 gal (41.6 l) is more, 5 gal (18.9 l) less; 50% of an 80 l tank is 40 l, 60% more.
    expect(run(deviceRules([fill(11, 2)], { fuelSensor: fuelTank() }), positions).events).toHaveLength(0);
    expect(run(deviceRules([fill(5, 2)], { fuelSensor: fuelTank() }), positions).events).toHaveLength(1);
    expect(run(deviceRules([fill(50, 3)], { fuelSensor: fuelTank({ fullTank: 80 }) }), positions).events).toHaveLength(1);
    expect(run(deviceRules([fill(60, 3)], { fuelSensor: fuelTank({ fullTank: 80 }) }), positions).events).toHaveLength(0);
    expect(run(deviceRules([fill(20)]), positions).events).toHaveLength(0);
  });

  it("reports fuel siphoned while standing, but not what the engine burns on the road", () => {
    const driving = track(10, 60_000, (i) => ({ moving: true, speedKmh: 80, attributes: { fuel: 70 - i * 4 } }));
    expect(run(deviceRules([theft(20)], { fuelSensor: fuelTank() }), driving).events).toEqual([]);
    const parked = track(6, 60_000, (i) => ({ attributes: { fuel: [60, 55, 48, 40, 39, 39][i]! } }));
    expect(run(deviceRules([theft(20)], { fuelSensor: fuelTank() }), parked).events.map((e) => [e.type, e.message])).toEqual([["fuel_theft", "Fuel dropped: 20 l"]]);
  });
});

describe("where and when an alert applies", () => {
  const depot = square(3, "Depot", 54.7, 25.3);
  const inDepot = { latitude: 54.7, longitude: 25.3 };

  it("fires only inside its zones with zone 1, and only outside them with zone 2", () => {
    const speeds = (i: number) => ({ speedKmh: i % 2 === 0 ? 50 : 100, ...(i < 4 ? inDepot : {}) });
    const positions = track(8, 10_000, speeds);
    const inside = run(deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 }, zone: 1, zones: [3] })], { geofences: [depot] }), positions);
    const outside = run(deviceRules([alert({ type: "overspeed", attributes: { overspeed: 90 }, zone: 2, zones: [3] })], { geofences: [depot] }), positions);
    expect(inside.events.map((e) => e.time.getTime())).toEqual([T0 + 10_000, T0 + 30_000]);
    expect(outside.events.map((e) => e.time.getTime())).toEqual([T0 + 50_000, T0 + 70_000]);
  });

  it("fires only inside its weekly schedule, read on the owner's clock", () => {
    const schedule = { monday: ["10:00", "10:15"] };
    const rules = deviceRules([alert({ type: "sos", schedule })], { users: [user({ timezoneId: 0 })] });
    // T0 is Monday 08:00 UTC: on a UTC clock the 10:00 and 10:15 slots are 2 h to 2 h 30 min after it.
    const alarm = (fixTime: number) => [position({ fixTime, attributes: {} }), position({ fixTime: fixTime + 1000, attributes: { alarm: "sos" } })];
    expect(run(rules, alarm(T0)).events).toEqual([]);
    expect(run(rules, alarm(T0 + 2 * 3_600_000 + 20 * 60_000)).events.map((e) => e.type)).toEqual(["sos"]);
    expect(run(rules, alarm(T0 + 2 * 3_600_000 + 31 * 60_000)).events).toEqual([]);
  });

  it("fires only within the alert's time period on the device, its end excluded", () => {
    const rules = deviceRules([alert({ type: "sos", period: { fromMs: T0 + 60_000, toMs: T0 + 120_000 } })]);
    const sosAt = (ms: number) => [position({ fixTime: ms - 1000, attributes: {} }), position({ fixTime: ms, attributes: { alarm: "sos" } })];
    expect(run(rules, sosAt(T0 + 30_000)).events).toEqual([]);
    expect(run(rules, sosAt(T0 + 60_000)).events.map((e) => e.type)).toEqual(["sos"]);
    expect(run(rules, sosAt(T0 + 120_000)).events).toEqual([]);
  });

  it("keeps the memory of the alerts that watch the device and drops a removed alert's", () => {
    const two = deviceRules([alert({ id: 1, type: "sos" }), alert({ id: 2, type: "overspeed", attributes: { overspeed: 90 } })]);
    const { state } = run(two, [position({ attributes: { alarm: "sos" }, speedKmh: 100 })]);
    // Beside the alerts' memory, the latest fix time (for the GPS-jump check).
    expect(Object.keys(state!).sort()).toEqual(["a1", "a2", "fix"]);
    const one = deviceRules([alert({ id: 2, type: "overspeed", attributes: { overspeed: 90 } })]);
    expect(Object.keys(run(one, [position({ speedKmh: 100 })], state).state!).sort()).toEqual(["a2", "fix"]);
    // Dropping a removed alert's memory is a change to store, even with no position to run.
    expect(evaluateDevice(one, [], state).changed).toBe(true);
    expect(evaluateDevice(two, [], state).changed).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { T0, alert, deviceRules, fuelTank, track, runTrack } from "../testing.js";

describe("fuel_change", () => {
  const fill = (amount: number, unit = 1) => alert({ type: "fuel_change", attributes: { state: 1, fuel_amount: amount, fuel_unit: unit } });
  const theft = (amount: number) => alert({ type: "fuel_change", attributes: { state: 2, fuel_amount: amount, fuel_unit: 1 } });
  // Standing at a pump: the level climbs over several positions, 40 l in all.
  const pump = [30, 30, 45, 60, 70, 70];

  it("reports a fill spread over a stop once, against the level when the device stopped", () => {
    const r = runTrack(deviceRules([fill(20)], { fuelSensor: fuelTank() }), track(pump.length, 30_000, (i) => ({ attributes: { fuel: pump[i]! } })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([["fuel_fill", "Fuel filled: 30 l", T0 + 90_000]]);
  });

  it("reports one refuelling once, however many times its amount passes the threshold, and a second one after the level stopped", () => {
    const levels = [30, 30, 45, 60, 70, 70, 70, 85, 85];
    const r = runTrack(deviceRules([fill(10)], { fuelSensor: fuelTank() }), track(levels.length, 30_000, (i) => ({ attributes: { fuel: levels[i]! } })));
    expect(r.events.map((e) => [e.message, e.time.getTime()])).toEqual([
      ["Fuel filled: 15 l", T0 + 60_000],
      ["Fuel filled: 15 l", T0 + 210_000],
    ]);
    const siphoning = [80, 80, 68, 56, 44, 44];
    const s = runTrack(deviceRules([theft(10)], { fuelSensor: fuelTank() }), track(siphoning.length, 30_000, (i) => ({ attributes: { fuel: siphoning[i]! } })));
    expect(s.events.map((e) => e.message)).toEqual(["Fuel dropped: 12 l"]);
  });

  it("reads the amount in gallons or as a share of the tank, and says nothing without a fuel sensor", () => {
    const positions = track(pump.length, 30_000, (i) => ({ attributes: { fuel: pump[i]! } }));
    // 40 l in all: 11 gal (41.6 l) is more, 5 gal (18.9 l) less; 50% of an 80 l tank is 40 l, 60% more.
    expect(runTrack(deviceRules([fill(11, 2)], { fuelSensor: fuelTank() }), positions).events).toHaveLength(0);
    expect(runTrack(deviceRules([fill(5, 2)], { fuelSensor: fuelTank() }), positions).events).toHaveLength(1);
    expect(runTrack(deviceRules([fill(50, 3)], { fuelSensor: fuelTank({ fullTank: 80 }) }), positions).events).toHaveLength(1);
    expect(runTrack(deviceRules([fill(60, 3)], { fuelSensor: fuelTank({ fullTank: 80 }) }), positions).events).toHaveLength(0);
    expect(runTrack(deviceRules([fill(20)]), positions).events).toHaveLength(0);
  });

  it("takes a calibrated tank's volume from its table's fullest value, for a share of the tank", () => {
    // Probe 0–1000 maps to 0–80 l: the pump's probe readings 375…875 are 30…70 l, 40 l in all.
    const calibrated = fuelTank({ type: "fuel_tank_calibration", calibrations: [{ key: 0, value: 0 }, { key: 1000, value: 80 }] });
    const positions = track(pump.length, 30_000, (i) => ({ attributes: { fuel: (pump[i]! / 80) * 1000 } }));
    expect(runTrack(deviceRules([fill(50, 3)], { fuelSensor: calibrated }), positions).events.map((e) => e.message)).toEqual(["Fuel filled: 40 l"]);
    expect(runTrack(deviceRules([fill(60, 3)], { fuelSensor: calibrated }), positions).events).toHaveLength(0);
  });

  it("reads a sensor in percent of the tank: a percentage as it is, litres against the tank's size", () => {
    // The same pump read as percent of the tank: 40 points in all.
    const positions = track(pump.length, 30_000, (i) => ({ attributes: { fuel: pump[i]! } }));
    const percent = (over = {}) => fuelTank({ unitOfMeasurement: "%", ...over });
    expect(runTrack(deviceRules([fill(30, 3)], { fuelSensor: percent() }), positions).events.map((e) => e.message)).toEqual(["Fuel filled: 30 %"]);
    expect(runTrack(deviceRules([fill(50, 3)], { fuelSensor: percent() }), positions).events).toHaveLength(0);
    // 40 points of a 50 l tank are 20 l: 15 l is less, 25 l more; without the tank's size, litres cannot be told.
    expect(runTrack(deviceRules([fill(15)], { fuelSensor: percent({ fullTank: 50 }) }), positions).events).toHaveLength(1);
    expect(runTrack(deviceRules([fill(25)], { fuelSensor: percent({ fullTank: 50 }) }), positions).events).toHaveLength(0);
    expect(runTrack(deviceRules([fill(15)], { fuelSensor: percent() }), positions).events).toHaveLength(0);
  });

  it("reports fuel siphoned while standing, but not what the engine burns on the road", () => {
    const driving = track(10, 60_000, (i) => ({ moving: true, speedKmh: 80, attributes: { fuel: 70 - i * 4 } }));
    expect(runTrack(deviceRules([theft(20)], { fuelSensor: fuelTank() }), driving).events).toEqual([]);
    const parked = track(6, 60_000, (i) => ({ attributes: { fuel: [60, 55, 48, 40, 39, 39][i]! } }));
    expect(runTrack(deviceRules([theft(20)], { fuelSensor: fuelTank() }), parked).events.map((e) => [e.type, e.message])).toEqual([["fuel_theft", "Fuel dropped: 20 l"]]);
  });

  it("measures a theft in a stop from the stop's own level, not from the last level on the move", () => {
    const levels = [91.4, 91.3, 91.2, 91.1, 91, 91, 91, 71];
    const positions = track(levels.length, 60_000, (i) => (i < 4 ? { moving: true, speedKmh: 60, attributes: { fuel: levels[i]! } } : { attributes: { fuel: levels[i]! } }));
    expect(runTrack(deviceRules([theft(10)], { fuelSensor: fuelTank() }), positions).events.map((e) => e.message)).toEqual(["Fuel dropped: 20 l"]);
  });

  it("takes fuel burnt idling for hours at a stop for fuel burnt, not a theft", () => {
    const idling = track(14, 600_000, (i) => ({ engineOn: true, attributes: { fuel: 80 - i * 0.4 } }));
    expect(runTrack(deviceRules([theft(5)], { fuelSensor: fuelTank() }), idling).events).toEqual([]);
    const parked = track(14, 600_000, (i) => ({ attributes: { fuel: 80 - i * 0.4 } }));
    expect(runTrack(deviceRules([theft(5)], { fuelSensor: fuelTank() }), parked).events).toHaveLength(1);
  });

  it("reports fuel siphoned after a fill in the same stop, and a fill after a siphoning, by how far the level moved", () => {
    const stop = (levels: number[]) => track(levels.length, 60_000, (i) => ({ attributes: { fuel: levels[i]! } }));
    const fillThenSiphon = stop([50, 50, 80, 80, 55, 55]);
    expect(runTrack(deviceRules([theft(10)], { fuelSensor: fuelTank() }), fillThenSiphon).events.map((e) => [e.type, e.message])).toEqual([["fuel_theft", "Fuel dropped: 25 l"]]);
    const siphonThenFill = stop([50, 50, 20, 20, 45, 45]);
    expect(runTrack(deviceRules([fill(10)], { fuelSensor: fuelTank() }), siphonThenFill).events.map((e) => [e.type, e.message])).toEqual([["fuel_fill", "Fuel filled: 25 l"]]);
    // Both alerts on one device: the fill, then the siphoning from the filled level.
    const both = runTrack(deviceRules([fill(10), { ...theft(10), id: 2 }], { fuelSensor: fuelTank() }), stop([50, 70, 75, 50, 50]));
    expect(both.events.map((e) => [e.type, e.message])).toEqual([
      ["fuel_fill", "Fuel filled: 20 l"],
      ["fuel_theft", "Fuel dropped: 25 l"],
    ]);
  });
});

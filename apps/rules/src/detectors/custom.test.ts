import { describe, expect, it } from "vitest";
import { T0, alert, deviceRules, track, runTrack, typesOf } from "../testing.js";

describe("custom events", () => {
  const lowBattery = { id: 5, protocol: "osmand", conditions: [{ tag: "batt", type: 3 as const, tag_value: "20" }, { tag: "charging", type: 1 as const, tag_value: "false" }], message: "Battery low", always: false };

  it("fires when all its conditions start to hold on a position of its protocol, once until they stop holding", () => {
    const rules = deviceRules([alert({ type: "custom", customEvents: [5] })], { customEvents: [lowBattery] });
    const batt = [50, 15, 10, 10, 30, 12];
    const charging = [false, false, false, true, false, false];
    const r = runTrack(rules, track(batt.length, 10_000, (i) => ({ attributes: { batt: batt[i]!, charging: charging[i]! } })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([
      ["custom", "Battery low", T0 + 10_000],
      ["custom", "Battery low", T0 + 50_000],
    ]);
  });

  it("fires on every matching position when `always` is set, and never for another protocol or a missing attribute", () => {
    const always = deviceRules([alert({ type: "custom", customEvents: [5] })], { customEvents: [{ ...lowBattery, always: true }] });
    expect(typesOf(runTrack(always, track(3, 10_000, () => ({ attributes: { batt: 5, charging: false } }))))).toEqual(["custom", "custom", "custom"]);
    expect(typesOf(runTrack(always, track(3, 10_000, () => ({ protocol: "gt06", attributes: { batt: 5, charging: false } }))))).toEqual([]);
    expect(typesOf(runTrack(always, track(3, 10_000, () => ({ attributes: { batt: 5 } }))))).toEqual([]);
  });
});

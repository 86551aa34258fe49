import { describe, expect, it } from "vitest";
import { T0, alert, deviceRules, track, runTrack } from "../testing.js";

describe("edges", () => {
  it("ignition records ignition_on and ignition_off at each change of the engine state, learning the first", () => {
    const rules = deviceRules([alert({ type: "ignition" })]);
    const engine = [true, true, false, false, true, false];
    const r = runTrack(rules, track(engine.length, 10_000, (i) => ({ engineOn: engine[i]! })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([
      ["ignition_off", "Ignition off", T0 + 20_000],
      ["ignition_on", "Ignition on", T0 + 40_000],
      ["ignition_off", "Ignition off", T0 + 50_000],
    ]);
  });

  it("move_start fires when a standing device starts to move, not while it moves nor when it stops, nor at first sight", () => {
    const rules = deviceRules([alert({ type: "move_start" })]);
    const moving = [true, false, true, true, false, false, true];
    const r = runTrack(rules, track(moving.length, 10_000, (i) => ({ moving: moving[i]! })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([
      ["move_start", "Started moving", T0 + 20_000],
      ["move_start", "Started moving", T0 + 60_000],
    ]);
  });

  it("writes the event in the owner's language", () => {
    const rules = deviceRules([alert({ type: "ignition" })], { users: [{ ...deviceRules([]).users.get(7)!, lang: "de" }] });
    const r = runTrack(rules, track(2, 10_000, (i) => ({ engineOn: i === 1 })));
    expect(r.events.map((e) => e.message)).toEqual(["Zündung ein"]);
  });
});

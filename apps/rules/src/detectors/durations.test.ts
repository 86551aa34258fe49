import { describe, expect, it } from "vitest";
import { T0, alert, deviceRules, track, runTrack } from "../testing.js";

describe("durations", () => {
  it("stop_duration fires once a stop has lasted the alert's minutes, once per stop, the event at the position that crossed it", () => {
    const rules = deviceRules([alert({ type: "stop_duration", attributes: { stop_duration: 10 } })]);
    // Moving, then stopped for 15 minutes (a fix a minute), then moving, then stopped 5 minutes.
    const moving = (i: number) => i < 2 || (i >= 17 && i < 19);
    const r = runTrack(rules, track(25, 60_000, (i) => ({ moving: moving(i), speedKmh: moving(i) ? 40 : 0 })));
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
    expect(runTrack(idle, positions).events.map((e) => e.time.getTime())).toEqual([T0 + 11 * 60_000]);
    expect(runTrack(ignition, positions).events.map((e) => e.time.getTime())).toEqual([T0 + 5 * 60_000]);
  });

  it("move_duration fires once a movement has lasted the alert's minutes, and a stop of any length ends it without min_parking_duration", () => {
    const rules = deviceRules([alert({ type: "move_duration", attributes: { move_duration: 10 } })]);
    // Moving 0–7, a 2-minute stop, moving 10–24: the stop ends the first movement, so only the second fires.
    const moving = (i: number) => i < 8 || i >= 10;
    const r = runTrack(rules, track(25, 60_000, (i) => ({ moving: moving(i), speedKmh: moving(i) ? 40 : 0 })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([["move_duration", "Moving for more than 10 min", T0 + 20 * 60_000]]);
    expect(r.events[0]!.dedupeKey).toBe(`1:move_duration:1:since:${T0 + 10 * 60_000}`);
  });

  it("move_duration: stops shorter than min_parking_duration do not end the movement, and a longer one does", () => {
    const rules = deviceRules([alert({ type: "move_duration", attributes: { move_duration: 10, min_parking_duration: 3 } })]);
    // Moving 0–7, stopped 8–9 (2 min, within the 3), moving 10–11: fires at minute 10, on the move again.
    // Then stopped 12–15 (past the 3 minutes: the movement ended), moving 16–30: fires again at 26.
    const moving = (i: number) => i < 8 || (i >= 10 && i < 12) || i >= 16;
    const r = runTrack(rules, track(31, 60_000, (i) => ({ moving: moving(i), speedKmh: moving(i) ? 40 : 0 })));
    expect(r.events.map((e) => e.time.getTime())).toEqual([T0 + 10 * 60_000, T0 + 26 * 60_000]);
  });

  it("move_duration does not fire while standing within the grace, even past the minutes", () => {
    const rules = deviceRules([alert({ type: "move_duration", attributes: { move_duration: 5, min_parking_duration: 10 } })]);
    // Moving 0–3, then standing 4–9: the movement's five minutes pass while it stands.
    const r = runTrack(rules, track(10, 60_000, (i) => ({ moving: i < 4 })));
    expect(r.events).toEqual([]);
  });
});

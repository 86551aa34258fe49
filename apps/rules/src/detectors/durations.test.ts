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
});

import { describe, expect, it } from "vitest";
import type { EnrichedPosition } from "@fleet/contracts";
import { T0, alert, deviceRules, track, runTrack } from "../testing.js";

describe("alarms", () => {
  it("sos fires when a device starts reporting an alarm of sos, even at first sight, once while it keeps reporting it", () => {
    const rules = deviceRules([alert({ type: "sos" })]);
    const alarms = ["sos", "sos", undefined, "lowBattery,SOS", "overspeed"];
    const r = runTrack(rules, track(alarms.length, 10_000, (i): Partial<EnrichedPosition> => ({ attributes: alarms[i] === undefined ? {} : { alarm: alarms[i]! } })));
    expect(r.events.map((e) => e.time.getTime())).toEqual([T0, T0 + 30_000]);
  });

  it("unplugged fires when a device starts reporting a powerCut alarm, even at first sight, once while it keeps reporting it", () => {
    const rules = deviceRules([alert({ type: "unplugged" })]);
    const alarms = ["powerCut", "powerCut,sos", undefined, "lowBattery", "POWERCUT", "powerRestored"];
    const r = runTrack(rules, track(alarms.length, 10_000, (i): Partial<EnrichedPosition> => ({ attributes: alarms[i] === undefined ? {} : { alarm: alarms[i]! } })));
    expect(r.events.map((e) => [e.type, e.message, e.time.getTime()])).toEqual([
      ["unplugged", "Unplugged", T0],
      ["unplugged", "Unplugged", T0 + 40_000],
    ]);
  });
});

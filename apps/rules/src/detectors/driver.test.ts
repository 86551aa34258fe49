import { describe, expect, it } from "vitest";
import type { EnrichedPosition } from "@fleet/contracts";
import { alert, deviceRules, track, runTrack } from "../testing.js";

describe("driver", () => {
  it("driver fires on a card other than the last one read, not on positions without a card, and only for listed drivers when it lists some", () => {
    const drivers = [
      { id: 11, name: "Ann", rfid: "aa01" },
      { id: 12, name: "Bob", rfid: "bb02" },
    ];
    const cards = [undefined, "AA01", undefined, "aa01", "BB02", "cc03"];
    const positions = track(cards.length, 10_000, (i): Partial<EnrichedPosition> => ({ attributes: cards[i] === undefined ? {} : { rfid: cards[i]! } }));
    const any = runTrack(deviceRules([alert({ type: "driver" })], { drivers }), positions);
    expect(any.events.map((e) => e.message)).toEqual(["Driver changed: Ann", "Driver changed: Bob", "Driver changed: cc03"]);
    const onlyBob = runTrack(deviceRules([alert({ type: "driver", drivers: [12] })], { drivers }), positions);
    expect(onlyBob.events.map((e) => e.message)).toEqual(["Driver changed: Bob"]);
  });

});

import { describe, expect, it } from "vitest";
import type { EnrichedPosition } from "@fleet/contracts";
import { alert, deviceRules, track, runTrack } from "../testing.js";

describe("driver", () => {
  it("driver fires on a card other than the last one read, not on positions without a card, and only for listed drivers when it lists some", () => {
    const drivers = [
      { id: 11, name: "Ann", rfid: "aa01" },
      { id: 12, name: "Bob", rfid: "bb02" },
    ];
    const cards = [undefined, "AA01", undefined, "aa01", "BB02", "Card-X"];
    const positions = track(cards.length, 10_000, (i): Partial<EnrichedPosition> => ({ attributes: cards[i] === undefined ? {} : { rfid: cards[i]! } }));
    const any = runTrack(deviceRules([alert({ type: "driver" })], { drivers }), positions);
    // A card no driver holds is shown as the device wrote it.
    expect(any.events.map((e) => e.message)).toEqual(["Driver changed: Ann", "Driver changed: Bob", "Driver changed: Card-X"]);
    const onlyBob = runTrack(deviceRules([alert({ type: "driver", drivers: [12] })], { drivers }), positions);
    expect(onlyBob.events.map((e) => e.message)).toEqual(["Driver changed: Bob"]);
  });

  it("driver_unauthorized fires on a card none of the owner's drivers holds, or, with drivers listed, none of theirs", () => {
    const drivers = [
      { id: 11, name: "Ann", rfid: "aa01" },
      { id: 12, name: "Bob", rfid: "bb02" },
    ];
    const cards = [undefined, "aa01", "cc03", "cc03", undefined, "bb02", "aa01"];
    const positions = track(cards.length, 10_000, (i): Partial<EnrichedPosition> => ({ attributes: cards[i] === undefined ? {} : { rfid: cards[i]! } }));
    const strangers = runTrack(deviceRules([alert({ type: "driver_unauthorized" })], { drivers }), positions);
    // cc03 once (its repeat and a position without a card change nothing), then only known cards.
    expect(strangers.events.map((e) => [e.type, e.message])).toEqual([["driver_unauthorized", "Unauthorized driver: cc03"]]);
    const onlyAnn = runTrack(deviceRules([alert({ type: "driver_unauthorized", drivers: [11] })], { drivers }), positions);
    expect(onlyAnn.events.map((e) => e.message)).toEqual(["Unauthorized driver: cc03", "Unauthorized driver: Bob"]);
  });

  it("driver_unauthorized learns the card a device is first seen with", () => {
    const positions = track(2, 10_000, (): Partial<EnrichedPosition> => ({ attributes: { rfid: "cc03" } }));
    expect(runTrack(deviceRules([alert({ type: "driver_unauthorized" })]), positions).events).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import type { HistoryRow } from "@fleet/contracts";
import { TrackBuilder } from "@fleet/trips/testing";
import { ctx, deviceTrack, emptyTrack, heading, numberAttribute, rounded, T0, withAttribute } from "./fixtures.js";
import { fuelChanges, fuelFillings, fuelThefts } from "./fuel-changes.js";

const withLevels = (rows: HistoryRow[], levels: (number | null)[]) => withAttribute(rows, "fuel", levels);

/**
 * Driving 08:00:00–08:00:30 (fixes 0–3), standing 08:00:40–08:01:40 (4–10), driving on to
 * 08:02:10 (11–13). At the pump the level rises 49.7 → 55 → 62 → 70, wobbles down to 69.8 and
 * stays; the engine burns 0.1 l a fix on the road.
 */
const filler = (device = {}) =>
  deviceTrack(1, "Truck 1", withLevels(new TrackBuilder(T0).fix().drive(30).stand(60, { engineOn: false }).drive(30).rows, [50, 49.9, 49.8, 49.7, 49.7, 49.7, 55, 62, 70, 69.8, 69.8, 69.7, 69.6, 69.5]), { fuel: true, device });

/**
 * Driving 08:00:00–08:01:40 (fixes 0–10) burning 1.5 l a fix, 15 l in all; standing
 * 08:01:50–08:02:30 (11–15) while 15 l go, 65 → 60 → 52 → 50, with a fix reading nothing;
 * then driving (16–17), where the level falls 11.9 l between two fixes.
 */
const siphoned = () =>
  deviceTrack(
    2,
    "Van 2",
    withLevels(new TrackBuilder(T0).fix().drive(100).stand(40, { engineOn: false }).drive(20).rows, [80, 78.5, 77, 75.5, 74, 72.5, 71, 69.5, 68, 66.5, 65, 65, 60, null, 52, 50, 49.9, 38]),
    { fuel: true, device: { minFuelThefts: 10 } },
  );

describe("fuel fillings (type 11)", () => {
  it("counts a rise spread over a stop's fixes once, from the level when it stopped to where the level stopped rising", () => {
    const doc = fuelFillings(heading("Fuel fillings"), [filler()], ctx());
    expect(doc.subtitle[0]).toBe("Fuel fillings");
    const [section] = doc.sections;
    expect(section!.heading).toBe("Truck 1");
    // min_fuel_fillings not given: its default, 10 l.
    expect(section!.summary!.map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 1000) / 1000 : v])).toEqual([["Minimum rise (l)", 10], ["Fuel fillings", 1], ["Fuel filled (l)", 20.3]]);
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Time", "Position", "Level before (l)", "Level after (l)", "Amount (l)"]);
    // Found at 08:01:10 (62, 12.3 above the stop's 49.7), followed on to 70.
    expect(table!.rows.map(rounded)).toEqual([["2026-01-05 08:01:10", "54.004497, 25.000000", 49.7, 70, 20.3]]);
  });

  it("takes the device's own threshold", () => {
    const [section] = fuelFillings(heading("Fuel fillings"), [filler({ minFuelFillings: 25 })], ctx()).sections;
    expect(section!.summary).toEqual([["Minimum rise (l)", 25, 2], ["Fuel fillings", 0, 0], ["Fuel filled (l)", 0, 2]]);
    expect(section!.tables[0]!.rows).toEqual([]);
    expect(section!.tables[0]!.empty).toBe("No fuel fillings in the period.");
  });

  it("says so for a device without a fuel sensor, and finds nothing in an empty track", () => {
    const [none, quiet] = fuelFillings(heading("Fuel fillings"), [emptyTrack(), deviceTrack(3, "Van 3", [], { fuel: true })], ctx()).sections;
    expect(none!.summary).toEqual([]);
    expect(none!.tables[0]!.empty).toBe("The device has no fuel sensor.");
    expect(quiet!.summary).toEqual([["Minimum rise (l)", 10, 2], ["Fuel fillings", 0, 0], ["Fuel filled (l)", 0, 2]]);
    expect(quiet!.tables[0]!.empty).toBe("No fuel fillings in the period.");
  });
});

describe("fuel thefts (type 12)", () => {
  it("takes fuel burnt idling at a stop for fuel burnt, not a theft, as the fuel_change alert does", () => {
    // Two hours idling with the engine on, 2 l each 10 minutes: 26 l in all, each step under the 10 l minimum.
    const idling = withLevels(new TrackBuilder(T0, { everyS: 600 }).fix({ speedKmh: 0 }).stand(7200).rows, Array.from({ length: 14 }, (_, i) => 80 - i * 2));
    const [section] = fuelThefts(heading("Fuel thefts"), [deviceTrack(4, "Reefer 4", idling, { fuel: true, device: { minFuelThefts: 10 } })], ctx()).sections;
    expect(section!.tables[0]!.rows).toEqual([]);
  });

  it("measures a theft in a stop from the stop's own level, not from the last reading on the move", () => {
    // Driving (fixes 0-3) down to 91.1 l, parked from fix 4 at 91 l, then 20 l gone at fix 9.
    const rows = withLevels(new TrackBuilder(T0).fix().drive(30).stand(60, { engineOn: false }).rows, [91.4, 91.3, 91.2, 91.1, 91, 91, 91, 91, 91, 71, 71]);
    const [section] = fuelThefts(heading("Fuel thefts"), [deviceTrack(3, "Van 3", rows, { fuel: true, device: { minFuelThefts: 10 } })], ctx()).sections;
    expect(section!.tables[0]!.rows.map((row) => rounded(row.slice(2)))).toEqual([[91, 71, 20]]);
  });

  it("counts a drop while standing from the level when it stopped, and one while driving only between two fixes", () => {
    const [section] = fuelThefts(heading("Fuel thefts"), [siphoned()], ctx()).sections;
    expect(section!.summary!.map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 1000) / 1000 : v])).toEqual([["Minimum drop (l)", 10], ["Fuel thefts", 2], ["Fuel stolen (l)", 26.9]]);
    const [table] = section!.tables;
    expect(table!.rows.map(rounded)).toEqual([
      // 13 l below the stop's 65 at 08:02:20 (past the fix without a reading), 5/3 km on; followed down to 50, not into the drive.
      ["2026-01-05 08:02:20", "54.014989, 25.000000", 65, 50, 15],
      // Two fixes 1/6 km further on.
      ["2026-01-05 08:02:50", "54.017986, 25.000000", 49.9, 38, 11.9],
    ]);
  });

  it("never takes fuel burnt while driving, or a filling, for a theft", () => {
    const [section] = fuelThefts(heading("Fuel thefts"), [filler()], ctx()).sections;
    expect(section!.summary![1]).toEqual(["Fuel thefts", 0, 0]);
    expect(section!.tables[0]!.empty).toBe("No fuel thefts in the period.");
  });

  it("says so for a device without a fuel sensor", () => {
    expect(fuelThefts(heading("Fuel thefts"), [emptyTrack()], ctx()).sections[0]!.tables[0]!.empty).toBe("The device has no fuel sensor.");
  });
});

describe("fuelChanges", () => {
  const track = (levels: number[]) => deviceTrack(1, "Truck 1", withLevels(new TrackBuilder(T0).fix({ speedKmh: 0, engineOn: false }).stand(10 * (levels.length - 2), { engineOn: false }).rows, levels), { fuel: true }).track;
  const level = numberAttribute("fuel");

  it("starts again from where the last change stopped, so a second filling in the same stop counts on its own", () => {
    expect(fuelChanges(track([10, 25, 30, 30, 41, 52, 52]), level, 1, 10)).toEqual([
      { index: 1, endIndex: 2, before: 10, after: 30 },
      { index: 4, endIndex: 5, before: 30, after: 52 },
    ]);
  });

  it("counts any rise with a threshold of 0, each once however many fixes it takes", () => {
    // The second rise from the lowest level since the first ended, as the alert measures it.
    expect(fuelChanges(track([10, 10, 11, 12, 12, 11, 13]), level, 1, 0)).toEqual([
      { index: 2, endIndex: 3, before: 10, after: 12 },
      { index: 6, endIndex: 6, before: 11, after: 13 },
    ]);
  });
});

describe("a filling and a siphoning in the same stop", () => {
  /** Driving (fixes 0–3), parked with the engine off (4–16), driving on (17–19). */
  const stop = (levels: number[]) => deviceTrack(3, "Van 3", withLevels(new TrackBuilder(T0).fix().drive(30).stand(120, { engineOn: false }).drive(20).rows, levels), { fuel: true, device: { minFuelThefts: 10, minFuelFillings: 10 } });
  const changes = (levels: number[], direction: 1 | -1) => fuelChanges(stop(levels).track, numberAttribute("fuel"), direction, 10).map((c) => [c.before, c.after]);

  it("measures a siphoning after a filling from the filled level, and a filling after a siphoning from the siphoned one", () => {
    // 60 on arrival, +30 at the pump, then 2 l a fix siphoned: 90 → 80.
    const fillThenSiphon = [60.4, 60.2, 60, 60, 60, 90, 90, 88, 86, 84, 82, 80, 80, 80, 80, 80, 80, 79.8, 79.6, 79.4];
    expect(changes(fillThenSiphon, 1)).toEqual([[60, 90]]);
    expect(changes(fillThenSiphon, -1)).toEqual([[90, 80]]);
    // The other way round: 60 → 50 siphoned, then +30 at the pump.
    const siphonThenFill = [60.4, 60.2, 60, 60, 60, 58, 56, 54, 52, 50, 80, 80, 80, 80, 80, 80, 80, 79.8, 79.6, 79.4];
    expect(changes(siphonThenFill, -1)).toEqual([[60, 50]]);
    expect(changes(siphonThenFill, 1)).toEqual([[50, 80]]);
  });
});

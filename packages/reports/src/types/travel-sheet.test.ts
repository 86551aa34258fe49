import { describe, expect, it } from "vitest";
import { TrackBuilder } from "@fleet/trips/testing";
import { ctx, deviceTrack, emptyTrack, heading, MI, rounded, T0, truck, withFuel } from "./fixtures.js";
import { travelSheet } from "./travel-sheet.js";

describe("travel sheet (type 4)", () => {
  it("lists each drive, from where to where, and adds them up in the footer", () => {
    const doc = travelSheet(heading("Travel sheet"), [truck()], ctx());
    expect(doc.subtitle[0]).toBe("Travel sheet");
    const [section] = doc.sections;
    expect(section!.heading).toBe("Truck 1");
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Start", "Start position", "End", "End position", "Duration", "Distance (km)", "Top speed (kph)", "Average speed (kph)"]);
    expect(table!.rows.map(rounded)).toEqual([
      // 10 km in 610 s: the drive ends at the stop's first fix.
      ["2026-01-05 08:00:00", "54.000000, 25.000000", "2026-01-05 08:10:10", "54.089932, 25.000000", "610s", 10, 60, 59],
      ["2026-01-05 08:20:10", "54.089932, 25.000000", "2026-01-05 08:25:10", "54.179864, 25.000000", "300s", 10, 120, 120],
    ]);
    // 20 km in 910 s.
    expect(rounded(table!.footer)).toEqual(["Total", null, null, null, "910s", 20, 120, 79]);
  });

  it("adds the fuel each drive burnt when the device has a fuel sensor", () => {
    const rows = withFuel(new TrackBuilder(T0).fix().drive(600).stand(600).drive(300, 90).rows);
    const [table] = travelSheet(heading("Travel sheet"), [deviceTrack(3, "Tanker 3", rows, { fuel: true })], ctx()).sections[0]!.tables;
    expect(table!.columns.at(-1)).toEqual({ title: "Fuel consumption (l)", decimals: 2 });
    // 61 and 30 steps of 0.1 l; the stop's 60 are not a drive's.
    expect(table!.rows.map((r) => rounded(r)!.slice(4))).toEqual([
      ["610s", 10, 60, 59, 6.1],
      ["300s", 7.5, 90, 90, 3],
    ]);
    expect(rounded(table!.footer)!.slice(4)).toEqual(["910s", 17.5, 90, 69, 9.1]);
  });

  it("speaks the user's units", () => {
    const [table] = travelSheet(heading("Travel sheet"), [truck()], ctx({ units: MI })).sections[0]!.tables;
    expect(table!.columns.slice(5).map((c) => c.title)).toEqual(["Distance (mi)", "Top speed (mph)", "Average speed (mph)"]);
    expect(rounded(table!.rows[0]!.slice(5))).toEqual([6.214, 37, 37]);
    expect(rounded(table!.footer!.slice(5))).toEqual([12.427, 75, 49]);
  });

  it("says so for a device without drives, and has no footer then", () => {
    const [table] = travelSheet(heading("Travel sheet"), [emptyTrack()], ctx()).sections[0]!.tables;
    expect(table!.rows).toEqual([]);
    expect(table!.footer).toBeUndefined();
    expect(table!.empty).toBe("No drives in the period.");
  });
});

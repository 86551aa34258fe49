import { describe, expect, it } from "vitest";
import { TrackBuilder } from "@fleet/trips/testing";
import { ctx, deviceTrack, emptyTrack, heading, MI, rounded, T0, truck, truckRows, withFuel } from "./fixtures.js";
import { generalInformationMerged, generalInformationMergedCustom } from "./general-merged.js";
import { deviceFigures } from "./totals.js";

/** An hour after the truck: the same first drive and stop, then 7.5 km at 90 km/h, burning 0.1 l a fix. */
const tanker = () => deviceTrack(3, "Tanker 3", withFuel(new TrackBuilder(T0 + 3_600_000).fix().drive(600).stand(600).drive(300, 90).rows), { fuel: true });

describe("general information, merged (types 2 and 16)", () => {
  it("puts each device's totals in a row of one table, with the fleet's in the footer", () => {
    const doc = generalInformationMerged(heading("General information (merged)"), [truck(), emptyTrack(), tanker()].map((t) => deviceFigures(t, 100)), ctx({ speedLimitKmh: 100 }));
    expect(doc.title).toBe("Weekly");
    expect(doc.subtitle).toEqual(["General information (merged)", "2026-01-05 08:00:00 – 2026-01-06 08:00:00"]);
    expect(doc.sections).toHaveLength(1);
    const [section] = doc.sections;
    expect(section!.heading).toBe("All devices");
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual([
      "Device", "Route start", "Route end", "Route length (km)", "Move duration", "Stop duration", "Stops",
      "Top speed (kph)", "Average speed (kph)", "Overspeed count", "Engine work", "Engine idle", "Engine hours", "Fuel consumption (l)",
    ]);
    expect(table!.columns.map((c) => c.decimals)).toEqual([undefined, undefined, undefined, 2, undefined, undefined, 0, 0, 0, 0, undefined, undefined, undefined, 2]);
    expect(table!.rows.map(rounded)).toEqual([
      ["Truck 1", "2026-01-05 08:00:00", "2026-01-05 08:25:10", 20, "910s", "600s", 1, 120, 79, 1, "910s", "600s", "1510s", null],
      ["Van 2", null, null, 0, "0s", "0s", 0, 0, 0, 0, "0s", "0s", "0s", null],
      // 17.5 km in 910 s of driving; 61 + 60 + 30 steps of 0.1 l.
      ["Tanker 3", "2026-01-05 09:00:00", "2026-01-05 09:25:10", 17.5, "910s", "600s", 1, 90, 69, 0, "910s", "600s", "1510s", 15.1],
    ]);
    // The earliest start, the latest end, the highest top speed, and 37.5 km over 1820 s of driving (not the mean of the averages).
    expect(rounded(table!.footer)).toEqual(["Total", "2026-01-05 08:00:00", "2026-01-05 09:25:10", 37.5, "1820s", "1200s", 2, 120, 74, 1, "1820s", "1200s", "3020s", 15.1]);
  });

  it("speaks the user's units and leaves out the overspeed and fuel columns nobody needs", () => {
    const doc = generalInformationMerged(heading("General information (merged)"), [deviceFigures(truck(), null)], ctx({ units: MI }));
    const [table] = doc.sections[0]!.tables;
    const titles = table!.columns.map((c) => c.title);
    expect(titles).toContain("Route length (mi)");
    expect(titles).not.toContain("Overspeed count");
    expect(titles.some((t) => t.startsWith("Fuel"))).toBe(false);
    const row = new Map(titles.map((t, i) => [t, table!.rows[0]![i]]));
    expect(row.get("Route length (mi)")).toBeCloseTo(20 / 1.609344, 9);
    expect(row.get("Top speed (mph)")).toBe(75);
    expect(row.get("Average speed (mph)")).toBe(49);
  });

  it("sums fuel per unit, so litres and gallons never add up", () => {
    const gallons = { ...deviceTrack(4, "Bus 4", withFuel(truckRows()), { fuel: true }), fuelUnit: "gal" };
    const [table] = generalInformationMerged(heading("x"), [tanker(), gallons].map((t) => deviceFigures(t, null)), ctx()).sections[0]!.tables;
    const titles = table!.columns.map((c) => c.title);
    expect(titles.slice(-2)).toEqual(["Fuel consumption (l)", "Fuel consumption (gal)"]);
    expect(rounded(table!.rows[0]!.slice(-2))).toEqual([15.1, null]);
    expect(rounded(table!.rows[1]!.slice(-2))).toEqual([null, 15.1]);
    expect(rounded(table!.footer!.slice(-2))).toEqual([15.1, 15.1]);
  });

  it("shows the table's empty text, and no footer, for a report without devices", () => {
    const [table] = generalInformationMerged(heading("x"), [], ctx()).sections[0]!.tables;
    expect(table!.rows).toEqual([]);
    expect(table!.footer).toBeUndefined();
    expect(table!.empty).toBe("No devices in the report.");
  });

  it("is also type 16's builder", () => {
    expect(generalInformationMergedCustom).toBe(generalInformationMerged);
  });
});

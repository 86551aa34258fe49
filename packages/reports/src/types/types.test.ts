import { GroupStatus } from "@fleet/trips";
import { describe, expect, it } from "vitest";
import { drivesAndStops } from "./drives-stops.js";
import { ctx, emptyTrack as empty, groups, heading as headed, MI, truck } from "./fixtures.js";
import { generalInformation } from "./general.js";
import { deviceFigures } from "./totals.js";

const heading = headed("General information");

describe("general information (type 1)", () => {
  it("lists each device's totals from the track: times, distance, durations, speeds, stops, overspeeds", () => {
    const doc = generalInformation(heading, [truck(), empty()].map((t) => deviceFigures(t, 100)), ctx({ speedLimitKmh: 100 }));
    expect(doc.title).toBe("Weekly");
    expect(doc.subtitle).toEqual(["General information", "2026-01-05 08:00:00 – 2026-01-06 08:00:00"]);
    const [one, two] = doc.sections;
    expect(one!.heading).toBe("Truck 1");
    expect(Object.fromEntries(one!.summary!.map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 1000) / 1000 : v]))).toEqual({
      "Route start": "2026-01-05 08:00:00",
      "Route end": "2026-01-05 08:25:10",
      "Route length (km)": 20,
      "Move duration": "910s",
      "Stop duration": "600s",
      Stops: 1,
      "Top speed (kph)": 120,
      // 20 km in 910 s of driving.
      "Average speed (kph)": 79,
      "Overspeed count": 1,
      "Engine work": "910s",
      "Engine idle": "600s",
      "Engine hours": "1510s",
    });
    // Each amount with its decimals: the empty day's length reads "0.00", as in the merged table.
    expect(two!.summary!.slice(0, 3)).toEqual([["Route start", null, undefined], ["Route end", null, undefined], ["Route length (km)", 0, 2]]);
  });

  it("speaks the user's units, and counts no overspeed without a limit", () => {
    const doc = generalInformation(heading, [deviceFigures(truck(), null)], ctx({ units: MI }));
    const summary = new Map(doc.sections[0]!.summary!.map(([k, v]) => [k, v]));
    expect(summary.get("Route length (mi)")).toBeCloseTo(12.427, 3);
    expect(summary.get("Top speed (mph)")).toBe(75);
    expect(summary.has("Overspeed count")).toBe(false);
  });
});

describe("drives and stops (type 3)", () => {
  it("lists each drive and stop with its times, duration, distance, speeds and position, under the device's totals", () => {
    const doc = drivesAndStops({ ...heading, typeName: "Drives and stops" }, [truck()].map(groups), ctx());
    const [section] = doc.sections;
    expect(new Map(section!.summary!.map(([k, v]) => [k, v])).get("Route length (km)")).toBeCloseTo(20, 6);
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Status", "Start", "End", "Duration", "Distance (km)", "Top speed (kph)", "Average speed (kph)", "Engine idle", "Position"]);
    const rows = table!.rows.map((r) => r.map((c) => (typeof c === "number" ? Math.round(c * 100) / 100 : c)));
    expect(rows).toEqual([
      ["Drive", "2026-01-05 08:00:00", "2026-01-05 08:10:10", "610s", 10, 60, 59, "0s", "54.000000, 25.000000"],
      ["Stop", "2026-01-05 08:10:10", "2026-01-05 08:20:10", "600s", 0, 0, 0, "600s", "54.089932, 25.000000"],
      ["Drive", "2026-01-05 08:20:10", "2026-01-05 08:25:10", "300s", 10, 120, 120, "0s", "54.089932, 25.000000"],
    ]);
  });

  it("gives a stop that crept its average speed, as get_history gives the same group", () => {
    const d = groups(truck());
    const crept = { ...d, groups: d.groups.map((g) => (g.status === GroupStatus.stop ? { ...g, distanceKm: 1, averageSpeedKmh: 6 } : g)) };
    const rows = drivesAndStops(heading, [crept], ctx()).sections[0]!.tables[0]!.rows;
    expect(rows[1]!.slice(0, 1).concat(rows[1]!.slice(4, 7))).toEqual(["Stop", 1, 0, 6]);
  });

  it("says so for a device with no drive or stop in the period", () => {
    const [section] = drivesAndStops(heading, [empty()].map(groups), ctx()).sections;
    expect(section!.tables[0]!.rows).toEqual([]);
    expect(section!.tables[0]!.empty).toBe("No drives or stops in the period.");
  });

  it("shows a position as its place when the context names one, and as its coordinates where it names none", () => {
    // The stop's and the second drive's first fix are 10 km north of the start: only the start has a name.
    const place = (p: { latitude: number }) => (p.latitude === 54 ? "Depot gate" : undefined);
    const rows = drivesAndStops(heading, [truck()].map(groups), ctx({ place })).sections[0]!.tables[0]!.rows;
    expect(rows.map((r) => r.at(-1))).toEqual(["Depot gate", "54.089932, 25.000000", "54.089932, 25.000000"]);
  });
});


import { describe, expect, it } from "vitest";
import type { ReportGeofence } from "./context.js";
import { drivesAndStopsGeofences } from "./drives-stops-geofences.js";
import { ctx, emptyTrack, groups, heading, rounded, truck } from "./fixtures.js";

const circle = (id: number, name: string, lat: number, radius: number): ReportGeofence => ({ id, name, shape: { type: "circle", coordinates: [], center: { lat, lng: 25 }, radius } });

// The truck stops 10 km north of where it starts, at 54.089932° (km per degree on @fleet/geo's sphere): both of these hold the stop, the third its start.
const stopLat = 54 + 10 / ((6371.0088 * Math.PI) / 180);
const yard = circle(1, "Yard", stopLat, 100);
const town = circle(2, "Town", stopLat, 5000);
const home = circle(3, "Home", 54, 100);

describe("drives and stops / geofences (type 18)", () => {
  it("places each stop by the geofences holding it, and each drive by its position", () => {
    const doc = drivesAndStopsGeofences(heading("Drives and stops / Geofences"), [truck()].map(groups), ctx(), [town, home, yard]);
    expect(doc.subtitle[0]).toBe("Drives and stops / Geofences");
    const [section] = doc.sections;
    expect(new Map(section!.summary!.map(([k, v]) => [k, v])).get("Stops")).toBe(1);
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Status", "Start", "End", "Duration", "Distance (km)", "Top speed (kph)", "Average speed (kph)", "Engine idle", "Location"]);
    expect(table!.rows.map(rounded)).toEqual([
      // Starting at home, a drive: its position, not "Home".
      ["Drive", "2026-01-05 08:00:00", "2026-01-05 08:10:10", "610s", 10, 60, 59, "0s", "54.000000, 25.000000"],
      // Every geofence holding the stop, in id order.
      ["Stop", "2026-01-05 08:10:10", "2026-01-05 08:20:10", "600s", 0, 0, 0, "600s", "Yard, Town"],
      ["Drive", "2026-01-05 08:20:10", "2026-01-05 08:25:10", "300s", 10, 120, 120, "0s", "54.089932, 25.000000"],
    ]);
  });

  it("gives a stop in no geofence its position, and shows the empty text for a device without fixes", () => {
    const doc = drivesAndStopsGeofences(heading("x"), [truck(), emptyTrack()].map(groups), ctx(), [home]);
    expect(doc.sections[0]!.tables[0]!.rows[1]!.at(-1)).toBe("54.089932, 25.000000");
    expect(doc.sections[1]!.tables[0]!.rows).toEqual([]);
    expect(doc.sections[1]!.tables[0]!.empty).toBe("No drives or stops in the period.");
  });
});

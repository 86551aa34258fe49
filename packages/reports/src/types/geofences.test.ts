import { describe, expect, it } from "vitest";
import { TrackBuilder } from "@fleet/trips/testing";
import type { ReportGeofence } from "./context.js";
import { ctx, deviceTrack, emptyTrack, heading, MI, rounded, T0 } from "./fixtures.js";
import { geofenceInOut } from "./geofences.js";

const circle = (id: number, name: string, lat: number, radius: number): ReportGeofence => ({ id, name, shape: { type: "circle", coordinates: [], center: { lat, lng: 25 }, radius } });

/** 5 km north at 60 km/h (a fix every 1/6 km, 08:00:00–08:05:00), then a minute standing (to 08:06:10). */
const rows = new TrackBuilder(T0).fix().drive(300).stand(60).rows;
const truck = () => deviceTrack(1, "Truck 1", rows);

// Fixes 0–2 (0 to 333 m from the start) are in the yard; the fix at 500 m is not.
const yard = circle(1, "Yard", 54, 400);
// Fixes 0–5 (up to 833 m) are in the town, which holds the yard.
const town = circle(5, "Town", 54, 900);
// A band across the road from 54.01° to 54.02°: fixes 7 (1.17 km) to 13 (2.17 km).
const band: ReportGeofence = {
  id: 2,
  name: "Band",
  shape: { type: "polygon", coordinates: [{ lat: 54.01, lng: 24.99 }, { lat: 54.01, lng: 25.01 }, { lat: 54.02, lng: 25.01 }, { lat: 54.02, lng: 24.99 }], center: null, radius: null },
};
// 200 m around where the truck ends: from the fix at 4.83 km to the last.
const end = circle(3, "End", rows.at(-1)!.latitude, 200);
const far = circle(4, "Far", 10, 100);

describe("geofence in/out (type 7)", () => {
  it("lists each visit by entry time: entered at the first fix inside, left at the first fix outside", () => {
    const doc = geofenceInOut(heading("Geofence in/out"), [truck()], ctx(), [end, band, town, far, yard]);
    expect(doc.subtitle[0]).toBe("Geofence in/out");
    const [section] = doc.sections;
    expect(section!.heading).toBe("Truck 1");
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Geofence", "Entered", "Left", "Duration", "Distance (km)"]);
    expect(table!.rows.map(rounded)).toEqual([
      // Starts inside both: entered at the first fix, in the order the geofences were given.
      ["Town", "2026-01-05 08:00:00", "2026-01-05 08:01:00", "60s", 0.833],
      // The distance between fixes inside (2 steps); the time until the first fix outside (3 steps).
      ["Yard", "2026-01-05 08:00:00", "2026-01-05 08:00:30", "30s", 0.333],
      ["Band", "2026-01-05 08:01:10", "2026-01-05 08:02:20", "70s", 1],
      // Still inside at the end: no leaving time, and inside until the last fix.
      ["End", "2026-01-05 08:04:50", null, "80s", 0.167],
    ]);
    expect(table!.footer).toBeUndefined();
    expect(section!.summary).toEqual([
      ["Visits to End", 1],
      ["Time in End", "80s"],
      ["Visits to Band", 1],
      ["Time in Band", "70s"],
      ["Visits to Town", 1],
      ["Time in Town", "60s"],
      ["Visits to Far", 0],
      ["Time in Far", "0s"],
      ["Visits to Yard", 1],
      ["Time in Yard", "30s"],
    ]);
  });

  it("counts a return as a new visit, and a geofence named twice once", () => {
    // Standing in the yard from 08:00:00 to 08:01:10, but the fixes at 08:00:30 and 08:00:40 are 650 m east.
    const away = new TrackBuilder(T0).fix({ speedKmh: 0 }).stand(60).rows.map((r, i) => (i === 3 || i === 4 ? { ...r, longitude: 25.01 } : r));
    const [section] = geofenceInOut(heading("Geofence in/out"), [deviceTrack(2, "Van 2", away)], ctx(), [yard, yard]).sections;
    expect(section!.tables[0]!.rows).toEqual([
      ["Yard", "2026-01-05 08:00:00", "2026-01-05 08:00:30", "30s", 0],
      ["Yard", "2026-01-05 08:00:50", null, "20s", 0],
    ]);
    expect(section!.summary).toEqual([["Visits to Yard", 2], ["Time in Yard", "50s"]]);
  });

  it("counts no visit out and back for a GPS jump, as the alerts fire no event for one", () => {
    // The fix at 08:00:30 is 6.5 km east: reached and left at over 2,000 km/h.
    const jumped = new TrackBuilder(T0).fix({ speedKmh: 0 }).stand(60).rows.map((r, i) => (i === 3 ? { ...r, longitude: 25.1 } : r));
    const [section] = geofenceInOut(heading("Geofence in/out"), [deviceTrack(2, "Van 2", jumped)], ctx(), [yard]).sections;
    expect(section!.tables[0]!.rows).toEqual([["Yard", "2026-01-05 08:00:00", null, "70s", 0]]);
  });

  it("speaks the user's units", () => {
    const [table] = geofenceInOut(heading("Geofence in/out"), [truck()], ctx({ units: MI }), [band]).sections[0]!.tables;
    expect(table!.columns[4]!.title).toBe("Distance (mi)");
    expect(rounded(table!.rows[0])).toEqual(["Band", "2026-01-05 08:01:10", "2026-01-05 08:02:20", "70s", 0.621]);
  });

  it("shows the empty text for a device without fixes, or a report without geofences", () => {
    const doc = geofenceInOut(heading("Geofence in/out"), [emptyTrack(), truck()], ctx(), []);
    for (const section of doc.sections) {
      expect(section.summary).toEqual([]);
      expect(section.tables[0]!.rows).toEqual([]);
      expect(section.tables[0]!.empty).toBe("No geofence visits in the period.");
    }
    const [withGeofence] = geofenceInOut(heading("Geofence in/out"), [emptyTrack()], ctx(), [yard]).sections;
    expect(withGeofence!.summary).toEqual([["Visits to Yard", 0], ["Time in Yard", "0s"]]);
    expect(withGeofence!.tables[0]!.rows).toEqual([]);
  });
});

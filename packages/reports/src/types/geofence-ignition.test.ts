import { describe, expect, it } from "vitest";
import { TrackBuilder } from "@fleet/trips/testing";
import type { ReportGeofence } from "./context.js";
import { ctx, deviceTrack, emptyTrack, heading, rounded, T0 } from "./fixtures.js";
import { geofenceInOutIgnition } from "./geofence-ignition.js";

const yard: ReportGeofence = { id: 1, name: "Yard", shape: { type: "circle", coordinates: [], center: { lat: 54, lng: 25 }, radius: 400 } };

/**
 * In the yard with the engine off 08:00:00–08:00:30, on from 08:00:40, driving north at
 * 60 km/h from 08:01:10 (1/6 km a fix): the fix at 08:01:30, 500 m out, is the first outside.
 */
const leaving = () =>
  deviceTrack(1, "Truck 1", new TrackBuilder(T0).fix({ speedKmh: 0, engineOn: false }).stand(20, { engineOn: false }).stand(20).drive(60).rows);

describe("geofence in/out, ignition on/off (type 20)", () => {
  it("splits each visit's time into engine on and off, up to the first fix outside", () => {
    const doc = geofenceInOutIgnition(heading("Geofence in/out (Ignition ON/OFF)"), [leaving()], ctx(), [yard]);
    expect(doc.subtitle[0]).toBe("Geofence in/out (Ignition ON/OFF)");
    const [section] = doc.sections;
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Geofence", "Entered", "Left", "Duration", "Distance (km)", "Ignition on", "Ignition off"]);
    // On at both ends: the steps from 08:00:40 to 08:01:30 (50 s); 08:00:30–08:00:40, off at its start, is off.
    expect(table!.rows.map(rounded)).toEqual([["Yard", "2026-01-05 08:00:00", "2026-01-05 08:01:30", "90s", 0.333, "50s", "40s"]]);
    expect(section!.summary).toEqual([["Visits to Yard", 1], ["Time in Yard", "90s"]]);
  });

  it("counts a visit still going at the end up to its last fix", () => {
    const parked = deviceTrack(2, "Van 2", new TrackBuilder(T0).fix({ speedKmh: 0 }).stand(10).stand(10, { engineOn: false }).rows);
    // On 08:00:00–08:00:20; the engine was off at 08:00:30 and 08:00:40.
    expect(geofenceInOutIgnition(heading("x"), [parked], ctx(), [yard]).sections[0]!.tables[0]!.rows).toEqual([["Yard", "2026-01-05 08:00:00", null, "40s", 0, "20s", "20s"]]);
  });

  it("shows the empty text for a device without fixes", () => {
    const [section] = geofenceInOutIgnition(heading("x"), [emptyTrack()], ctx(), [yard]).sections;
    expect(section!.tables[0]!.rows).toEqual([]);
    expect(section!.tables[0]!.empty).toBe("No geofence visits in the period.");
  });
});

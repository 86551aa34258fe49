import { describe, expect, it } from "vitest";
import { TrackBuilder } from "@fleet/trips/testing";
import type { ReportGeofence } from "./context.js";
import { ctx, deviceTrack, eastern, emptyTrack, heading, rounded, T0 } from "./fixtures.js";
import { geofenceInOut24h } from "./geofence-days.js";

const H = 3_600_000;
const circle = (id: number, name: string, radiusM: number): ReportGeofence => ({ id, name, shape: { type: "circle", coordinates: [], center: { lat: 54, lng: 25 }, radius: radiusM } });
const town = circle(1, "Town", 20_000);

/**
 * From 21:30 UTC (23:30 on the eastern user's clock) a fix every 10 minutes, each 1 km further
 * north (6 km/h), to 22:40 UTC and 7 km; at 22:50 UTC a fix 60 km further (360 km/h, no GPS
 * jump), out of the town.
 */
const crawler = () => deviceTrack(1, "Crawler", new TrackBuilder(T0 + 13.5 * H, { everyS: 600 }).fix({ speedKmh: 6 }).drive(4200, 6).gap(600, 60).fix().rows);

/** Parked in the town from 21:00 UTC on the 5th to 23:00 UTC on the 6th, a fix an hour, never leaving. */
const parked = () => deviceTrack(2, "Parked", new TrackBuilder(T0 + 13 * H, { everyS: 3600 }).fix({ speedKmh: 0 }).stand(25 * 3600).rows);

describe("geofence in/out 24 hour mode (type 15)", () => {
  it("cuts a visit at the user's midnight, each part with the distance of the steps that began in it", () => {
    const doc = geofenceInOut24h(heading("Geofence in/out 24 hour mode"), [crawler()], eastern(), [town]);
    expect(doc.subtitle[0]).toBe("Geofence in/out 24 hour mode");
    const [section] = doc.sections;
    expect(section!.heading).toBe("Crawler");
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Geofence", "Entered", "Left", "Duration", "Distance (km)"]);
    expect(table!.rows.map(rounded)).toEqual([
      // 23:30 to midnight: the steps from 23:30, 23:40 and 23:50.
      ["Town", "2026-01-05 23:30:00", "2026-01-06 00:00:00", "1800s", 3],
      // Midnight to the first fix outside: the steps from 00:00 to 00:30.
      ["Town", "2026-01-06 00:00:00", "2026-01-06 00:50:00", "3000s", 4],
    ]);
    // One visit, not two.
    expect(section!.summary).toEqual([["Visits to Town", 1], ["Time in Town", "4800s"]]);
  });

  it("gives a visit over whole days a row a day, the last not left while still inside", () => {
    const [section] = geofenceInOut24h(heading("x"), [parked()], eastern(), [town]).sections;
    expect(section!.tables[0]!.rows).toEqual([
      ["Town", "2026-01-05 23:00:00", "2026-01-06 00:00:00", "3600s", 0],
      ["Town", "2026-01-06 00:00:00", "2026-01-07 00:00:00", "86400s", 0],
      ["Town", "2026-01-07 00:00:00", null, "3600s", 0],
    ]);
    expect(section!.summary).toEqual([["Visits to Town", 1], ["Time in Town", "93600s"]]);
  });

  it("cuts at the user's midnight, not at UTC's", () => {
    // On the UTC clock the crawler's visit is 21:30–22:50, within one day.
    const [table] = geofenceInOut24h(heading("x"), [crawler()], ctx(), [town]).sections[0]!.tables;
    expect(table!.rows.map(rounded)).toEqual([["Town", "2026-01-05 21:30:00", "2026-01-05 22:50:00", "4800s", 7]]);
  });

  it("shows the empty text for a device without fixes", () => {
    const [section] = geofenceInOut24h(heading("x"), [emptyTrack()], eastern(), [town]).sections;
    expect(section!.tables[0]!.rows).toEqual([]);
    expect(section!.tables[0]!.empty).toBe("No geofence visits in the period.");
    expect(section!.summary).toEqual([["Visits to Town", 0], ["Time in Town", "0s"]]);
  });
});

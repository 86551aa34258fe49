import { describe, expect, it } from "vitest";
import type { ReportEvent } from "./context.js";
import { deviceEvents, eventTypeName } from "./events.js";
import { ctx, deviceTrack, emptyTrack, heading, MI, T0, truckRows } from "./fixtures.js";

const at = (minutes: number, type: string, message: string, speedKmh = 0): ReportEvent => ({ time: T0 + minutes * 60_000, type, message, latitude: 54.01, longitude: 25.123456789, speedKmh });

/** Out of order on purpose: the report puts them in time order. */
const events = [at(10, "geofence_in", "Entered Depot", 30), at(1, "overspeed", "Speed 120 kph", 120), at(15, "geofence_in", "Entered Yard"), at(5, "custom", "Door open")];

describe("events (type 8)", () => {
  it("lists the device's events in time order, with a readable type, and counts each type", () => {
    const doc = deviceEvents(heading("Events"), [deviceTrack(1, "Truck 1", truckRows(), { events })], ctx());
    expect(doc.subtitle[0]).toBe("Events");
    const [section] = doc.sections;
    expect(section!.heading).toBe("Truck 1");
    expect(section!.summary).toEqual([["Custom", 1], ["Geofence in", 2], ["Overspeed", 1]]);
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Time", "Type", "Message", "Speed (kph)", "Position"]);
    expect(table!.rows).toEqual([
      ["2026-01-05 08:01:00", "Overspeed", "Speed 120 kph", 120, "54.010000, 25.123457"],
      ["2026-01-05 08:05:00", "Custom", "Door open", 0, "54.010000, 25.123457"],
      ["2026-01-05 08:10:00", "Geofence in", "Entered Depot", 30, "54.010000, 25.123457"],
      ["2026-01-05 08:15:00", "Geofence in", "Entered Yard", 0, "54.010000, 25.123457"],
    ]);
    expect(table!.footer).toBeUndefined();
  });

  it("speaks the user's units", () => {
    const [table] = deviceEvents(heading("Events"), [deviceTrack(1, "Truck 1", [], { events })], ctx({ units: MI })).sections[0]!.tables;
    expect(table!.columns[3]!.title).toBe("Speed (mph)");
    // 120 km/h and 30 km/h.
    expect(table!.rows.map((r) => r[3])).toEqual([75, 0, 19, 0]);
  });

  it("shows the empty text for a device without events, read or not", () => {
    const [section] = deviceEvents(heading("Events"), [emptyTrack()], ctx()).sections;
    expect(section!.summary).toEqual([]);
    expect(section!.tables[0]!.rows).toEqual([]);
    expect(section!.tables[0]!.empty).toBe("No events in the period.");
  });

  it("names a stored type as a person reads it", () => {
    expect(eventTypeName("geofence_in")).toBe("Geofence in");
    expect(eventTypeName("fuel_fill")).toBe("Fuel fill");
    expect(eventTypeName("overspeed")).toBe("Overspeed");
    expect(eventTypeName("")).toBe("");
  });
});

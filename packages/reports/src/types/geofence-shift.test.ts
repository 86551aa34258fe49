import { describe, expect, it } from "vitest";
import type { HistoryRow } from "@fleet/contracts";
import { TrackBuilder } from "@fleet/trips/testing";
import type { ReportGeofence, ReportHeading } from "./context.js";
import { ctx, deviceTrack, eastern, emptyTrack } from "./fixtures.js";
import { geofenceInOutShift } from "./geofence-shift.js";
import { shiftParameters } from "./shift-rules.js";

const depot: ReportGeofence = { id: 1, name: "Depot", shape: { type: "circle", coordinates: [], center: { lat: 54, lng: 25 }, radius: 500 } };
// Holds the depot's centre too.
const site: ReportGeofence = { id: 2, name: "Site", shape: { type: "circle", coordinates: [], center: { lat: 54, lng: 25.001 }, radius: 500 } };

/** Three days of the user's (UTC) clock, 5–7 January 2026. */
const period: ReportHeading = { title: "Shifts", typeName: "Geofence in/out (Shift)", fromMs: Date.UTC(2026, 0, 5), toMs: Date.UTC(2026, 0, 7, 23, 59, 59) };

/** Fixes at these UTC times ("2026-01-05 07:50"), in the depot ("in") or 11 km north of it. */
function fixes(...at: [time: string, where: "in" | "out"][]): HistoryRow[] {
  const template = new TrackBuilder(0).fix().rows[0]!;
  return at.map(([time, where], i) => ({ ...template, id: i + 1, fixTime: Date.parse(`${time.replace(" ", "T")}:00Z`), latitude: where === "in" ? 54 : 54.1 }));
}

/**
 * The 5th: in from 07:50, out 11:10–11:30 (20 min) and 13:00–13:50 (50 min), gone at 16:40.
 * The 6th: in at 08:20, gone at 17:10. The 7th: never in.
 */
const driver = () =>
  deviceTrack(
    1,
    "Truck 1",
    fixes(
      ["2026-01-05 07:50", "in"],
      ["2026-01-05 10:00", "in"],
      ["2026-01-05 11:10", "out"],
      ["2026-01-05 11:30", "in"],
      ["2026-01-05 12:50", "in"],
      ["2026-01-05 13:00", "out"],
      ["2026-01-05 13:50", "in"],
      ["2026-01-05 16:30", "in"],
      ["2026-01-05 16:40", "out"],
      ["2026-01-06 08:20", "in"],
      ["2026-01-06 12:00", "in"],
      ["2026-01-06 17:10", "out"],
      ["2026-01-07 09:00", "out"],
    ),
  );

/** Each limit met exactly: in at 08:15, out 12:00–12:30, gone at 16:45. */
const punctual = () => deviceTrack(2, "Van 2", fixes(["2026-01-05 08:15", "in"], ["2026-01-05 12:00", "out"], ["2026-01-05 12:30", "in"], ["2026-01-05 16:45", "out"]));

describe("geofence in/out, shift (type 28)", () => {
  it("judges each day's arrival, departure and exits by the shift and its tolerances", () => {
    const doc = geofenceInOutShift(period, [driver()], ctx(), [depot], {});
    expect(doc.subtitle[0]).toBe("Geofence in/out (Shift)");
    const [section] = doc.sections;
    expect(section!.heading).toBe("Truck 1");
    // The defaults: 08:00–17:00, 15 minutes either way, exits over 30 minutes.
    expect(section!.summary).toEqual([["Shift", "08:00–17:00"], ["Shift days", 2], ["Late arrivals", 1], ["Early departures", 1], ["Excessive exits", 1]]);
    const [days, exits] = section!.tables;
    expect(days!.columns.map((c) => c.title)).toEqual(["Date", "Geofence", "Arrived", "Late arrival", "Left", "Early departure", "Excessive exits", "Time out"]);
    expect(days!.rows).toEqual([
      // Left at 16:40, before 16:45; out 20 minutes (not counted) and 50.
      ["2026-01-05", "Depot", "2026-01-05 07:50:00", "No", "2026-01-05 16:40:00", "Yes", 1, "3000s"],
      // In at 08:20, after 08:15. The 7th, never in, has no row.
      ["2026-01-06", "Depot", "2026-01-06 08:20:00", "Yes", "2026-01-06 17:10:00", "No", 0, "0s"],
    ]);
    expect(exits!.columns.map((c) => c.title)).toEqual(["Date", "Left", "Returned", "Duration"]);
    expect(exits!.rows).toEqual([["2026-01-05", "2026-01-05 13:00:00", "2026-01-05 13:50:00", "3000s"]]);
  });

  it("holds each limit met exactly as kept, and takes the parameters as stored or as a form sends them", () => {
    const [kept] = geofenceInOutShift(period, [punctual()], ctx(), [depot], {}).sections;
    expect(kept!.tables[0]!.rows).toEqual([["2026-01-05", "Depot", "2026-01-05 08:15:00", "No", "2026-01-05 16:45:00", "No", 0, "0s"]]);
    const [strict] = geofenceInOutShift(period, [punctual()], ctx(), [depot], { shift_start_tolerance: "14", shift_finish_tolerance: 14, excessive_exit: 29 }).sections;
    expect(strict!.tables[0]!.rows).toEqual([["2026-01-05", "Depot", "2026-01-05 08:15:00", "Yes", "2026-01-05 16:45:00", "Yes", 1, "1800s"]]);
  });

  it("names every geofence the device arrived in, and takes going from one into another as no exit", () => {
    const [section] = geofenceInOutShift(period, [punctual()], ctx(), [site, depot], {}).sections;
    expect(section!.tables[0]!.rows[0]!.slice(0, 3)).toEqual(["2026-01-05", "Depot, Site", "2026-01-05 08:15:00"]);
  });

  it("runs a shift that finishes at or before it starts into the next day, on the user's clock", () => {
    // 22:00–06:00 two hours east of UTC: 20:00 UTC on the 5th to 04:00 UTC on the 6th.
    const night = deviceTrack(3, "Night 3", fixes(["2026-01-05 19:50", "in"], ["2026-01-06 03:50", "out"]));
    const [section] = geofenceInOutShift(period, [night], eastern(), [depot], { shift_start: "22:00", shift_finish: "06:00", shift_finish_tolerance: 5 }).sections;
    expect(section!.summary![0]).toEqual(["Shift", "22:00–06:00"]);
    // Left at 05:50 local, before 05:55.
    expect(section!.tables[0]!.rows).toEqual([["2026-01-05", "Depot", "2026-01-05 21:50:00", "No", "2026-01-06 05:50:00", "Yes", 0, "0s"]]);
  });

  it("shows the empty texts for a device without fixes", () => {
    const [section] = geofenceInOutShift(period, [emptyTrack()], ctx(), [depot], {}).sections;
    expect(section!.summary).toEqual([["Shift", "08:00–17:00"], ["Shift days", 0], ["Late arrivals", 0], ["Early departures", 0], ["Excessive exits", 0]]);
    expect(section!.tables.map((t) => [t.rows.length, t.empty])).toEqual([
      [0, "No shift spent in the geofences in the period."],
      [0, "No excessive exits in the period."],
    ]);
  });
});

describe("type 28's parameters", () => {
  it("reads the stored values, the defaults for absent ones, and refuses malformed ones", () => {
    expect(shiftParameters({})).toEqual({ start: "08:00", finish: "17:00", startToleranceMs: 900_000, finishToleranceMs: 900_000, excessiveExitMs: 1_800_000 });
    expect(shiftParameters({ shift_start: "06:30", shift_finish: "15:45", shift_start_tolerance: 0, shift_finish_tolerance: "5", excessive_exit: 60 })).toEqual({
      start: "06:30",
      finish: "15:45",
      startToleranceMs: 0,
      finishToleranceMs: 300_000,
      excessiveExitMs: 3_600_000,
    });
    expect(() => shiftParameters({ shift_start: "8:00" })).toThrow('shift_start must be a time of day (HH:MM), not "8:00"');
    expect(() => shiftParameters({ excessive_exit: "soon" })).toThrow('excessive_exit must be a number of minutes, not "soon"');
  });
});

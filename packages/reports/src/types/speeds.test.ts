import { describe, expect, it } from "vitest";
import { TrackBuilder } from "@fleet/trips/testing";
import { ctx, deviceTrack, emptyTrack, heading, MI, rounded, T0 } from "./fixtures.js";
import { overspeedCount } from "./overspeeds.js";
import { overspeeds, underspeeds } from "./speeds.js";

/**
 * Fixes at 0–30 s at 120 km/h (above from the start), 40–90 s at 60, 100 s at 110, 110 s at
 * 130, 120–130 s at 50, and a last one at 140 s at 105 (above at the end).
 */
const racer = () =>
  deviceTrack(1, "Racer", new TrackBuilder(T0).fix({ speedKmh: 120 }).drive(30, 120).drive(60, 60).drive(10, 110).drive(10, 130).drive(20, 50).drive(10, 105).rows);

/** Fixes at 0 s at 40 km/h, 10–20 s at 30, 30–40 s at 80, standing at 50–70 s, 80–90 s at 20, 100 s at 70. */
const crawler = () => deviceTrack(2, "Crawler", new TrackBuilder(T0).fix({ speedKmh: 40 }).drive(20, 30).drive(20, 80).stand(20).drive(20, 20).drive(10, 70).rows);

describe("overspeed (type 5)", () => {
  it("lists each run of fixes above the limit, from its first fix above to its last", () => {
    const doc = overspeeds(heading("Overspeed"), [racer()], ctx({ speedLimitKmh: 100 }));
    expect(doc.subtitle[0]).toBe("Overspeed");
    const [section] = doc.sections;
    expect(section!.heading).toBe("Racer");
    // 30 s + 10 s + 0 s: the last, a single fix, has no duration.
    expect(section!.summary).toEqual([["Speed limit (kph)", 100], ["Overspeed count", 3], ["Overspeed duration", "40s"]]);
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Start", "End", "Duration", "Top speed (kph)", "Average speed (kph)", "Position"]);
    expect(table!.rows).toEqual([
      ["2026-01-05 08:00:00", "2026-01-05 08:00:30", "30s", 120, 120, "54.000000, 25.000000"],
      // 110 then 130: the mean of the fixes' speeds.
      ["2026-01-05 08:01:40", "2026-01-05 08:01:50", "10s", 130, 120, "54.020734, 25.000000"],
      ["2026-01-05 08:02:20", "2026-01-05 08:02:20", "0s", 105, 105, "54.029103, 25.000000"],
    ]);
    expect(table!.footer).toBeUndefined();
  });

  it("counts as many overspeeds as general information does", () => {
    const t = racer();
    expect(overspeedCount(t.track, 100)).toBe(3);
    expect(overspeedCount(t.track, 125)).toBe(1);
    expect(overspeedCount(t.track, null)).toBe(0);
  });

  it("speaks the user's units: the limit, the speeds", () => {
    const [section] = overspeeds(heading("Overspeed"), [racer()], ctx({ units: MI, speedLimitKmh: 100 })).sections;
    expect(section!.summary![0]).toEqual(["Speed limit (mph)", 62.14]);
    // A limit asked in mph reads back as asked, not rounded to a whole mph.
    const asked = overspeeds(heading("Overspeed"), [racer()], ctx({ units: MI, speedLimitKmh: 62.5 * 1.609344 })).sections[0]!;
    expect(asked.summary![0]).toEqual(["Speed limit (mph)", 62.5]);
    expect(section!.tables[0]!.columns.slice(3, 5).map((c) => c.title)).toEqual(["Top speed (mph)", "Average speed (mph)"]);
    expect(section!.tables[0]!.rows.map((r) => r.slice(3, 5))).toEqual([[75, 75], [81, 75], [65, 65]]);
  });

  it("shows the empty text for a device without fixes", () => {
    const [section] = overspeeds(heading("Overspeed"), [emptyTrack()], ctx({ speedLimitKmh: 100 })).sections;
    expect(section!.summary).toEqual([["Speed limit (kph)", 100], ["Overspeed count", 0], ["Overspeed duration", "0s"]]);
    expect(section!.tables[0]!.rows).toEqual([]);
    expect(section!.tables[0]!.empty).toBe("No overspeeds in the period.");
  });

  it("refuses to run without a limit", () => {
    expect(() => overspeeds(heading("Overspeed"), [racer()], ctx())).toThrow("Overspeed reports need a speed limit");
  });
});

describe("underspeed (type 6)", () => {
  it("lists each run of moving fixes below the limit; a standing fix ends one and is never in one", () => {
    const [section] = underspeeds(heading("Underspeed"), [crawler()], ctx({ speedLimitKmh: 50 })).sections;
    expect(section!.summary).toEqual([["Speed limit (kph)", 50], ["Underspeed count", 2], ["Underspeed duration", "30s"]]);
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Start", "End", "Duration", "Lowest speed (kph)", "Average speed (kph)", "Position"]);
    expect(table!.rows.map(rounded)).toEqual([
      // Starts below the limit: 40, 30, 30.
      ["2026-01-05 08:00:00", "2026-01-05 08:00:20", "20s", 30, 33, "54.000000, 25.000000"],
      ["2026-01-05 08:01:20", "2026-01-05 08:01:30", "10s", 20, 20, "54.005995, 25.000000"],
    ]);
  });

  it("splits runs at fixes at or above the limit", () => {
    const [table] = underspeeds(heading("Underspeed"), [racer()], ctx({ speedLimitKmh: 100 })).sections[0]!.tables;
    expect(table!.rows).toEqual([
      ["2026-01-05 08:00:40", "2026-01-05 08:01:30", "50s", 60, 60, "54.010492, 25.000000"],
      ["2026-01-05 08:02:00", "2026-01-05 08:02:10", "10s", 50, 50, "54.025231, 25.000000"],
    ]);
  });

  it("shows the empty text for a device without fixes, and refuses to run without a limit", () => {
    const [section] = underspeeds(heading("Underspeed"), [emptyTrack()], ctx({ speedLimitKmh: 50 })).sections;
    expect(section!.tables[0]!.empty).toBe("No underspeeds in the period.");
    expect(() => underspeeds(heading("Underspeed"), [], ctx())).toThrow("Underspeed reports need a speed limit");
  });
});

import { describe, expect, it } from "vitest";
import { TrackBuilder } from "@fleet/trips/testing";
import { ctx, deviceTrack, emptyTrack, heading, MI, T0, withAttribute } from "./fixtures.js";
import { rag, ragRating, ragScore, ragSeatbelt } from "./rag.js";

/** Summary values to 3 decimals. */
const summaryOf = (s: { summary?: readonly (readonly [string, unknown, unknown?])[] } | undefined) => s?.summary?.map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 1000) / 1000 : v]);

/**
 * A fix a second from 08:00:00: 0 → 10 → 20 km/h (+10 km/h a second twice: one harsh
 * acceleration), 25 (+5), 34 (+9, just harsh), then an hour without fixes, 34 at 09:00:04,
 * 20 and 6 (-14 twice: one harsh braking), 0 (-6). 50 km in all, most of it in the gap.
 */
const jerky = () =>
  deviceTrack(
    1,
    "Truck 1",
    new TrackBuilder(T0, { everyS: 1 })
      .fix({ speedKmh: 0 })
      .drive(1, 10)
      .drive(1, 20)
      .drive(1, 25)
      .drive(1, 34)
      // The fixes cover 115 m (km/h · s / 3600): (10 + 20 + 25 + 34 + 20 + 6) / 3600.
      .gap(3600, 50 - 115 / 3600)
      .fix({ speedKmh: 34 })
      .drive(1, 20)
      .drive(1, 6)
      .stand(0).rows,
  );

/**
 * 36 km/h (0.1 km a fix, every 10 s) from 08:00:00 to 08:00:50, then standing to 08:01:20.
 * The seatbelt: unfastened at 08:00:00 and 08:00:10, silent at 08:00:20, fastened at 08:00:30,
 * unfastened (0) at 08:00:40, silent at 08:00:50, unfastened at 08:01:00 and standing.
 */
const careless = () => {
  const belt = [false, false, null, true, 0, null, false, false, null];
  return deviceTrack(2, "Van 2", withAttribute(new TrackBuilder(T0).fix({ speedKmh: 0 }).drive(50, 36).stand(20).rows, "seatbelt", belt));
};

describe("RAG (type 14)", () => {
  it("counts harsh accelerations, harsh brakings and overspeeds, each per 100 km, and rates them", () => {
    const doc = rag(heading("RAG"), [jerky()], ctx({ speedLimitKmh: 30 }));
    expect(doc.subtitle[0]).toBe("RAG");
    const [section] = doc.sections;
    expect(section!.heading).toBe("Truck 1");
    expect(summaryOf(section)).toEqual([
      ["Distance (km)", 50],
      ["Harsh accelerations", 2],
      ["Harsh accelerations per 100 km", 4],
      ["Harsh brakings", 1],
      ["Harsh brakings per 100 km", 2],
      // 34 km/h at 08:00:04 and at 09:00:04: one run of fixes above 30.
      ["Overspeeds", 1],
      ["Overspeeds per 100 km", 2],
      // 4 incidents in 50 km: 8 per 100 km, 80 points off.
      ["Score", 20],
      ["Rating", "Red"],
    ]);
    const [table] = section!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Time", "Incident", "Speed from (kph)", "Speed to (kph)", "Position"]);
    expect(table!.rows).toEqual([
      ["2026-01-05 08:00:00", "Harsh acceleration", 0, 20, "54.000000, 25.000000"],
      // 55 m north.
      ["2026-01-05 08:00:03", "Harsh acceleration", 25, 34, "54.000137, 25.000000"],
      // 50 km less the last 26 m north.
      ["2026-01-05 09:00:04", "Harsh braking", 34, 6, "54.449595, 25.000000"],
    ]);
  });

  it("leaves overspeeds out without a speed limit, and speaks the user's units", () => {
    const [section] = rag(heading("RAG"), [jerky()], ctx({ units: MI })).sections;
    // 50 km is 31.069 mi; 3 incidents in 50 km: 6 per 100 km.
    expect(summaryOf(section)).toEqual([
      ["Distance (mi)", 31.069],
      ["Harsh accelerations", 2],
      ["Harsh accelerations per 100 mi", 6.437],
      ["Harsh brakings", 1],
      ["Harsh brakings per 100 mi", 3.219],
      ["Score", 40],
      ["Rating", "Red"],
    ]);
    expect(section!.tables[0]!.rows.map((r) => r.slice(2, 4))).toEqual([[0, 12], [16, 21], [21, 4]]);
  });

  it("rates nothing for a device that did not drive, and says there was nothing harsh", () => {
    const [section] = rag(heading("RAG"), [emptyTrack()], ctx()).sections;
    expect(summaryOf(section)).toEqual([
      ["Distance (km)", 0],
      ["Harsh accelerations", 0],
      ["Harsh accelerations per 100 km", null],
      ["Harsh brakings", 0],
      ["Harsh brakings per 100 km", null],
      ["Score", null],
      ["Rating", "Not rated"],
    ]);
    expect(section!.tables).toHaveLength(1);
    expect(section!.tables[0]!.empty).toBe("No harsh accelerations or brakings in the period.");
  });

  it("scores 100 less 10 a incident per 100 km, green from 80 and amber from 50", () => {
    expect(ragScore(0, 100)).toBe(100);
    expect(ragScore(2, 100)).toBe(80);
    expect(ragScore(21, 1000)).toBe(79);
    expect(ragScore(5, 100)).toBe(50);
    expect(ragScore(51, 1000)).toBe(49);
    expect(ragScore(11, 100)).toBe(0);
    expect(ragScore(1, 0)).toBeNull();
    expect([100, 80, 79, 50, 49, 0].map(ragRating)).toEqual(["Green", "Green", "Amber", "Amber", "Red", "Red"]);
    expect(ragRating(null)).toBe("Not rated");
  });
});

describe("RAG / Seatbelt (type 23)", () => {
  it("adds each spell of driving unbelted as an incident, with how far and how long", () => {
    const [section] = ragSeatbelt(heading("RAG / Seatbelt"), [careless()], ctx()).sections;
    expect(summaryOf(section)).toEqual([
      ["Distance (km)", 0.5],
      ["Harsh accelerations", 0],
      ["Harsh accelerations per 100 km", 0],
      ["Harsh brakings", 0],
      ["Harsh brakings per 100 km", 0],
      ["Unbelted drives", 2],
      ["Unbelted drives per 100 km", 400],
      ["Distance unbelted (km)", 0.3],
      ["Time unbelted", "40s"],
      ["Score", 0],
      ["Rating", "Red"],
    ]);
    const [incidents, unbelted] = section!.tables;
    expect(incidents!.rows).toEqual([]);
    expect(unbelted!.columns.map((c) => c.title)).toEqual(["Start", "End", "Duration", "Distance (km)", "Position"]);
    expect(unbelted!.rows.map((r) => r.map((c) => (typeof c === "number" ? Math.round(c * 1000) / 1000 : c)))).toEqual([
      // Unfastened at 08:00:00 and 08:00:10, still at 08:00:20 (the fix saying nothing keeps it): two steps of 0.1 km.
      ["2026-01-05 08:00:00", "2026-01-05 08:00:20", "20s", 0.2, "54.000000, 25.000000"],
      // From 08:00:40 through the silent fix to the first standing one; not on while parked.
      ["2026-01-05 08:00:40", "2026-01-05 08:01:00", "20s", 0.1, "54.003597, 25.000000"],
    ]);
  });

  it("says so for a device that never reports its seatbelt, and leaves its seatbelt figures empty", () => {
    const [section] = ragSeatbelt(heading("RAG / Seatbelt"), [jerky()], ctx()).sections;
    const summary = new Map(section!.summary!.map(([k, v]) => [k, v]));
    expect([summary.get("Unbelted drives"), summary.get("Unbelted drives per 100 km"), summary.get("Distance unbelted (km)"), summary.get("Time unbelted")]).toEqual([null, null, null, null]);
    // Only the harsh driving counts: 6 per 100 km.
    expect(summary.get("Score")).toBe(40);
    expect(section!.tables[1]!.empty).toBe("The device has no seatbelt sensor.");
  });

  it("reads the seatbelt the api gives instead of the attribute", () => {
    const t = { ...careless(), readings: { seatbelt: () => true } };
    const [section] = ragSeatbelt(heading("RAG / Seatbelt"), [t], ctx()).sections;
    expect(new Map(section!.summary!.map(([k, v]) => [k, v])).get("Unbelted drives")).toBe(0);
    expect(section!.tables[1]!.empty).toBe("No driving unbelted in the period.");
  });
});

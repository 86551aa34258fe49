import { describe, expect, it } from "vitest";
import { TrackBuilder } from "@fleet/trips/testing";
import { ctx, deviceTrack, emptyTrack, heading, MI, rounded, T0 } from "./fixtures.js";
import { attributesText, objectHistory } from "./history.js";

/** Standing at 08:00:00, then two fixes 0.1 km apart at 36 km/h; climbing a metre and turning 90° a fix. */
const rows = new TrackBuilder(T0)
  .fix({ speedKmh: 0, attributes: { ignition: true, sat: 7 } })
  .drive(20, 36, { attributes: { fuel: 50.5 } })
  .rows.map((r, i) => ({ ...r, altitude: 100 + i, course: i * 90 }));

describe("object history (type 25)", () => {
  it("lists every position with the distance from the one before, and their total", () => {
    const doc = objectHistory(heading("Object history"), [deviceTrack(1, "Truck 1", rows)], ctx());
    expect(doc.subtitle[0]).toBe("Object history");
    const [table] = doc.sections[0]!.tables;
    expect(table!.columns.map((c) => c.title)).toEqual(["Time", "Position", "Speed (kph)", "Altitude (m)", "Course", "Distance (km)", "Attributes"]);
    expect(table!.rows.map(rounded)).toEqual([
      ["2026-01-05 08:00:00", "54.000000, 25.000000", 0, 100, 0, 0, "ignition: true, sat: 7"],
      ["2026-01-05 08:00:10", "54.000899, 25.000000", 36, 101, 90, 0.1, "fuel: 50.5"],
      ["2026-01-05 08:00:20", "54.001799, 25.000000", 36, 102, 180, 0.1, "fuel: 50.5"],
    ]);
    expect(rounded(table!.footer)).toEqual(["Total", null, null, null, null, 0.2, null]);
  });

  it("lists a second position of one instant too, as stored, adding no distance", () => {
    // A heartbeat stored at the instant of the second fix, parked where the device stood before.
    const twin = { ...rows[0]!, id: rows[1]!.id + 1000, fixTime: rows[1]!.fixTime, attributes: { ignition: false } };
    const stored = [rows[0]!, rows[1]!, twin, rows[2]!];
    const doc = objectHistory(heading("Object history"), [{ ...deviceTrack(1, "Truck 1", stored), rows: stored }], ctx());
    const [table] = doc.sections[0]!.tables;
    expect(table!.rows.map((r) => rounded([r[0]!, r[5]!, r[6]!]))).toEqual([
      ["2026-01-05 08:00:00", 0, "ignition: true, sat: 7"],
      ["2026-01-05 08:00:10", 0.1, "fuel: 50.5"],
      ["2026-01-05 08:00:10", 0, "ignition: false"],
      ["2026-01-05 08:00:20", 0.1, "fuel: 50.5"],
    ]);
    expect(rounded(table!.footer!.slice(5, 6))).toEqual([0.2]);
  });

  it("speaks the user's units: speed, altitude and distance", () => {
    const [table] = objectHistory(heading("Object history"), [deviceTrack(1, "Truck 1", rows)], ctx({ units: MI })).sections[0]!.tables;
    expect(table!.columns.slice(2, 6).map((c) => c.title)).toEqual(["Speed (mph)", "Altitude (ft)", "Course", "Distance (mi)"]);
    expect(rounded(table!.rows[1]!.slice(2, 6))).toEqual([22, 331.365, 90, 0.062]);
    expect(rounded(table!.footer!.slice(5, 6))).toEqual([0.124]);
  });

  it("shows the empty text for a device without positions", () => {
    const [table] = objectHistory(heading("Object history"), [emptyTrack()], ctx()).sections[0]!.tables;
    expect(table!.rows).toEqual([]);
    expect(table!.footer).toBeUndefined();
    expect(table!.empty).toBe("No positions in the period.");
  });

  it("writes attributes as key: value text, and none as nothing", () => {
    expect(attributesText({ rfid: "A1", power: 12.6, alarm: false })).toBe("rfid: A1, power: 12.6, alarm: false");
    expect(attributesText({})).toBe("");
  });
});

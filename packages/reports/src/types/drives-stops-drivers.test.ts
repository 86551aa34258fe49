import { describe, expect, it } from "vitest";
import type { HistoryRow } from "@fleet/contracts";
import { isBusinessTime } from "./business-hours.js";
import { drivesAndStopsDrivers, drivesAndStopsDriversBusiness, drivesAndStopsDriversPrivate } from "./drives-stops-drivers.js";
import { ctx, deviceTrack, eastern, emptyTrack, groups, heading, T0, truckRows, withAttribute } from "./fixtures.js";

const H = 3_600_000;
const cardAt = (row: HistoryRow) => (typeof row.attributes["rfid"] === "string" ? row.attributes["rfid"] : null);

/**
 * The fixtures' truck from Monday 08:00 UTC: a drive, a stop from 08:10:10 (fix 61) and a drive
 * from 08:20:10 (fix 121). Card A is read at the start, card B at the second drive's first fix.
 */
const truck = () => {
  const cards: (string | null)[] = [];
  cards[0] = "A";
  cards[121] = "B";
  return deviceTrack(1, "Truck 1", withAttribute(truckRows(), "rfid", cards), { driverKeyAt: cardAt });
};
/** The same drives without a card, from 18:00 UTC on Monday. */
const van = () => deviceTrack(2, "Van 2", truckRows(T0 + 10 * H), { driverKeyAt: cardAt });
/** The same on Saturday at 10:00 UTC, card A. */
const weekend = () => deviceTrack(3, "Car 3", withAttribute(truckRows(T0 + 5 * 24 * H + 2 * H), "rfid", ["A"]), { driverKeyAt: cardAt });

const names: Record<string, string> = { A: "Alice", B: "Bob" };
const named = (over = {}) => ctx({ driverName: (key) => names[key] ?? key, ...over });
/** Each section's heading and its rows' device, status and start. */
const outline = (doc: ReturnType<typeof drivesAndStopsDrivers>) => doc.sections.map((s) => [s.heading, s.tables[0]!.rows.map((r) => r.slice(0, 3).join(" "))]);

describe("drives and stops / drivers (type 19)", () => {
  it("gives each driver a section of their drives and stops in every device, by the card in effect when each began", () => {
    const doc = drivesAndStopsDrivers(heading("Drives and stops / Drivers"), [truck(), van(), weekend()].map(groups), named());
    expect(doc.subtitle[0]).toBe("Drives and stops / Drivers");
    expect(outline(doc)).toEqual([
      [
        "Alice",
        [
          "Truck 1 Drive 2026-01-05 08:00:00",
          // Card A is still in effect when the truck stops.
          "Truck 1 Stop 2026-01-05 08:10:10",
          "Car 3 Drive 2026-01-10 10:00:00",
          "Car 3 Stop 2026-01-10 10:10:10",
          "Car 3 Drive 2026-01-10 10:20:10",
        ],
      ],
      ["Bob", ["Truck 1 Drive 2026-01-05 08:20:10"]],
      // Without a card, last.
      ["No driver", ["Van 2 Drive 2026-01-05 18:00:00", "Van 2 Stop 2026-01-05 18:10:10", "Van 2 Drive 2026-01-05 18:20:10"]],
    ]);
    const [alice, bob] = doc.sections;
    expect(alice!.tables[0]!.columns.map((c) => c.title)).toEqual([
      "Device", "Status", "Start", "End", "Duration", "Distance (km)", "Top speed (kph)", "Average speed (kph)", "Engine idle", "Position",
    ]);
    expect(alice!.tables[0]!.rows[0]).toEqual(["Truck 1", "Drive", "2026-01-05 08:00:00", "2026-01-05 08:10:10", "610s", expect.closeTo(10, 9), 60, 59, "0s", "54.000000, 25.000000"]);
    // 10 km + 20 km; 610 s + 910 s of driving, 600 s + 600 s stopped.
    expect(alice!.summary!.map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 1000) / 1000 : v])).toEqual([
      ["Drives", 3], ["Stops", 2], ["Route length (km)", 30], ["Move duration", "1520s"], ["Stop duration", "1200s"],
    ]);
    expect(bob!.summary!.map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 1000) / 1000 : v])).toEqual([
      ["Drives", 1], ["Stops", 0], ["Route length (km)", 10], ["Move duration", "300s"], ["Stop duration", "0s"],
    ]);
  });

  it("names a driver by their card when the api gives no name", () => {
    expect(drivesAndStopsDrivers(heading("x"), [truck()].map(groups), ctx()).sections.map((s) => s.heading)).toEqual(["A", "B"]);
  });

  it("shows one empty section when nobody drove", () => {
    const [section, ...more] = drivesAndStopsDrivers(heading("x"), [emptyTrack()].map(groups), ctx()).sections;
    expect(more).toEqual([]);
    expect(section!.heading).toBe("All drivers");
    expect(section!.tables[0]!.rows).toEqual([]);
    expect(section!.tables[0]!.empty).toBe("No drives or stops in the period.");
  });
});

describe("drives and stops / drivers, business and private (types 21, 22)", () => {
  it("keeps to business what began Monday to Friday from 08:00 until 18:00, and the rest to private", () => {
    expect(outline(drivesAndStopsDriversBusiness(heading("x"), [truck(), van(), weekend()].map(groups), named()))).toEqual([
      // Begun at 08:00:00 exactly: business.
      ["Alice", ["Truck 1 Drive 2026-01-05 08:00:00", "Truck 1 Stop 2026-01-05 08:10:10"]],
      ["Bob", ["Truck 1 Drive 2026-01-05 08:20:10"]],
    ]);
    expect(outline(drivesAndStopsDriversPrivate(heading("x"), [truck(), van(), weekend()].map(groups), named()))).toEqual([
      // Saturday.
      ["Alice", ["Car 3 Drive 2026-01-10 10:00:00", "Car 3 Stop 2026-01-10 10:10:10", "Car 3 Drive 2026-01-10 10:20:10"]],
      // Begun at 18:00:00 exactly: private.
      ["No driver", ["Van 2 Drive 2026-01-05 18:00:00", "Van 2 Stop 2026-01-05 18:10:10", "Van 2 Drive 2026-01-05 18:20:10"]],
    ]);
  });

  it("says so when there is nothing of the kind", () => {
    const [business] = drivesAndStopsDriversBusiness(heading("x"), [van()].map(groups), ctx()).sections;
    expect(business!.tables[0]!.empty).toBe("No business drives or stops in the period.");
    const [personal] = drivesAndStopsDriversPrivate(heading("x"), [truck()].map(groups), ctx()).sections;
    expect(personal!.tables[0]!.empty).toBe("No private drives or stops in the period.");
  });

  it("reads working hours on the user's clock", () => {
    // Two hours east, Monday 06:30 UTC is 08:30, Monday 16:30 UTC is 18:30 and Friday 17:30 UTC is 19:30.
    expect([isBusinessTime(ctx(), T0 - 1.5 * H), isBusinessTime(eastern(), T0 - 1.5 * H)]).toEqual([false, true]);
    expect([isBusinessTime(ctx(), T0 + 8.5 * H), isBusinessTime(eastern(), T0 + 8.5 * H)]).toEqual([true, false]);
    expect([isBusinessTime(ctx(), T0 + 4 * 24 * H + 9.5 * H), isBusinessTime(eastern(), T0 + 4 * 24 * H + 9.5 * H)]).toEqual([true, false]);
  });
});

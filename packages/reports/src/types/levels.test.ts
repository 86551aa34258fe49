import { describe, expect, it } from "vitest";
import { TrackBuilder } from "@fleet/trips/testing";
import { ctx, deviceTrack, emptyTrack, heading, numberAttribute, T0 } from "./fixtures.js";
import { fuelLevel, temperature } from "./levels.js";

/** A fix every 10 s from 08:00:00 heading north at 60 km/h (1/6 km a fix), each with the given attributes. */
const fixes = (attributes: Record<string, number>[]) =>
  new TrackBuilder(T0)
    .fix()
    .drive((attributes.length - 1) * 10)
    .rows.map((r, i) => ({ ...r, attributes: attributes[i]! }));

// The fix at 08:00:40 reads nothing; 50 and 49.5 repeat.
const tank = () => deviceTrack(1, "Truck 1", fixes([{ fuel: 50 }, { fuel: 50 }, { fuel: 49.5 }, { fuel: 49.5 }, {}, { fuel: 80 }, { fuel: 80 }]), { fuel: true });
const fridge = () =>
  deviceTrack(3, "Fridge 3", fixes([{ temp1: 20 }, { temp1: 21 }, { temp1: 21 }, { temp1: 23 }]), { readings: { temperature: numberAttribute("temp1"), temperatureUnit: "°C" } });

describe("fuel level (type 10)", () => {
  it("lists the level where it changed, with the first and last reading, and sums it up", () => {
    const doc = fuelLevel(heading("Fuel level"), [tank()], ctx());
    expect(doc.subtitle[0]).toBe("Fuel level");
    const [section] = doc.sections;
    expect(section!.heading).toBe("Truck 1");
    expect(section!.summary).toEqual([
      ["Start level (l)", 50, 2],
      ["End level (l)", 80, 2],
      ["Minimum level (l)", 49.5, 2],
      ["Maximum level (l)", 80, 2],
    ]);
    const [table] = section!.tables;
    expect(table!.columns).toEqual([{ title: "Time" }, { title: "Fuel level (l)", decimals: 2 }, { title: "Position" }]);
    expect(table!.rows).toEqual([
      ["2026-01-05 08:00:00", 50, "54.000000, 25.000000"],
      ["2026-01-05 08:00:20", 49.5, "54.002998, 25.000000"],
      // After the fix without a reading.
      ["2026-01-05 08:00:50", 80, "54.007494, 25.000000"],
      // The last reading, though unchanged: the level at the end of the period.
      ["2026-01-05 08:01:00", 80, "54.008993, 25.000000"],
    ]);
    expect(table!.footer).toBeUndefined();
  });

  it("says so for a device without a fuel sensor, and for a sensor without readings", () => {
    const [none, quiet] = fuelLevel(heading("Fuel level"), [emptyTrack(), deviceTrack(4, "Van 4", [], { fuel: true })], ctx()).sections;
    expect(none!.summary).toEqual([]);
    expect(none!.tables[0]!.rows).toEqual([]);
    expect(none!.tables[0]!.empty).toBe("The device has no fuel sensor.");
    expect(quiet!.summary).toEqual([["Start level (l)", null, 2], ["End level (l)", null, 2], ["Minimum level (l)", null, 2], ["Maximum level (l)", null, 2]]);
    expect(quiet!.tables[0]!.empty).toBe("No fuel readings in the period.");
  });
});

describe("temperature (type 13)", () => {
  it("lists the readings where they changed, and their lowest, highest and mean", () => {
    const [section] = temperature(heading("Temperature"), [fridge()], ctx()).sections;
    // (20 + 21 + 21 + 23) / 4: each reading once.
    expect(section!.summary).toEqual([["Minimum temperature (°C)", 20, 1], ["Maximum temperature (°C)", 23, 1], ["Average temperature (°C)", 21.25, 1]]);
    const [table] = section!.tables;
    expect(table!.columns[1]).toEqual({ title: "Temperature (°C)", decimals: 1 });
    expect(table!.rows).toEqual([
      ["2026-01-05 08:00:00", 20, "54.000000, 25.000000"],
      ["2026-01-05 08:00:10", 21, "54.001499, 25.000000"],
      ["2026-01-05 08:00:30", 23, "54.004497, 25.000000"],
    ]);
  });

  it("says so for a device without a temperature sensor or readings, and leaves out a unit it was not given", () => {
    const [none, quiet] = temperature(heading("Temperature"), [emptyTrack(), deviceTrack(5, "Van 5", [], { readings: { temperature: numberAttribute("temp1") } })], ctx()).sections;
    expect(none!.tables[0]!.empty).toBe("The device has no temperature sensor.");
    expect(none!.summary).toEqual([]);
    expect(quiet!.tables[0]!.empty).toBe("No temperature readings in the period.");
    expect(quiet!.tables[0]!.columns[1]!.title).toBe("Temperature");
    expect(quiet!.summary).toEqual([["Minimum temperature", null, 1], ["Maximum temperature", null, 1], ["Average temperature", null, 1]]);
  });
});

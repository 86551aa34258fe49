import { describe, expect, it } from "vitest";
import { instantOn, localDate, localDates, localMinutes, midnightsWithin, minutesOf, nextDate, weekdayOf } from "./calendar.js";
import { ctx, eastern, T0 } from "./fixtures.js";

const H = 3_600_000;

describe("the user's calendar", () => {
  it("reads dates and times of day from the user's clock", () => {
    // T0 is 2026-01-05 08:00 UTC, a Monday; 22:30 UTC is already the next day two hours east.
    expect(localDate(ctx(), T0)).toBe("2026-01-05");
    expect(localDate(eastern(), T0 + 14.5 * H)).toBe("2026-01-06");
    expect(localMinutes(ctx(), T0 + 90_000 + 59_000)).toBe(482);
    expect(localMinutes(eastern(), T0)).toBe(600);
  });

  it("does calendar arithmetic across months and years", () => {
    expect(nextDate("2026-01-31")).toBe("2026-02-01");
    expect(nextDate("2028-02-28")).toBe("2028-02-29");
    expect(nextDate("2026-12-31")).toBe("2027-01-01");
    expect(weekdayOf("2026-01-05")).toBe(1);
    expect(weekdayOf("2026-01-11")).toBe(0);
  });

  it("reads HH:MM times of day, and nothing else", () => {
    expect(minutesOf("00:00")).toBe(0);
    expect(minutesOf("17:45")).toBe(1065);
    expect(minutesOf("24:00")).toBeUndefined();
    expect(minutesOf("8:00")).toBeUndefined();
    expect(minutesOf("08:00:00")).toBeUndefined();
  });

  it("finds instants, dates and midnights on the user's clock", () => {
    expect(instantOn(eastern(), "2026-01-05", "10:00")).toBe(T0);
    expect(localDates(eastern(), T0, T0 + 38 * H)).toEqual(["2026-01-05", "2026-01-06", "2026-01-07"]);
    // Local midnights are 22:00 UTC; one exactly at either end is not within.
    expect(midnightsWithin(eastern(), T0, T0 + 38 * H)).toEqual([T0 + 14 * H]);
    expect(midnightsWithin(eastern(), T0, T0 + 38 * H + 1)).toEqual([T0 + 14 * H, T0 + 38 * H]);
    expect(midnightsWithin(ctx(), T0, T0 + H)).toEqual([]);
  });

  it("needs the user's clock to find instants", () => {
    expect(() => instantOn(ctx({ localInstant: undefined }), "2026-01-05", "08:00")).toThrow("needs the user's clock");
    expect(() => instantOn(ctx(), "2026-02-30", "08:00")).toThrow("names no time");
  });
});

import { describe, expect, it } from "vitest";
import type { UserDst } from "../api/setup.js";
import { timezones } from "../api/timezones.js";
import { userClock } from "./clock.js";
import { nthWeekday, zoneOffsetMinutes } from "./dst.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const utc = (iso: string) => Date.parse(`${iso}Z`);
/** The catalogue's id of a fixed offset, "+01:00" → 61. */
const tz = (offset: string) => timezones.find((t) => t.value === `UTC ${offset}`)!.id;
const automatic = (country: number): UserDst => ({ type: "automatic", dst_country_id: country });

/** Every hour of 2024–2026 and the minutes around each of the zone's switches: the clock must agree with the zone. */
function expectSameAsZone(clock: ReturnType<typeof userClock>, zone: string) {
  const differ: string[] = [];
  for (let t = utc("2024-01-01T00:00:00"); t < utc("2027-01-01T00:00:00"); t += HOUR) {
    for (const at of zoneOffsetMinutes(zone, t) === zoneOffsetMinutes(zone, t + HOUR) ? [t] : [t, t + HOUR - 60_000, t + HOUR - 1]) {
      if (clock.offsetAt(at) !== zoneOffsetMinutes(zone, at)) differ.push(`${new Date(at).toISOString()}: ${clock.offsetAt(at)} vs ${zoneOffsetMinutes(zone, at)}`);
    }
  }
  expect(differ.slice(0, 5)).toEqual([]);
}

describe("userClock", () => {
  it("without a DST rule keeps the timezone's fixed offset all year, 0 being UTC", () => {
    const plusTwo = userClock({ timezoneId: tz("+02:00"), dst: null });
    expect(plusTwo.offsetAt(utc("2025-01-15T12:00:00"))).toBe(120);
    expect(plusTwo.offsetAt(utc("2025-07-15T12:00:00"))).toBe(120);
    expect(plusTwo.format(utc("2025-07-15T22:30:05"))).toBe("2025-07-16 00:30:05");
    expect(plusTwo.toInstant("2025-07-16", "00:30:05")).toBe(utc("2025-07-15T22:30:05"));
    expect(userClock({ timezoneId: 0 }).format(utc("2025-07-15T22:30:05.999"))).toBe("2025-07-15 22:30:05");
    expect(userClock({ timezoneId: tz("-05:45") }).format(utc("2025-01-01T05:44:00"))).toBe("2024-12-31 23:59:00");
  });

  it("refuses dates and times that name nothing", () => {
    const clock = userClock({ timezoneId: 0 });
    expect(clock.toInstant("2025-02-29", "00:00")).toBeUndefined();
    expect(clock.toInstant("2025-04-31", "00:00")).toBeUndefined();
    expect(clock.toInstant("2025-04-30", "24:00")).toBeUndefined();
    expect(clock.toInstant("2025-04-30", "12:60")).toBeUndefined();
    expect(clock.toInstant("1969-12-31", "23:59")).toBeUndefined();
    expect(clock.toInstant("2025-4-30", "12:00")).toBeUndefined();
    expect(clock.toInstant("2024-02-29", "12:00")).toBe(utc("2024-02-29T12:00:00"));
  });

  describe("automatic, European Union (switches at 01:00 UTC)", () => {
    const berlin = userClock({ timezoneId: tz("+01:00"), dst: automatic(3) });

    it("goes to summer time on the last Sunday of March and back on the last Sunday of October", () => {
      expect(berlin.offsetAt(utc("2025-03-30T00:59:59.999"))).toBe(60);
      expect(berlin.offsetAt(utc("2025-03-30T01:00:00"))).toBe(120);
      expect(berlin.offsetAt(utc("2025-10-26T00:59:59.999"))).toBe(120);
      expect(berlin.offsetAt(utc("2025-10-26T01:00:00"))).toBe(60);
      expect(berlin.format(utc("2025-03-30T00:59:59"))).toBe("2025-03-30 01:59:59");
      expect(berlin.format(utc("2025-03-30T01:00:00"))).toBe("2025-03-30 03:00:00");
      expect(berlin.format(utc("2025-10-26T00:59:59"))).toBe("2025-10-26 02:59:59");
      expect(berlin.format(utc("2025-10-26T01:00:00"))).toBe("2025-10-26 02:00:00");
    });

    it("makes the local days of the switches 23 and 25 hours long", () => {
      const day = (date: string, next: string) => berlin.toInstant(next, "00:00")! - berlin.toInstant(date, "00:00")!;
      expect(day("2025-03-30", "2025-03-31")).toBe(23 * HOUR);
      expect(day("2025-10-26", "2025-10-27")).toBe(25 * HOUR);
      expect(day("2025-06-15", "2025-06-16")).toBe(DAY);
      expect(berlin.toInstant("2025-03-30", "00:00")).toBe(utc("2025-03-29T23:00:00"));
      expect(berlin.toInstant("2025-10-27", "00:00")).toBe(utc("2025-10-26T23:00:00"));
    });

    it("reads a skipped time forward and a repeated one as its first occurrence", () => {
      expect(berlin.toInstant("2025-03-30", "02:30")).toBe(utc("2025-03-30T01:30:00"));
      expect(berlin.format(berlin.toInstant("2025-03-30", "02:30")!)).toBe("2025-03-30 03:30:00");
      expect(berlin.toInstant("2025-10-26", "02:30")).toBe(utc("2025-10-26T00:30:00"));
      expect(berlin.toInstant("2025-10-26", "03:00")).toBe(utc("2025-10-26T02:00:00"));
    });

    it("switches every EU timezone at the same instant, and agrees with the tz database", () => {
      const helsinki = userClock({ timezoneId: tz("+02:00"), dst: automatic(3) });
      expect(helsinki.format(utc("2025-03-30T00:59:59"))).toBe("2025-03-30 02:59:59");
      expect(helsinki.format(utc("2025-03-30T01:00:00"))).toBe("2025-03-30 04:00:00");
      expectSameAsZone(berlin, "Europe/Berlin");
      expectSameAsZone(helsinki, "Europe/Helsinki");
      expectSameAsZone(userClock({ timezoneId: tz("+00:00"), dst: automatic(8) }), "Europe/London");
    });
  });

  describe("automatic, United States (switches at 02:00 on the account's clock)", () => {
    const chicago = userClock({ timezoneId: tz("-06:00"), dst: automatic(9) });

    it("goes ahead on the second Sunday of March at 02:00 and back on the first Sunday of November at 02:00", () => {
      expect(chicago.offsetAt(utc("2025-03-09T07:59:59"))).toBe(-360);
      expect(chicago.offsetAt(utc("2025-03-09T08:00:00"))).toBe(-300);
      expect(chicago.format(utc("2025-03-09T08:00:00"))).toBe("2025-03-09 03:00:00");
      expect(chicago.offsetAt(utc("2025-11-02T06:59:59"))).toBe(-300);
      expect(chicago.offsetAt(utc("2025-11-02T07:00:00"))).toBe(-360);
      expect(chicago.format(utc("2025-11-02T07:00:00"))).toBe("2025-11-02 01:00:00");
    });

    it("makes the local days of the switches 23 and 25 hours long", () => {
      expect(chicago.toInstant("2025-03-10", "00:00")! - chicago.toInstant("2025-03-09", "00:00")!).toBe(23 * HOUR);
      expect(chicago.toInstant("2025-11-03", "00:00")! - chicago.toInstant("2025-11-02", "00:00")!).toBe(25 * HOUR);
    });

    it("agrees with the tz database in every US and Canadian zone it stands for", () => {
      expectSameAsZone(chicago, "America/Chicago");
      expectSameAsZone(userClock({ timezoneId: tz("-08:00"), dst: automatic(9) }), "America/Los_Angeles");
      expectSameAsZone(userClock({ timezoneId: tz("-05:00"), dst: automatic(2) }), "America/Toronto");
    });
  });

  it("follows the southern hemisphere's rules across New Year", () => {
    const melbourne = userClock({ timezoneId: tz("+10:00"), dst: automatic(1) });
    expect(melbourne.offsetAt(utc("2025-01-01T00:00:00"))).toBe(660);
    expect(melbourne.offsetAt(utc("2025-07-01T00:00:00"))).toBe(600);
    expectSameAsZone(melbourne, "Australia/Melbourne");
    expectSameAsZone(userClock({ timezoneId: tz("+12:00"), dst: automatic(5) }), "Pacific/Auckland");
  });

  describe("exact: one period from a date to a date", () => {
    const rule: UserDst = { type: "exact", date_from: "2025-04-01 00:00", date_to: "2025-09-01 00:00:00" };
    const clock = userClock({ timezoneId: tz("+02:00"), dst: rule });

    it("starts on the standard clock and ends on the summer clock", () => {
      expect(clock.offsetAt(utc("2025-03-31T21:59:59"))).toBe(120);
      expect(clock.offsetAt(utc("2025-03-31T22:00:00"))).toBe(180);
      expect(clock.offsetAt(utc("2025-08-31T20:59:59"))).toBe(180);
      expect(clock.offsetAt(utc("2025-08-31T21:00:00"))).toBe(120);
      expect(clock.format(utc("2025-08-31T21:00:00"))).toBe("2025-08-31 23:00:00");
    });

    it("holds only in its own year", () => {
      expect(clock.offsetAt(utc("2024-06-01T00:00:00"))).toBe(120);
      expect(clock.offsetAt(utc("2026-06-01T00:00:00"))).toBe(120);
    });

    it("takes instants with an offset as they are", () => {
      const rfc = userClock({ timezoneId: tz("+02:00"), dst: { type: "exact", date_from: "2025-04-01T00:00:00Z", date_to: "2025-09-01T00:00:00+03:00" } });
      expect(rfc.offsetAt(utc("2025-03-31T23:59:59"))).toBe(120);
      expect(rfc.offsetAt(utc("2025-04-01T00:00:00"))).toBe(180);
      expect(rfc.offsetAt(utc("2025-08-31T21:00:00"))).toBe(120);
    });
  });

  describe("other: a yearly rule by month, first or last weekday and time", () => {
    it("reads like the EU's rule when written as the EU's rule", () => {
      const rule: UserDst = { type: "other", month_from: 3, week_pos_from: 2, week_day_from: 7, time_from: "02:00", month_to: 10, week_pos_to: 2, week_day_to: 7, time_to: "03:00" };
      expectSameAsZone(userClock({ timezoneId: tz("+01:00"), dst: rule }), "Europe/Paris");
    });

    it("spans New Year when it starts after it ends (southern hemisphere)", () => {
      const rule: UserDst = { type: "other", month_from: 10, week_pos_from: 1, week_day_from: 7, time_from: "02:00", month_to: 4, week_pos_to: 1, week_day_to: 7, time_to: "03:00:00" };
      expectSameAsZone(userClock({ timezoneId: tz("+10:00"), dst: rule }), "Australia/Sydney");
    });

    it("finds first and last weekdays of a month", () => {
      expect(nthWeekday(2025, 3, 2, 7)).toBe(30); // last Sunday of March 2025
      expect(nthWeekday(2025, 10, 2, 7)).toBe(26);
      expect(nthWeekday(2025, 11, 1, 7)).toBe(2); // first Sunday of November 2025
      expect(nthWeekday(2025, 9, 1, 1)).toBe(1); // a month starting on its weekday
      expect(nthWeekday(2025, 8, 2, 7)).toBe(31); // a month ending on it
    });

    it("puts nothing ahead when the rule is incomplete", () => {
      const clock = userClock({ timezoneId: tz("+01:00"), dst: { type: "other", month_from: 3 } });
      expect(clock.offsetAt(utc("2025-07-01T00:00:00"))).toBe(60);
    });
  });
});

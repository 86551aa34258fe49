import { describe, expect, it } from "vitest";
import { userClock } from "@fleet/contracts";
import { duePeriods, type Schedule } from "./report-periods.js";

const utc = userClock({ timezoneId: 57 });
/** UTC+2 (the vendor's id 65), no summer time. */
const east = userClock({ timezoneId: 65 });
const iso = (ms: number) => new Date(ms).toISOString();
const shown = (p: ReturnType<typeof duePeriods>) => p.map((x) => [x.kind, iso(x.fromMs), iso(x.toMs)]);
const LONG_AGO = new Date("2026-01-01T00:00:00Z");
/** Sent last long ago: every period of the lookback is due. */
const schedule = (over: Partial<Schedule>): Schedule => ({ daily: false, weekly: false, createdAt: LONG_AGO, dailyEmailSent: LONG_AGO, weeklyEmailSent: LONG_AGO, ...over });

describe("scheduled report periods", () => {
  it("offers the last three ended local days of a daily report, oldest first", () => {
    // Thursday 2026-03-12, 00:30 UTC.
    expect(shown(duePeriods(schedule({ daily: true }), utc, Date.parse("2026-03-12T00:30:00Z")))).toEqual([
      ["daily", "2026-03-09T00:00:00.000Z", "2026-03-10T00:00:00.000Z"],
      ["daily", "2026-03-10T00:00:00.000Z", "2026-03-11T00:00:00.000Z"],
      ["daily", "2026-03-11T00:00:00.000Z", "2026-03-12T00:00:00.000Z"],
    ]);
  });

  it("reads the days on the owner's clock: at 23:30 UTC it is already tomorrow at UTC+2", () => {
    const at = Date.parse("2026-03-11T23:30:00Z"); // 01:30 on the 12th at UTC+2
    expect(shown(duePeriods(schedule({ daily: true }), east, at)).at(-1)).toEqual(["daily", "2026-03-10T22:00:00.000Z", "2026-03-11T22:00:00.000Z"]);
    expect(shown(duePeriods(schedule({ daily: true }), utc, at)).at(-1)).toEqual(["daily", "2026-03-10T00:00:00.000Z", "2026-03-11T00:00:00.000Z"]);
  });

  it("offers the last two ended weeks, Monday to Monday, of a weekly report", () => {
    // Wednesday 2026-03-11: the last ended week is Monday 2 March to Monday 9 March.
    expect(shown(duePeriods(schedule({ weekly: true }), utc, Date.parse("2026-03-11T12:00:00Z")))).toEqual([
      ["weekly", "2026-02-23T00:00:00.000Z", "2026-03-02T00:00:00.000Z"],
      ["weekly", "2026-03-02T00:00:00.000Z", "2026-03-09T00:00:00.000Z"],
    ]);
    // On a Monday the week that just ended is due.
    expect(shown(duePeriods(schedule({ weekly: true }), utc, Date.parse("2026-03-09T00:05:00Z"))).at(-1)).toEqual(["weekly", "2026-03-02T00:00:00.000Z", "2026-03-09T00:00:00.000Z"]);
    // An account whose week starts on Sunday (7) gets Sunday to Sunday; on Wednesday 11 March, the week that ended on the 8th.
    expect(shown(duePeriods(schedule({ weekly: true }), utc, Date.parse("2026-03-11T12:00:00Z"), 7)).at(-1)).toEqual(["weekly", "2026-03-01T00:00:00.000Z", "2026-03-08T00:00:00.000Z"]);
    // Saturday (6) on Saturday 7 March itself: the week that ended that midnight.
    expect(shown(duePeriods(schedule({ weekly: true }), utc, Date.parse("2026-03-07T00:05:00Z"), 6)).at(-1)).toEqual(["weekly", "2026-02-28T00:00:00.000Z", "2026-03-07T00:00:00.000Z"]);
  });

  it("offers no period that ended before the schedule was made, and nothing when neither is set", () => {
    const at = Date.parse("2026-03-12T00:30:00Z");
    expect(shown(duePeriods(schedule({ daily: true, weekly: true, createdAt: new Date("2026-03-11T15:00:00Z") }), utc, at))).toEqual([["daily", "2026-03-11T00:00:00.000Z", "2026-03-12T00:00:00.000Z"]]);
    expect(duePeriods(schedule({}), utc, at)).toEqual([]);
  });

  it("offers only what ended since the last one sent, and a report never sent only its latest period", () => {
    const at = Date.parse("2026-03-12T00:30:00Z");
    expect(shown(duePeriods(schedule({ daily: true, dailyEmailSent: new Date("2026-03-11T00:01:00Z") }), utc, at))).toEqual([["daily", "2026-03-11T00:00:00.000Z", "2026-03-12T00:00:00.000Z"]]);
    expect(duePeriods(schedule({ daily: true, dailyEmailSent: new Date("2026-03-12T00:01:00Z") }), utc, at)).toEqual([]);
    expect(shown(duePeriods(schedule({ daily: true, weekly: true, dailyEmailSent: null, weeklyEmailSent: null }), utc, at))).toEqual([
      ["daily", "2026-03-11T00:00:00.000Z", "2026-03-12T00:00:00.000Z"],
      ["weekly", "2026-03-02T00:00:00.000Z", "2026-03-09T00:00:00.000Z"],
    ]);
  });
});

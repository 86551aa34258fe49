import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../errors.js";
import { timezones } from "../api/timezones.js";
import { userClock } from "./clock.js";
import { parseRange } from "./range.js";

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(`${iso}Z`);
const berlin = userClock({ timezoneId: timezones.find((t) => t.value === "UTC +01:00")!.id, dst: { type: "automatic", dst_country_id: 3 } });
const range = (from_date: string, from_time: string, to_date: string, to_time: string) => ({ from_date, from_time, to_date, to_time });

/** The 422's errors, or a failure when parseRange accepted the range. */
function refusal(q: ReturnType<typeof range>): Record<string, string> {
  try {
    parseRange(berlin, q);
  } catch (err) {
    if (err instanceof InvalidInputError) return { ...err.errors };
    throw err;
  }
  return expect.fail("the range was accepted");
}

describe("parseRange", () => {
  it("reads the period on the account's clock, the last second included whole", () => {
    expect(parseRange(berlin, range("2025-01-10", "08:00", "2025-01-10", "17:30:15"))).toEqual({ fromMs: utc("2025-01-10T07:00:00"), toMs: utc("2025-01-10T16:30:15.999") });
  });

  it("gives a local day across a DST switch its 23 or 25 hours", () => {
    const spring = parseRange(berlin, range("2025-03-30", "00:00:00", "2025-03-30", "23:59:59"));
    expect(spring.toMs + 1 - spring.fromMs).toBe(23 * HOUR);
    const autumn = parseRange(berlin, range("2025-10-26", "00:00", "2025-10-26", "23:59:59"));
    expect(autumn.toMs + 1 - autumn.fromMs).toBe(25 * HOUR);
  });

  it("names the date or time that names nothing", () => {
    expect(refusal(range("2025-02-30", "00:00", "2025-03-01", "00:00"))).toEqual({ from_date: "The from date is not a valid date." });
    expect(refusal(range("2025-02-01", "24:00", "2025-02-02", "99:00"))).toEqual({ from_time: "The from time is not a valid time.", to_time: "The to time is not a valid time." });
    expect(refusal(range("2025-02-01", "00:00", "2025-13-01", "00:00"))).toEqual({ to_date: "The to date is not a valid date." });
  });

  it("refuses a to before the from, naming the time on one day and the date otherwise", () => {
    expect(refusal(range("2025-02-01", "10:00", "2025-02-01", "09:59:59"))).toEqual({ to_time: "The to time must be at or after the from time." });
    expect(refusal(range("2025-02-02", "00:00", "2025-02-01", "23:00"))).toEqual({ to_date: "The to date must be at or after the from date." });
    expect(parseRange(berlin, range("2025-02-01", "10:00", "2025-02-01", "10:00"))).toEqual({ fromMs: utc("2025-02-01T09:00:00"), toMs: utc("2025-02-01T09:00:00.999") });
  });

  it("takes 31 days and refuses a second more, on the clock's face across a switch", () => {
    expect(() => parseRange(berlin, range("2025-03-01", "00:00", "2025-04-01", "00:00"))).not.toThrow();
    expect(refusal(range("2025-03-01", "00:00", "2025-04-01", "00:00:01"))).toEqual({ to_date: "The period may not be longer than 31 days." });
  });
});

import { describe, expect, it } from "vitest";
import { userClock } from "@fleet/contracts";
import { localTimes } from "./local-times.js";

describe("localTimes", () => {
  it("writes what the clock's format writes, minute by minute across both EU switches and a new year", () => {
    const clocks = [userClock({ timezoneId: 61, dst: { type: "automatic", dst_country_id: 3 } }), userClock({ timezoneId: 1, dst: null }), userClock({ timezoneId: 113, dst: null })];
    const spans = [Date.UTC(2026, 2, 29, 0, 0, 7), Date.UTC(2026, 9, 25, 0, 0, 59), Date.UTC(2025, 11, 31, 22, 0, 0)];
    for (const clock of clocks) {
      const format = localTimes(clock);
      for (const start of spans) {
        for (let ms = start; ms < start + 3 * 3_600_000; ms += 59_999) expect(format(ms)).toBe(clock.format(ms));
      }
    }
  });
});

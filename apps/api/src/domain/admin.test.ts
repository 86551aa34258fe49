import { userClock } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { parseExpiration } from "./admin.js";

describe("parseExpiration", () => {
  // Timezone 41 is UTC-04:00, with no daylight saving.
  const behind = userClock({ timezoneId: 41 });

  it("reads a typed date or date-time on the administrator's clock, so it reads back as typed", () => {
    expect(parseExpiration("2027-05-01", behind)?.toISOString()).toBe("2027-05-01T04:00:00.000Z");
    expect(behind.format(parseExpiration("2027-05-01 00:00:00", behind)!.getTime())).toBe("2027-05-01 00:00:00");
    expect(parseExpiration("2027-05-01 18:30", behind)?.toISOString()).toBe("2027-05-01T22:30:00.000Z");
    expect(parseExpiration("2027-05-01", userClock({ timezoneId: 0 }))?.toISOString()).toBe("2027-05-01T00:00:00.000Z");
  });

  it("takes an ISO date-time with its own offset as given, and refuses dates that are not", () => {
    expect(parseExpiration("2027-05-01T00:00:00Z", behind)?.toISOString()).toBe("2027-05-01T00:00:00.000Z");
    expect(parseExpiration("2099-02-30", behind)).toBeUndefined();
    expect(parseExpiration("2099-13-01 10:00", behind)).toBeUndefined();
  });
});

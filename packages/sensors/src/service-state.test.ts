import { describe, expect, it } from "vitest";
import { userClock } from "@fleet/contracts";
import { dueReminder, formatServiceAmount, isCalendarDate, kmToUnit, reminderSent, serviceLeftText, serviceState, todayIn, unitToKm, type ServiceNow, type ServiceTerms } from "./service-state.js";

const NOW: ServiceNow = { odometerKm: 15_000, engineHours: 250, today: "2025-03-10" };

function terms(overrides: Partial<ServiceTerms>): ServiceTerms {
  return { expirationBy: "odometer", interval: 10_000, lastService: "0", triggerEventLeft: 0, renewAfterExpiration: false, ...overrides };
}

describe("serviceState: odometer", () => {
  it("expires at last service + interval and reminds trigger_event_left before", () => {
    const s = serviceState(terms({ interval: 10_000, lastService: "6000", triggerEventLeft: 500 }), NOW, "km");
    expect(s).toMatchObject({ expires: "16000", remind: "15500", expiresDate: null, remindDate: null, expired: false, expiring: false, left: 1000, unit: "km" });
    expect(serviceLeftText(s)).toBe("1000 km left");
  });

  it("is expiring from the remind threshold on, inclusive", () => {
    const at = serviceState(terms({ interval: 10_000, lastService: "5500", triggerEventLeft: 500 }), NOW, "km");
    expect(at).toMatchObject({ remind: "15000", expiring: true, expired: false, left: 500 });
    const before = serviceState(terms({ interval: 10_000, lastService: "5500", triggerEventLeft: 499 }), NOW, "km");
    expect(before.expiring).toBe(false);
  });

  it("is expired once the odometer reaches expires, with nothing left", () => {
    const at = serviceState(terms({ interval: 10_000, lastService: "5000" }), NOW, "km");
    expect(at).toMatchObject({ expires: "15000", expired: true, expiring: true, left: 0 });
    expect(serviceLeftText(at)).toBe("Expired");
    const past = serviceState(terms({ interval: 4000, lastService: "1000" }), NOW, "km");
    expect(past).toMatchObject({ expires: "5000", expired: true, left: 0 });
  });

  it("with trigger 0, is expiring only when expired", () => {
    const s = serviceState(terms({ interval: 10_000, lastService: "5001" }), NOW, "km");
    expect(s).toMatchObject({ remind: "15001", expiring: false, expired: false, left: 1 });
    expect(serviceLeftText(s)).toBe("1 km left");
  });

  it("shows amounts in miles for a user who counts in miles, stored km unchanged", () => {
    // Stored in km: 8046.72 km = 5000 mi interval, 1126.5408 km = 700 mi trigger.
    const s = serviceState(terms({ interval: unitToKm(5000, "mi"), lastService: String(unitToKm(5000, "mi")), triggerEventLeft: unitToKm(700, "mi") }), NOW, "mi");
    expect(s).toMatchObject({ lastService: "5000", interval: "5000", triggerEventLeft: "700", expires: "10000", remind: "9300", unit: "mi", expired: false, expiring: true });
    // 15000 km = 9320.57 mi driven, 679.43 mi to go.
    expect(s.left).toBeCloseTo(10_000 - 15_000 / 1.609344, 6);
    expect(serviceLeftText(s)).toBe("680 mi left");
  });

  it("rounds a part of a unit left up, so a service that is not expired never shows 0 left", () => {
    const s = serviceState(terms({ interval: 10_000, lastService: "5000.4" }), NOW, "km");
    expect(s.expired).toBe(false);
    expect(serviceLeftText(s)).toBe("1 km left");
  });
});

describe("serviceState: engine hours", () => {
  it("counts in hours, unaffected by the distance unit", () => {
    const s = serviceState(terms({ expirationBy: "engine_hours", interval: 100, lastService: "200", triggerEventLeft: 60 }), NOW, "mi");
    expect(s).toMatchObject({ expires: "300", remind: "240", expired: false, expiring: true, left: 50, unit: "h" });
    expect(serviceLeftText(s)).toBe("50 h left");
  });

  it("is expired at exactly expires", () => {
    expect(serviceState(terms({ expirationBy: "engine_hours", interval: 50, lastService: "200" }), NOW, "km")).toMatchObject({ expires: "250", expired: true });
  });

  it("keeps fractional hours to two decimals", () => {
    const s = serviceState(terms({ expirationBy: "engine_hours", interval: 0.5, lastService: "249.25" }), { ...NOW, engineHours: 249.5 }, "km");
    expect(s).toMatchObject({ expires: "249.75", expired: false, left: 0.25 });
  });
});

describe("serviceState: days", () => {
  it("expires interval days after the last service and reminds trigger days before", () => {
    const s = serviceState(terms({ expirationBy: "days", interval: 30, lastService: "2025-02-20", triggerEventLeft: 7 }), NOW, "km");
    expect(s).toMatchObject({ expires: "2025-03-22", expiresDate: "2025-03-22", remind: "2025-03-15", remindDate: "2025-03-15", expired: false, expiring: false, left: 12 });
    expect(serviceLeftText(s)).toBe("12 days left");
  });

  it("crosses month ends, February of a leap year and year ends", () => {
    expect(serviceState(terms({ expirationBy: "days", interval: 1, lastService: "2025-01-31" }), NOW, "km").expires).toBe("2025-02-01");
    expect(serviceState(terms({ expirationBy: "days", interval: 30, lastService: "2024-01-31" }), NOW, "km").expires).toBe("2024-03-01");
    expect(serviceState(terms({ expirationBy: "days", interval: 10, lastService: "2024-12-25", triggerEventLeft: 30 }), NOW, "km")).toMatchObject({ expires: "2025-01-04", remind: "2024-12-05" });
  });

  it("is expiring from the remind date and expired from the expiry date, both inclusive", () => {
    // Due 2025-03-11, reminded from 2025-03-09.
    const base = terms({ expirationBy: "days", interval: 10, lastService: "2025-03-01", triggerEventLeft: 2 });
    const on = (today: string) => serviceState(base, { ...NOW, today }, "km");
    expect(on("2025-03-08")).toMatchObject({ expires: "2025-03-11", remind: "2025-03-09", expiring: false, expired: false, left: 3 });
    expect(on("2025-03-09")).toMatchObject({ expiring: true, expired: false, left: 2 });
    expect(serviceLeftText(on("2025-03-09"))).toBe("2 days left");
    expect(serviceLeftText(on("2025-03-10"))).toBe("1 day left");
    expect(on("2025-03-11")).toMatchObject({ expiring: true, expired: true, left: 0 });
    expect(serviceLeftText(on("2025-03-11"))).toBe("Expired");
    expect(on("2025-04-30")).toMatchObject({ expired: true, left: 0 });
  });

  it("counts today in the user's timezone, so a month end in UTC is the next month further east", () => {
    // 2025-01-31 23:30 UTC is 2025-02-01 01:30 at UTC+02:00 (timezone 65) and 2025-01-31 19:30 at UTC−04:00 (timezone 41).
    const instant = Date.UTC(2025, 0, 31, 23, 30);
    expect(todayIn(instant, userClock({ timezoneId: 65 }))).toBe("2025-02-01");
    expect(todayIn(instant, userClock({ timezoneId: 41 }))).toBe("2025-01-31");
    expect(todayIn(instant, userClock({ timezoneId: 0 }))).toBe("2025-01-31");
    const s = terms({ expirationBy: "days", interval: 31, lastService: "2025-01-01" });
    expect(serviceState(s, { ...NOW, today: todayIn(instant, userClock({ timezoneId: 65 })) }, "km")).toMatchObject({ expires: "2025-02-01", expired: true });
    expect(serviceState(s, { ...NOW, today: todayIn(instant, userClock({ timezoneId: 41 })) }, "km")).toMatchObject({ expired: false, left: 1 });
  });
});

describe("serviceState: renew_after_expiration", () => {
  it("rolls the cycle on by whole intervals once due, so it is never shown expired", () => {
    // Last service at 1000 km, every 4000 km: cycles start at 1000, 5000, 9000, 13000, 17000…
    const s = serviceState(terms({ interval: 4000, lastService: "1000", triggerEventLeft: 1000, renewAfterExpiration: true }), NOW, "km");
    expect(s).toMatchObject({ lastService: "13000", expires: "17000", remind: "16000", expired: false, expiring: false, left: 2000 });
  });

  it("starts the new cycle exactly at the expiry value", () => {
    const s = serviceState(terms({ interval: 5000, lastService: "10000", renewAfterExpiration: true }), NOW, "km");
    expect(s).toMatchObject({ lastService: "15000", expires: "20000", expired: false });
  });

  it("leaves a renewing service that is not yet due alone", () => {
    const s = serviceState(terms({ interval: 10_000, lastService: "6000", triggerEventLeft: 2000, renewAfterExpiration: true }), NOW, "km");
    expect(s).toMatchObject({ lastService: "6000", expires: "16000", expiring: true, expired: false });
  });

  it("gives the same answer on every read of the same counters", () => {
    const t = terms({ expirationBy: "engine_hours", interval: 30, lastService: "0", renewAfterExpiration: true });
    const first = serviceState(t, NOW, "km");
    expect(serviceState(t, NOW, "km")).toEqual(first);
    expect(first).toMatchObject({ lastService: "240", expires: "270", left: 20 });
  });

  it("rolls days by whole intervals, across month ends", () => {
    // Every 30 days from 2024-12-01: 12-31, 01-30, 03-01 (2025 is no leap year), 03-31.
    const t = terms({ expirationBy: "days", interval: 30, lastService: "2024-12-01", triggerEventLeft: 5, renewAfterExpiration: true });
    expect(serviceState(t, NOW, "km")).toMatchObject({ lastService: "2025-03-01", expires: "2025-03-31", remind: "2025-03-26", expired: false, left: 21 });
    expect(serviceState(t, { ...NOW, today: "2025-03-31" }, "km")).toMatchObject({ lastService: "2025-03-31", expires: "2025-04-30" });
  });

  it("does not roll a service without renewal", () => {
    const t = terms({ expirationBy: "days", interval: 30, lastService: "2024-12-01" });
    expect(serviceState(t, NOW, "km")).toMatchObject({ lastService: "2024-12-01", expires: "2024-12-31", expired: true });
  });
});

describe("the cycle a reminder is for", () => {
  it("names the cycle by its start as stored, km whatever the user's unit, and a date for days", () => {
    const renewing = terms({ interval: 4000, lastService: "1000", renewAfterExpiration: true });
    expect(serviceState(renewing, NOW, "mi").cycle).toBe("13000");
    expect(serviceState(renewing, { ...NOW, odometerKm: 17_000 }, "km").cycle).toBe("17000");
    const days = terms({ expirationBy: "days", interval: 30, lastService: "2024-12-01", renewAfterExpiration: true });
    expect(serviceState(days, NOW, "km").cycle).toBe("2025-03-01");
  });

  it("counts the reminder as sent for the cycle it was sent for only", () => {
    const renewing = terms({ interval: 4000, lastService: "1000", renewAfterExpiration: true });
    const now = serviceState(renewing, NOW, "km");
    expect(reminderSent({ eventSent: true, notifiedCycle: "13000" }, now)).toBe(true);
    // Rolled on into the next cycle: that one's reminder is due anew.
    expect(reminderSent({ eventSent: true, notifiedCycle: "9000" }, now)).toBe(false);
    expect(reminderSent({ eventSent: false, notifiedCycle: null }, now)).toBe(false);
    // A flag set without a cycle (before cycles were recorded) holds for whatever cycle is current.
    expect(reminderSent({ eventSent: true, notifiedCycle: null }, now)).toBe(true);
  });
});

describe("the reminder due", () => {
  const unsent = { eventSent: false, notifiedCycle: null };

  it("is the current cycle's from its remind value on, until it is sent", () => {
    const t = { ...terms({ interval: 10_000, lastService: "6000", triggerEventLeft: 500 }), ...unsent };
    expect(dueReminder(t, { ...NOW, odometerKm: 15_499 }, "km")).toBeNull();
    expect(dueReminder(t, { ...NOW, odometerKm: 15_500 }, "km")).toMatchObject({ cycle: "6000", rolledOver: false, state: { expires: "16000", expired: false } });
    expect(dueReminder({ ...t, eventSent: true, notifiedCycle: "6000" }, { ...NOW, odometerKm: 17_000 }, "km")).toBeNull();
  });

  it("is the cycle a renewing service rolled over before its reminder was seen, once", () => {
    // Trigger 0: the cycle rolls at the very value that reminds, so only the rolled-over cycle can tell.
    const t = { ...terms({ interval: 10_000, lastService: "6000", renewAfterExpiration: true }), ...unsent };
    expect(dueReminder(t, { ...NOW, odometerKm: 15_999 }, "km")).toBeNull();
    const rolled = dueReminder(t, { ...NOW, odometerKm: 16_000 }, "km");
    expect(rolled).toMatchObject({ cycle: "6000", rolledOver: true, state: { expires: "16000" } });
    expect(dueReminder({ ...t, eventSent: true, notifiedCycle: "6000" }, { ...NOW, odometerKm: 16_000 }, "km")).toBeNull();
    // The next cycle, reached at 26000, is due in its turn; one reminded later holds for the earlier ones.
    expect(dueReminder({ ...t, eventSent: true, notifiedCycle: "6000" }, { ...NOW, odometerKm: 26_000 }, "km")).toMatchObject({ cycle: "16000", rolledOver: true });
    expect(dueReminder({ ...t, eventSent: true, notifiedCycle: "16000" }, { ...NOW, odometerKm: 26_000 }, "km")).toBeNull();
    // Days roll back by whole days; a service that never rolled has no earlier cycle.
    const days = { ...terms({ expirationBy: "days", interval: 30, lastService: "2025-01-01", renewAfterExpiration: true }), ...unsent };
    expect(dueReminder(days, { ...NOW, today: "2025-02-01" }, "km")).toMatchObject({ cycle: "2025-01-01", rolledOver: true, state: { expires: "2025-01-31" } });
    expect(dueReminder(days, { ...NOW, today: "2025-01-15" }, "km")).toBeNull();
  });
});

describe("helpers", () => {
  it("accepts only real calendar dates", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    for (const bad of ["2025-02-29", "2025-02-30", "2025-13-01", "2025-1-01", "2025-01-01 00:00:00", "0099-01-01", "", "20250101"]) expect(isCalendarDate(bad), bad).toBe(false);
  });

  it("formats amounts with at most two decimals and converts units both ways", () => {
    expect(formatServiceAmount(1200)).toBe("1200");
    expect(formatServiceAmount(0.125)).toBe("0.13");
    expect(formatServiceAmount(-0)).toBe("0");
    expect(formatServiceAmount(kmToUnit(unitToKm(10_000, "mi"), "mi"))).toBe("10000");
    expect(kmToUnit(100, "km")).toBe(100);
  });
});

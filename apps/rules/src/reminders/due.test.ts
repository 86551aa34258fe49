import { describe, expect, it } from "vitest";
import type { LiveState } from "@fleet/contracts";
import type { Service, ServiceToCheck, User } from "@fleet/db";
import type { SensorDefinition } from "@fleet/sensors";
import { T0 } from "../testing.js";
import { dueReminders, reminderKey } from "./due.js";

const DAY = 86_400_000;
const UPDATED = new Date(T0 - DAY);

const owner = (over: Partial<User> = {}) => ({ id: 7, timezoneId: 0, dst: null, unitOfDistance: "km", lang: "en", active: true, expirationDate: null, ...over }) as unknown as User;

function service(over: Partial<Service> = {}): Service {
  return {
    id: 11,
    userId: 7,
    deviceId: 3,
    name: "Oil change",
    expirationBy: "odometer",
    interval: 10_000,
    lastService: "6000",
    triggerEventLeft: 500,
    renewAfterExpiration: false,
    eventSent: false,
    notifiedCycle: null,
    email: "ops@fleet.test,boss@fleet.test",
    mobilePhone: "+37060000001",
    description: "",
    createdAt: UPDATED,
    updatedAt: UPDATED,
    ...over,
  };
}

const check = (s: Partial<Service> = {}, u: Partial<User> = {}): ServiceToCheck => ({
  service: service(s),
  device: { id: 3, name: "Van 3", engineHours: "gps" },
  user: owner(u),
});

function at(odometerKm: number, engineHours = 0): Map<number, LiveState> {
  const state: LiveState = {
    deviceId: 3,
    positionId: 42,
    uniqueId: "imei-3",
    protocol: "osmand",
    latitude: 54.69,
    longitude: 25.28,
    altitude: 100,
    course: 90,
    fixTime: T0 - 1000,
    serverTime: T0 - 500,
    attributes: {},
    speedKmh: 40,
    movedAt: T0 - 1000,
    odometerKm,
    engineSeconds: engineHours * 3600,
    tail: [],
  };
  return new Map([[3, state]]);
}

const NO_SENSORS = new Map<number, SensorDefinition[]>();

describe("maintenance service reminders", () => {
  it("is due once the odometer reaches expires − trigger, not a kilometre before", () => {
    expect(dueReminders([check()], at(15_499.9), NO_SENSORS, T0)).toEqual([]);
    const [due] = dueReminders([check()], at(15_500), NO_SENSORS, T0);
    expect(due!.cycle).toBe("6000");
    expect(due!.event).toMatchObject({
      userId: 7,
      deviceId: 3,
      type: "service",
      message: "Service due: Oil change (16000 km)",
      time: new Date(T0),
      latitude: 54.69,
      longitude: 25.28,
      speedKmh: 40,
      positionId: 42,
      serviceId: 11,
      dedupeKey: `service:11:${UPDATED.getTime()}:6000`,
    });
  });

  it("says the service expired when the counter is already past expires, in the owner's language and unit", () => {
    const [expired] = dueReminders([check({}, { lang: "de" })], at(16_000), NO_SENSORS, T0);
    expect(expired!.event.message).toBe("Wartung überfällig: Oil change");
    // 16000 km is 9941.94 mi: the owner who counts in miles reads where it falls due in miles.
    const [miles] = dueReminders([check({}, { unitOfDistance: "mi" })], at(15_600), NO_SENSORS, T0);
    expect(miles!.event.message).toBe("Service due: Oil change (9941.94 mi)");
  });

  it("mails the service's addresses and texts its numbers, each once", () => {
    const [due] = dueReminders([check({ email: "ops@fleet.test,ops@fleet.test", mobilePhone: "+37060000001,+37060000002" })], at(15_500), NO_SENSORS, T0);
    expect(due!.notifications).toEqual([
      {
        channel: "email",
        payload: { to: ["ops@fleet.test"], subject: "Service due: Oil change (16000 km) (Van 3)", text: "Service due: Oil change (16000 km)\n\nDevice: Van 3\nTime: 2026-11-23 08:00:00\n" },
      },
      { channel: "sms", payload: { to: ["+37060000001", "+37060000002"], message: "Service due: Oil change (16000 km) (Van 3)" } },
    ]);
    const [quiet] = dueReminders([check({ email: "", mobilePhone: "" })], at(15_500), NO_SENSORS, T0);
    expect(quiet!.notifications).toEqual([]);
    expect(quiet!.event.type).toBe("service");
  });

  it("does not remind again in the same cycle, but does in a renewing service's next one", () => {
    expect(dueReminders([check({ eventSent: true, notifiedCycle: "6000" })], at(15_800), NO_SENSORS, T0)).toEqual([]);
    // Every 10000 from 6000 with renewal: at 25600 km the cycle started at 16000 and reminds at 25500.
    const renewing = { renewAfterExpiration: true, eventSent: true, notifiedCycle: "6000" };
    const [next] = dueReminders([check(renewing)], at(25_600), NO_SENSORS, T0);
    expect(next).toMatchObject({ cycle: "16000", event: { message: "Service due: Oil change (26000 km)", dedupeKey: `service:11:${UPDATED.getTime()}:16000` } });
    // Just rolled over, the new cycle is not yet at its reminder.
    expect(dueReminders([check(renewing)], at(16_100), NO_SENSORS, T0)).toEqual([]);
  });

  it("reminds of the cycle a renewing service rolled over between two looks, or at a trigger of 0", () => {
    const renewing = { renewAfterExpiration: true, triggerEventLeft: 0 };
    const [rolled] = dueReminders([check(renewing)], at(16_000), NO_SENSORS, T0);
    expect(rolled).toMatchObject({ cycle: "6000", event: { message: "Service due: Oil change (16000 km)" } });
    expect(dueReminders([check({ ...renewing, eventSent: true, notifiedCycle: "6000" })], at(16_000), NO_SENSORS, T0)).toEqual([]);
  });

  it("counts engine hours and days, the days on the owner's clock", () => {
    const hours = check({ expirationBy: "engine_hours", interval: 250, lastService: "0", triggerEventLeft: 10 });
    expect(dueReminders([hours], at(0, 239), NO_SENSORS, T0)).toEqual([]);
    expect(dueReminders([hours], at(0, 240), NO_SENSORS, T0)[0]!.event.message).toBe("Service due: Oil change (250 h)");
    // Due 2026-11-30, reminded 7 days before: on 2026-11-23, which at UTC+02:00 (timezone 65) begins at 22:00 UTC the day before.
    const days = (timezoneId: number) => check({ expirationBy: "days", interval: 30, lastService: "2026-10-31", triggerEventLeft: 7 }, { timezoneId });
    expect(dueReminders([days(0)], at(0), NO_SENSORS, T0 - 9 * 3_600_000)).toEqual([]);
    const [due] = dueReminders([days(65)], at(0), NO_SENSORS, T0 - 9 * 3_600_000);
    expect(due!.event.message).toBe("Service due: Oil change (2026-11-30)");
  });

  it("reminds a device that never reported of what its 0 counters or the date make due, placed at 0, 0", () => {
    const [due] = dueReminders([check({ expirationBy: "days", interval: 1, lastService: "2026-11-01", triggerEventLeft: 0 })], new Map(), NO_SENSORS, T0);
    expect(due!.event).toMatchObject({ message: "Service expired: Oil change", latitude: 0, longitude: 0, positionId: null });
    expect(dueReminders([check()], new Map(), NO_SENSORS, T0)).toEqual([]);
  });

  it("reminds nobody whose account is deactivated or expired", () => {
    expect(dueReminders([check({}, { active: false })], at(15_500), NO_SENSORS, T0)).toEqual([]);
    expect(dueReminders([check({}, { expirationDate: new Date(T0 - 1) })], at(15_500), NO_SENSORS, T0)).toEqual([]);
    expect(dueReminders([check({}, { expirationDate: new Date(T0 + DAY) })], at(15_500), NO_SENSORS, T0)).toHaveLength(1);
  });

  it("names each reminder by service, terms and cycle, so an edit makes a new one", () => {
    const edited = check({ updatedAt: new Date(T0) });
    expect(reminderKey(edited, "6000")).not.toBe(reminderKey(check(), "6000"));
  });
});

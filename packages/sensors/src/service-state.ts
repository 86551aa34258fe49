import type { UserClock } from "@fleet/contracts";

export type ServiceExpirationBy = "odometer" | "engine_hours" | "days";
/** The user's distance unit, in which odometer services are entered and shown. */
export type ServiceDistanceUnit = "km" | "mi";

const KM_PER_MILE = 1.609344;
const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A maintenance service as the computation needs it: the record's fields in camelCase.
 * Mirrors the `services` table of @fleet/db without depending on it. Odometer amounts
 * are km, engine hours are hours, days are days; `lastService` is a number as text, or a
 * `YYYY-MM-DD` date for days.
 */
export interface ServiceTerms {
  expirationBy: ServiceExpirationBy;
  interval: number;
  lastService: string;
  triggerEventLeft: number;
  renewAfterExpiration: boolean;
}

/** Where the device stands now: its counters and today's date in the user's timezone. */
export interface ServiceNow {
  odometerKm: number;
  engineHours: number;
  /** `YYYY-MM-DD` */
  today: string;
}

/** A service's computed state, amounts as the user reads them (km or mi, hours, days). */
export interface ServiceState {
  /** The start of the current cycle: the stored last service, rolled on for renewing services. */
  lastService: string;
  /** The same start as stored (km, hours or a date): what names the cycle whose reminder went out. */
  cycle: string;
  interval: string;
  triggerEventLeft: string;
  /** The amount or date at which the service is due. */
  expires: string;
  /** Days only, else null. */
  expiresDate: string | null;
  /** The amount or date from which the service is reported as expiring. */
  remind: string;
  remindDate: string | null;
  /** The current value or date reached `expires`. */
  expired: boolean;
  /** The current value or date reached `remind` (so an expired service is expiring too). */
  expiring: boolean;
  /** How much remains until `expires`, never negative, in `unit`. */
  left: number;
  unit: ServiceDistanceUnit | "h" | "days";
}

/** `YYYY-MM-DD` of an instant on the account's clock (its timezone and daylight-saving rule). */
export function todayIn(epochMs: number, clock: Pick<UserClock, "format">): string {
  return clock.format(epochMs).slice(0, 10);
}

/** Whether `s` is a real calendar date written `YYYY-MM-DD` (2025-02-30 is not). */
export function isCalendarDate(s: string): boolean {
  return dayNumber(s) !== undefined;
}

/** Days since 1970-01-01, or undefined for anything but a real `YYYY-MM-DD` date. */
function dayNumber(s: string): number | undefined {
  const m = DATE_RE.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  // Date.UTC rolls 02-30 over to 03-02 and maps years 0–99 to 1900s; both mean "not that date".
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return ms / DAY_MS;
}

function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Up to two decimals, no trailing zeros: amounts read back as they were entered. */
export function formatServiceAmount(n: number): string {
  return String(Math.round(n * 100) / 100 || 0);
}

/** An odometer amount from km into the user's unit. */
export function kmToUnit(km: number, unit: ServiceDistanceUnit): number {
  return unit === "mi" ? km / KM_PER_MILE : km;
}

/** An odometer amount from the user's unit into km, as services are stored. */
export function unitToKm(amount: number, unit: ServiceDistanceUnit): number {
  return unit === "mi" ? amount * KM_PER_MILE : amount;
}

/**
 * The start of the cycle `current` is in. A renewing service that was due starts a new
 * cycle every `interval`, so the start advances by whole intervals to the latest one at
 * or before `current`. Computed rather than written back, so every read of the same
 * counters gives the same answer and no read has to write.
 */
function cycleStart(last: number, interval: number, current: number, renew: boolean): number {
  if (!renew || !(interval > 0) || current < last + interval) return last;
  return last + Math.floor((current - last) / interval) * interval;
}

/** The state of a service that expires by odometer (km) or engine hours. */
function counterState(s: ServiceTerms, current: number, toUnit: (n: number) => number, unit: ServiceState["unit"]): ServiceState {
  // Validation stores only numbers here; a row that is not one counts from 0 rather than failing the list.
  const stored = Number(s.lastService);
  const last = cycleStart(Number.isFinite(stored) ? stored : 0, s.interval, current, s.renewAfterExpiration);
  const expires = last + s.interval;
  const remind = expires - s.triggerEventLeft;
  return {
    lastService: formatServiceAmount(toUnit(last)),
    cycle: String(last),
    interval: formatServiceAmount(toUnit(s.interval)),
    triggerEventLeft: formatServiceAmount(toUnit(s.triggerEventLeft)),
    expires: formatServiceAmount(toUnit(expires)),
    expiresDate: null,
    remind: formatServiceAmount(toUnit(remind)),
    remindDate: null,
    expired: current >= expires,
    expiring: current >= remind,
    left: Math.max(0, toUnit(expires - current)),
    unit,
  };
}

/** The state of a service that expires by days: whole calendar days, in the user's timezone. */
function daysState(s: ServiceTerms, today: string): ServiceState {
  const now = dayNumber(today) ?? 0;
  // As above: a stored date that is not one counts as today, a fresh cycle.
  const last = cycleStart(dayNumber(s.lastService) ?? now, Math.floor(s.interval), now, s.renewAfterExpiration);
  const expires = last + Math.floor(s.interval);
  const remind = expires - Math.floor(s.triggerEventLeft);
  return {
    lastService: dateOf(last),
    cycle: dateOf(last),
    interval: formatServiceAmount(s.interval),
    triggerEventLeft: formatServiceAmount(s.triggerEventLeft),
    expires: dateOf(expires),
    expiresDate: dateOf(expires),
    remind: dateOf(remind),
    remindDate: dateOf(remind),
    expired: now >= expires,
    expiring: now >= remind,
    left: Math.max(0, expires - now),
    unit: "days",
  };
}

/** A service's state for the device's current counters and today's date. */
export function serviceState(s: ServiceTerms, now: ServiceNow, unit: ServiceDistanceUnit): ServiceState {
  switch (s.expirationBy) {
    case "odometer":
      return counterState(s, now.odometerKm, (km) => kmToUnit(km, unit), unit);
    case "engine_hours":
      return counterState(s, now.engineHours, (h) => h, "h");
    case "days":
      return daysState(s, now.today);
  }
}

/** What the live list shows of a service: "Expired", or what is left ("1200 km left", "12 days left"). */
export function serviceLeftText(state: ServiceState): string {
  if (state.expired) return "Expired";
  // Rounded up: a service that is not expired never reads "0 … left".
  const left = Math.ceil(state.left - 1e-9);
  if (state.unit === "days") return `${left} ${left === 1 ? "day" : "days"} left`;
  return `${left} ${state.unit} left`;
}

/** What the rules service records of a service's reminders: whether one went out, and for which cycle. */
export interface ReminderFlags {
  eventSent: boolean;
  notifiedCycle: string | null;
}

/** Whether cycle `a` starts at or after `b`: dates compare as text, amounts as numbers. */
function cycleAtOrAfter(a: string, b: string): boolean {
  return DATE_RE.test(a) && DATE_RE.test(b) ? a >= b : Number(a) >= Number(b);
}

/**
 * Whether the reminder of a cycle (the current one's, for event_sent) went out: the flag the
 * rules service sets, for that cycle or a later one (a renewing service that rolled on is due a
 * new one; a flag without a cycle holds for any).
 */
export function reminderSent(s: ReminderFlags, of: { cycle: string }): boolean {
  return s.eventSent && (s.notifiedCycle === null || cycleAtOrAfter(s.notifiedCycle, of.cycle));
}

/** A reminder due: the cycle it is for and that cycle's state; `rolledOver` when a renewing service already passed it. */
export interface DueReminder {
  cycle: string;
  state: ServiceState;
  rolledOver: boolean;
}

/**
 * The reminder the service is due now, if any: its current cycle's once at `remind`, or, for a
 * renewing service that rolled on before the current cycle reached its own, the cycle it rolled
 * over (its counter crossed remind and expiry between two looks, or its trigger is 0 and the
 * cycle rolls at the very value that reminds), unless that cycle or a later one was reminded.
 */
export function dueReminder(s: ServiceTerms & ReminderFlags, now: ServiceNow, unit: ServiceDistanceUnit): DueReminder | null {
  const state = serviceState(s, now, unit);
  let due: DueReminder | null = state.expiring ? { cycle: state.cycle, state, rolledOver: false } : null;
  if (!due && s.renewAfterExpiration) {
    const first = serviceState({ ...s, renewAfterExpiration: false }, now, unit);
    if (first.cycle !== state.cycle) {
      const cycle = s.expirationBy === "days" ? dateOf(dayNumber(state.cycle)! - Math.floor(s.interval)) : String(Number(state.cycle) - s.interval);
      due = { cycle, state: serviceState({ ...s, lastService: cycle, renewAfterExpiration: false }, now, unit), rolledOver: true };
    }
  }
  return due && !reminderSent(s, due) ? due : null;
}

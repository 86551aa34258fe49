import { dstCountries, type UserDst } from "../api/setup.js";

/*
 * When an account's daylight-saving rule (edit_setup's dst_*) puts its clock an hour ahead.
 * Every rule becomes, per calendar year, the instants at which summer time starts and ends;
 * "is it summer time at t" is then a comparison. A start is read on the standard clock and
 * an end on the summer clock, as people say them ("02:00" both ways in the US).
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
/** The shift while summer time is in effect: an hour, as in every country of the catalogue. */
export const DST_SHIFT_MINUTES = 60;

/** Summer time from `start` (inclusive) to `end` (exclusive), epoch ms; ±Infinity at an open end. */
type Window = readonly [start: number, end: number];

/** Summer time at an instant; `stdOffset` is the account's standard offset, minutes east of UTC. */
export type DstTest = (ms: number) => boolean;

const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
const WALL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

function timeOfDayMs(text: string | undefined): number | undefined {
  const m = text === undefined ? null : TIME.exec(text);
  return m ? ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000 : undefined;
}

/**
 * `exact` rules store what edit_setup took: RFC 3339 (an instant) or `YYYY-MM-DD HH:MM[:SS]`
 * on the account's clock, read at `offsetMinutes`.
 */
function ruleInstant(text: string | undefined, offsetMinutes: number): number | undefined {
  if (text === undefined) return undefined;
  const wall = WALL.exec(text);
  if (wall) {
    const [y, mo, d, h, mi, s] = wall.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
    return Date.UTC(y, mo - 1, d, h, mi, s) - offsetMinutes * MINUTE;
  }
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Day of the month of the first (weekPos 1) or last (2) `weekday` (1 Monday … 7 Sunday) of a month (1–12). */
export function nthWeekday(year: number, month: number, weekPos: number, weekday: number): number {
  const isoDay = (day: number) => ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) + 1;
  if (weekPos === 1) return 1 + ((weekday - isoDay(1) + 7) % 7);
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return last - ((isoDay(last) - weekday + 7) % 7);
}

/** Windows of a rule that starts and ends at these instants in a year; a start after the end (southern hemisphere) spans the new year. */
function yearWindows(start: number | undefined, end: number | undefined): Window[] {
  if (start === undefined || end === undefined) return [];
  return start < end ? [[start, end]] : [[-Infinity, end], [start, Infinity]];
}

/** `other`: month, first/last weekday and time of each switch, every year. */
function recurringWindows(rule: UserDst, stdOffset: number): (year: number) => Window[] {
  const at = (year: number, month: number | undefined, pos: number | undefined, day: number | undefined, time: string | undefined, offset: number) => {
    const t = timeOfDayMs(time);
    if (month === undefined || pos === undefined || day === undefined || t === undefined) return undefined;
    return Date.UTC(year, month - 1, nthWeekday(year, month, pos, day)) + t - offset * MINUTE;
  };
  return (year) =>
    yearWindows(
      at(year, rule.month_from, rule.week_pos_from, rule.week_day_from, rule.time_from, stdOffset),
      at(year, rule.month_to, rule.week_pos_to, rule.week_day_to, rule.time_to, stdOffset + DST_SHIFT_MINUTES),
    );
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC of an IANA zone at an instant, as Intl (the runtime's tz database) knows it. */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  let format = offsetFormats.get(zone);
  if (!format) offsetFormats.set(zone, (format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })));
  const name = format.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

const zoneYears = new Map<string, { std: number; windows: Window[] }>();

/**
 * A zone's summer-time windows over a calendar year (UTC), found from Intl: offsets sampled
 * weekly from a day before the year to a day after, each change narrowed to the minute. The
 * standard offset is the year's smallest. Kept per zone and year: a few hundred Intl calls once.
 */
function zoneYear(zone: string, year: number): { std: number; windows: Window[] } {
  const key = `${zone} ${year}`;
  const known = zoneYears.get(key);
  if (known) return known;
  const from = Date.UTC(year, 0, 1) - DAY;
  const to = Date.UTC(year + 1, 0, 1) + DAY;
  const samples: [number, number][] = [];
  for (let t = from; t < to; t += 7 * DAY) samples.push([t, zoneOffsetMinutes(zone, t)]);
  samples.push([to, zoneOffsetMinutes(zone, to)]);
  const std = Math.min(...samples.map(([, o]) => o));
  const windows: Window[] = [];
  let open = samples[0]![1] > std ? -Infinity : undefined;
  for (let i = 1; i < samples.length; i++) {
    const [a, before] = samples[i - 1]!;
    const [b, after] = samples[i]!;
    if (before === after) continue;
    // The first minute with the new offset.
    let [lo, hi] = [a, b];
    while (hi - lo > MINUTE) {
      const mid = lo + Math.max(1, Math.floor((hi - lo) / MINUTE / 2)) * MINUTE;
      if (zoneOffsetMinutes(zone, mid) === before) lo = mid;
      else hi = mid;
    }
    if (after > std && open === undefined) open = hi;
    else if (after === std && open !== undefined) {
      windows.push([open, hi]);
      open = undefined;
    }
  }
  if (open !== undefined) windows.push([open, Infinity]);
  const found = { std, windows };
  zoneYears.set(key, found);
  return found;
}

/**
 * `automatic`: the country's own rule, through a zone that follows it. Rules whose switch
 * is at a UTC time (the EU's) hold for every zone of the country at once; rules at a local
 * hour (the US's 02:00) switch at that hour of the account's own standard clock, so the
 * account's instant is moved to the same standard wall time in the zone before asking.
 */
function countryTest(countryId: number | undefined, stdOffset: number): DstTest {
  const country = dstCountries.find((c) => c.id === countryId);
  if (!country) return () => false;
  return (ms) => {
    const { std } = zoneYear(country.zone, new Date(ms).getUTCFullYear());
    const t = country.switchesAt === "utc" ? ms : ms + (stdOffset - std) * MINUTE;
    return zoneYear(country.zone, new Date(t).getUTCFullYear()).windows.some(([s, e]) => t >= s && t < e);
  };
}

/** Whether the rule puts the clock ahead at an instant; no rule, or an incomplete one, never does. */
export function dstTest(rule: UserDst | null | undefined, stdOffset: number): DstTest {
  if (!rule) return () => false;
  if (rule.type === "automatic") return countryTest(rule.dst_country_id, stdOffset);
  if (rule.type === "exact") {
    const [window] = yearWindows(ruleInstant(rule.date_from, stdOffset), ruleInstant(rule.date_to, stdOffset + DST_SHIFT_MINUTES));
    // An exact rule is one period, not a yearly one: a "to" before the "from" is no period.
    if (!window || window[0] === -Infinity) return () => false;
    return (ms) => ms >= window[0] && ms < window[1];
  }
  const windowsOf = recurringWindows(rule, stdOffset);
  const byYear = new Map<number, Window[]>();
  return (ms) => {
    // The year on the standard clock: the one whose rule decides (a southern rule spans New Year either way).
    const year = new Date(ms + stdOffset * MINUTE).getUTCFullYear();
    let windows = byYear.get(year);
    if (!windows) byYear.set(year, (windows = windowsOf(year)));
    return windows.some(([s, e]) => ms >= s && ms < e);
  };
}

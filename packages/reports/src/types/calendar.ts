import type { ReportContext } from "./context.js";

/*
 * The user's calendar, for the types cut by days or hours. Dates and times of day are read
 * from the text `ctx.time` writes (the user's wall clock, so 08:00 is 08:00 on the day the
 * clock changes too); instants from dates go through `ctx.localInstant`, since a local day is
 * not always 24 hours long and only the user's clock knows where it changes.
 */

const DAY_MS = 86_400_000;

/** The date on the user's clock at an instant, "YYYY-MM-DD". */
export const localDate = (ctx: ReportContext, ms: number): string => ctx.time(ms).slice(0, 10);

/** Minutes since midnight on the user's wall clock at an instant ("09:30:59" is 570). */
export function localMinutes(ctx: ReportContext, ms: number): number {
  const text = ctx.time(ms);
  return Number(text.slice(11, 13)) * 60 + Number(text.slice(14, 16));
}

/** "HH:MM" as minutes since midnight, or undefined when it is not a time of day. */
export function minutesOf(hhmm: string): number | undefined {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined;
  return Number(m[1]) * 60 + Number(m[2]);
}

const dateMs = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The date after `date`: calendar arithmetic, no clock involved. */
export const nextDate = (date: string): string => new Date(dateMs(date) + DAY_MS).toISOString().slice(0, 10);

/** The day of the week of a date: 0 Sunday, 1 Monday … 6 Saturday. */
export const weekdayOf = (date: string): number => new Date(dateMs(date)).getUTCDay();

/** The instant a date and "HH:MM" name on the user's clock. */
export function instantOn(ctx: ReportContext, date: string, time: string): number {
  // The api gives every report its user's clock; a caller that does not is a bug, not a user's mistake.
  if (!ctx.localInstant) throw new Error("This report type needs the user's clock (ReportContext.localInstant)");
  const ms = ctx.localInstant(date, time);
  if (ms === undefined) throw new Error(`${date} ${time} names no time on the user's clock`);
  return ms;
}

/** Every date on the user's clock from the one holding `fromMs` to the one holding `toMs`, both included. */
export function localDates(ctx: ReportContext, fromMs: number, toMs: number): string[] {
  const dates: string[] = [];
  const last = localDate(ctx, toMs);
  for (let d = localDate(ctx, fromMs); d <= last; d = nextDate(d)) dates.push(d);
  return dates;
}

/** The user's midnights strictly between two instants, in order. */
export function midnightsWithin(ctx: ReportContext, fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  for (let d = nextDate(localDate(ctx, fromMs)), m = instantOn(ctx, d, "00:00"); m < toMs; d = nextDate(d), m = instantOn(ctx, d, "00:00")) out.push(m);
  return out;
}

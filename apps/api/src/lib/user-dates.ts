import { InvalidInputError, UTC_TIMEZONE_ID, parseTaskDateTime, userClock, wallClockMs, type UserClock } from "@fleet/contracts";

/*
 * Dates a user types into a period (get_events, get_alerts_summary, an alert's time period on
 * a device), as UserDateSchema admits them: read on the account's clock unless they carry an
 * offset of their own. One reading everywhere, so the same text means the same instant.
 */

const DAY = 86_400_000;
/** What a text with an offset of its own is read on: its offset alone. */
const UTC = userClock({ timezoneId: UTC_TIMEZONE_ID });
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d{1,6})?$/;

/**
 * The instant a date_from/date_to names, or undefined when it names none (31 April):
 * on the account's clock, or at the offset it carries. A date alone is its day's start,
 * or for `end` the next day's start; a date-time's end is the end of its second.
 */
export function instantOf(clock: UserClock, text: string, end: boolean): number | undefined {
  if (DATE_ONLY.test(text)) {
    const day = wallClockMs(text, "00:00");
    if (day === undefined) return undefined;
    return clock.toInstant(end ? new Date(day + DAY).toISOString().slice(0, 10) : text, "00:00");
  }
  const local = LOCAL.exec(text);
  // With an offset of its own (Z, ±HH:MM), the account's clock plays no part.
  const at = local ? clock.toInstant(local[1]!, local[2]!) : parseTaskDateTime(text, UTC);
  if (at === undefined) return undefined;
  const second = Math.floor(at / 1000) * 1000;
  return end ? second + 1000 : second;
}

/** A period a user typed, as instants: `toMs` exclusive (the end of the day or second named). */
export interface UserPeriod {
  fromMs?: number;
  toMs?: number;
}

/** `date_from`/`date_to` as instants; empty or absent fields are no bound. A 422 names the field at fault. */
export function readPeriod(clock: UserClock, fields: { date_from?: string | null; date_to?: string | null }): UserPeriod {
  const errors: Record<string, string> = {};
  const read = (field: "date_from" | "date_to", end: boolean) => {
    const text = fields[field];
    if (!text) return undefined;
    const at = instantOf(clock, text, end);
    if (at === undefined) errors[field] = `The ${field.replace("_", " ")} is not a valid date.`;
    return at;
  };
  const fromMs = read("date_from", false);
  const toMs = read("date_to", true);
  if (fromMs !== undefined && toMs !== undefined && toMs <= fromMs) errors.date_to = "The date to must be a date after or equal to date from.";
  if (Object.keys(errors).length > 0) throw new InvalidInputError(errors);
  return { fromMs, toMs };
}

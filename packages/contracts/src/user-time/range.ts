import { Type, type Static } from "@sinclair/typebox";
import { InvalidInputError } from "../errors.js";
import { wallClockMs, type UserClock } from "./clock.js";

/*
 * The period a history endpoint reads (get_history, get_history_messages, exports): a device
 * and a local from/to date and time on the account's clock, as the vendor's clients send them.
 */

const DAY = 86_400_000;
/** The longest period one request may read. */
export const MAX_RANGE_DAYS = 31;

const LocalDate = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "YYYY-MM-DD on the account's clock" });
const LocalTime = Type.String({ pattern: "^\\d{2}:\\d{2}(:\\d{2})?$", description: "HH:MM or HH:MM:SS on the account's clock" });

/** The query fields of every history range endpoint; spread them into its query schema. */
export const HistoryRangeFields = {
  device_id: Type.Integer({ minimum: 1, maximum: 2147483647, description: "one of the user's devices" }),
  from_date: LocalDate,
  from_time: LocalTime,
  to_date: LocalDate,
  to_time: LocalTime,
};
export const HistoryRangeQuerySchema = Type.Object(HistoryRangeFields);
export type HistoryRangeQuery = Static<typeof HistoryRangeQuerySchema>;

/** A period as instants: fixes with `fromMs <= fixTime <= toMs` are in it. */
export interface HistoryRange {
  fromMs: number;
  toMs: number;
}

/**
 * The instants of a requested period, or a 422 naming the field at fault: a date or time
 * that names none, a `to` before the `from`, or a period over 31 days (counted on the
 * clock's face, so a month of local days is allowed across a DST switch too). The `to`
 * second is included whole: `23:59:59` reads up to 23:59:59.999.
 */
export function parseRange(clock: UserClock, query: Omit<HistoryRangeQuery, "device_id">): HistoryRange {
  const errors: Record<string, string> = {};
  const field = (name: "from" | "to", date: string, time: string) => {
    if (wallClockMs(date, "00:00") === undefined) errors[`${name}_date`] = `The ${name} date is not a valid date.`;
    else if (wallClockMs(date, time) === undefined) errors[`${name}_time`] = `The ${name} time is not a valid time.`;
    return clock.toInstant(date, time);
  };
  const from = field("from", query.from_date, query.from_time);
  const to = field("to", query.to_date, query.to_time);
  if (from === undefined || to === undefined) throw new InvalidInputError(errors);
  if (to < from) {
    const at = query.to_date === query.from_date ? "to_time" : "to_date";
    throw new InvalidInputError({ [at]: `The ${at.replace("_", " ")} must be at or after the from ${at.slice(3)}.` });
  }
  if (wallClockMs(query.to_date, query.to_time)! - wallClockMs(query.from_date, query.from_time)! > MAX_RANGE_DAYS * DAY) {
    throw new InvalidInputError({ to_date: `The period may not be longer than ${MAX_RANGE_DAYS} days.` });
  }
  return { fromMs: from, toMs: to + 999 };
}

import { localDate, localMinutes, weekdayOf } from "./calendar.js";
import type { ReportContext } from "./context.js";

/*
 * What makes a trip business or private (types 21, 22). The vendor gives no rule and a device
 * knows nothing of its trip's purpose, so the rule is the working week on the user's clock:
 * Monday to Friday, 08:00 to 18:00. A drive or stop is judged by when it started.
 */

/** Monday to Friday (getUTCDay's 1–5). */
const WORKDAYS = new Set([1, 2, 3, 4, 5]);
/** 08:00, in minutes since midnight: the first minute of business. */
export const BUSINESS_FROM_MINUTES = 8 * 60;
/** 18:00: the first minute after it. */
export const BUSINESS_UNTIL_MINUTES = 18 * 60;

/** Whether an instant is in working hours on the user's clock: 08:00:00 is, 18:00:00 is not. */
export function isBusinessTime(ctx: ReportContext, ms: number): boolean {
  const minutes = localMinutes(ctx, ms);
  return WORKDAYS.has(weekdayOf(localDate(ctx, ms))) && minutes >= BUSINESS_FROM_MINUTES && minutes < BUSINESS_UNTIL_MINUTES;
}

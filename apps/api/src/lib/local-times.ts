import type { UserClock } from "@fleet/contracts";

const DAY = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));

/**
 * The clock's `format` for many instants in a row (a history answer formats two or three
 * per position): the date part is made once per local day and the time of day from a
 * table, where `format` builds an ISO string per call. Same text as `clock.format`.
 */
export function localTimes(clock: UserClock): (ms: number) => string {
  let dayStart = Number.NaN;
  let dayText = "";
  return (ms) => {
    const local = ms + clock.offsetAt(ms) * 60_000;
    const day = Math.floor(local / DAY) * DAY;
    if (day !== dayStart) {
      dayStart = day;
      dayText = new Date(day).toISOString().slice(0, 10) + " ";
    }
    const s = Math.floor((local - day) / 1000);
    return dayText + TWO_DIGITS[Math.floor(s / 3600)]! + ":" + TWO_DIGITS[Math.floor(s / 60) % 60]! + ":" + TWO_DIGITS[s % 60]!;
  };
}

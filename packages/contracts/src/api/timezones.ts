/**
 * The vendor's timezone catalogue: fixed offsets from UTC −14:00 to +14:00 in
 * 15-minute steps, ids 1 to 113 (id 57 is UTC). Id 0 means "the account's default".
 */
const STEP = 15;
const MIN_OFFSET = -14 * 60;
export const UTC_TIMEZONE_ID = 1 + -MIN_OFFSET / STEP;

function label(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `UTC ${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

export const timezones: { id: number; value: string }[] = Array.from({ length: 113 }, (_, i) => ({ id: i + 1, value: label(MIN_OFFSET + i * STEP) }));

/** Minutes east of UTC for a timezone id; unknown ids and 0 fall back to UTC. */
export function timezoneOffsetMinutes(id: number): number {
  return id >= 1 && id <= timezones.length ? MIN_OFFSET + (id - 1) * STEP : 0;
}


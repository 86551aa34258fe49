import type { UserDst } from "../api/setup.js";
import { timezoneOffsetMinutes } from "../api/timezones.js";
import { DST_SHIFT_MINUTES, dstTest } from "./dst.js";

/*
 * The account's clock: the vendor's fixed-offset timezone plus its daylight-saving rule.
 * Every time a user reads or types (history ranges, displayed times, alert schedules) goes
 * through one of these, so ranges and what is shown agree.
 */

const MINUTE = 60_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
/** The years a typed date may name, as task times take them. */
const MIN_YEAR = 1970;
const MAX_YEAR = 2100;

/** What the clock needs of an account: a users row or an edit_setup_data record alike. */
export interface UserClockSettings {
  /** The vendor's timezone id; 0 (or unknown) is UTC. */
  timezoneId: number;
  /** The stored daylight-saving rule; null or absent for none. */
  dst?: UserDst | null;
}

export interface UserClock {
  /** Minutes east of UTC at an instant: the timezone's offset, plus an hour in summer time. */
  offsetAt(ms: number): number;
  /**
   * The instant a local date (`YYYY-MM-DD`) and time (`HH:MM` or `HH:MM:SS`) name, or
   * undefined when they name none (31 April, 24:00, a year outside 1970–2100). A time the
   * spring switch skips is read on the clock before it (02:30 → 03:30); one the autumn
   * switch repeats is its first occurrence.
   */
  toInstant(date: string, time: string): number | undefined;
  /** `YYYY-MM-DD HH:MM:SS` on the account's clock. */
  format(ms: number): string;
}

/** Epoch ms of a wall-clock date and time read as if in UTC, or undefined when it names no real time. */
export function wallClockMs(date: string, time: string): number | undefined {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) return undefined;
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const [hour, minute, second] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 31 April over into May; a rolled date is not the one written.
  return new Date(ms).getUTCDate() === day ? ms : undefined;
}

export function userClock(settings: UserClockSettings): UserClock {
  const std = timezoneOffsetMinutes(settings.timezoneId);
  const inDst = dstTest(settings.dst, std);
  const offsetAt = (ms: number) => (inDst(ms) ? std + DST_SHIFT_MINUTES : std);
  return {
    offsetAt,
    toInstant(date, time) {
      const wall = wallClockMs(date, time);
      if (wall === undefined) return undefined;
      const summer = wall - (std + DST_SHIFT_MINUTES) * MINUTE;
      // Read on the summer clock if that instant is in summer time (the earlier of two in the
      // repeated hour); otherwise on the standard clock, which also carries a skipped time forward.
      return inDst(summer) ? summer : wall - std * MINUTE;
    },
    format: (ms) => new Date(ms + offsetAt(ms) * MINUTE).toISOString().slice(0, 19).replace("T", " "),
  };
}

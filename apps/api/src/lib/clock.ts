import { userClock, type UserClock, type UserClockSettings } from "@fleet/contracts";

/** One clock per distinct timezone and rule, so a cache can tell by identity what it was made on. */
const bySettings = new Map<string, UserClock>();
/** Users rarely share a custom rule, but a bound keeps a long-lived process's map small. */
const MAX_SETTINGS = 10_000;
const byRecord = new WeakMap<UserClockSettings, UserClock>();

/**
 * The account's clock (its timezone and daylight-saving rule): every time shown to the
 * account, record stamps included, and every date-time it types are read on it. Accounts with
 * the same settings get the same clock object, whichever request loaded them.
 */
export function clockOf(user: UserClockSettings): UserClock {
  let clock = byRecord.get(user);
  if (clock) return clock;
  const key = `${user.timezoneId}|${JSON.stringify(user.dst ?? null)}`;
  clock = bySettings.get(key);
  if (!clock) {
    if (bySettings.size >= MAX_SETTINGS) bySettings.clear();
    bySettings.set(key, (clock = userClock(user)));
  }
  byRecord.set(user, clock);
  return clock;
}

import type { UserClock } from "@fleet/contracts";
import type { ReportJobKind } from "@fleet/db";

/*
 * Which periods a scheduled report is due for: a daily report, each local day once it has
 * ended; a weekly one, each local week (Monday to Sunday) once it has ended; both on the
 * owner's clock. Those ended since the last one sent are offered (a few at most), so a run
 * missed while no api instance was up is still sent when one starts; each run is written once,
 * so offering it again repeats nothing. A report never sent yet is offered only its latest
 * ended period, and never one that ended before the report was made.
 */

const DAY = 86_400_000;
/** How far back a missed run is still worth sending. */
const LOOKBACK: Record<ReportJobKind, number> = { daily: 3, weekly: 2 };

export interface DuePeriod {
  kind: ReportJobKind;
  /** From inclusive, to exclusive. */
  fromMs: number;
  toMs: number;
}

/** The local date at an instant, "YYYY-MM-DD". */
const localDate = (clock: UserClock, ms: number) => new Date(ms + clock.offsetAt(ms) * 60_000).toISOString().slice(0, 10);
/** The local date `days` after a local date. */
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
/** The instant a local day starts (its first minute, should a clock switch skip midnight). */
const dayStart = (clock: UserClock, date: string) => clock.toInstant(date, "00:00")!;

export interface Schedule {
  daily: boolean;
  weekly: boolean;
  createdAt: Date;
  dailyEmailSent: Date | null;
  weeklyEmailSent: Date | null;
}

/** `weekStartDay`: the owner's week_start_day, 1 Monday … 7 Sunday (the vendor's default, Monday). */
export function duePeriods(schedule: Schedule, clock: UserClock, nowMs: number, weekStartDay = 1): DuePeriod[] {
  const today = localDate(clock, nowMs);
  const out: DuePeriod[] = [];
  const offer = (kind: ReportJobKind, from: string, to: string, latest: boolean) => {
    const period = { kind, fromMs: dayStart(clock, from), toMs: dayStart(clock, to) };
    const sent = kind === "daily" ? schedule.dailyEmailSent : schedule.weeklyEmailSent;
    const since = sent === null ? latest : period.toMs > sent.getTime();
    if (since && period.toMs > schedule.createdAt.getTime() && period.toMs <= nowMs) out.push(period);
  };
  if (schedule.daily) for (let k = LOOKBACK.daily; k >= 1; k--) offer("daily", addDays(today, -k), addDays(today, -k + 1), k === 1);
  if (schedule.weekly) {
    // JS numbers Sunday 0; the account, Sunday 7.
    const start = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() - (weekStartDay % 7) + 7) % 7));
    for (let k = LOOKBACK.weekly; k >= 1; k--) offer("weekly", addDays(start, -7 * k), addDays(start, -7 * (k - 1)), k === 1);
  }
  return out;
}

import { WEEKDAYS } from "@fleet/contracts";
import type { RuleAlert, RuleUser } from "./model.js";

const DAY = 86_400_000;
const QUARTER = 15 * 60_000;

/** JS days start on Sunday, the vendor's week (WEEKDAYS) on Monday. */
const weekdayOf = (localMs: number) => WEEKDAYS[(Math.floor(localMs / DAY) + 3) % 7]!;

/**
 * Whether the alert applies at `ms`: inside its weekly schedule, read on its owner's clock
 * (quarter-hour slots, as the alert screens set them). An alert without a schedule always does.
 */
export function inSchedule(alert: RuleAlert, owner: RuleUser, ms: number): boolean {
  if (alert.schedule === null) return true;
  const local = ms + owner.clock.offsetAt(ms) * 60_000;
  const slotStart = Math.floor((local - Math.floor(local / DAY) * DAY) / QUARTER) * 15;
  const slot = `${String(Math.floor(slotStart / 60)).padStart(2, "0")}:${String(slotStart % 60).padStart(2, "0")}`;
  return alert.schedule[weekdayOf(local)]?.includes(slot) ?? false;
}

/** Whether `ms` falls in the period the alert applies in on the device (time_period). */
export function inPeriod(alert: RuleAlert, ms: number): boolean {
  const { fromMs, toMs } = alert.period;
  return (fromMs === null || ms >= fromMs) && (toMs === null || ms < toMs);
}

/** Whether the alert applies where the position is: anywhere, only inside one of its zones, or only outside all of them. */
export function inZone(alert: RuleAlert, inside: ReadonlySet<number>): boolean {
  if (alert.zone === 0) return true;
  const within = alert.zones.some((id) => inside.has(id));
  return alert.zone === 1 ? within : !within;
}

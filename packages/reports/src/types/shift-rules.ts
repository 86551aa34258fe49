import { instantOn, minutesOf, nextDate } from "./calendar.js";
import type { ReportContext } from "./context.js";

/*
 * Type 28's rules: per day, whether the device arrived in one of the report's geofences by the
 * shift's start plus its tolerance, left before the shift's finish less its tolerance, and went
 * out during the shift for longer than the excessive exit.
 */

/** Type 28's parameters as docs/decisions.md declares them ("Type 28's remaining parameters"), with their defaults. */
export interface ShiftParameters {
  /** "HH:MM" on the user's clock. */
  start: string;
  /** "HH:MM"; at or before `start`, the shift ends the next day. */
  finish: string;
  startToleranceMs: number;
  finishToleranceMs: number;
  excessiveExitMs: number;
}

const MINUTE = 60_000;

function time(parameters: Record<string, number | string>, name: string, dflt: string): string {
  const value = String(parameters[name] ?? dflt);
  if (minutesOf(value) === undefined) throw new Error(`${name} must be a time of day (HH:MM), not "${value}"`);
  return value;
}

function minutes(parameters: Record<string, number | string>, name: string, dflt: number): number {
  // A form sends "10"; the stored definition holds 10.
  const value = Number(parameters[name] ?? dflt);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of minutes, not "${String(parameters[name])}"`);
  return value * MINUTE;
}

/** The stored parameters read, absent ones at their defaults; the api checked them, so a bad one is a bug and throws. */
export function shiftParameters(parameters: Record<string, number | string>): ShiftParameters {
  return {
    start: time(parameters, "shift_start", "08:00"),
    finish: time(parameters, "shift_finish", "17:00"),
    startToleranceMs: minutes(parameters, "shift_start_tolerance", 15),
    finishToleranceMs: minutes(parameters, "shift_finish_tolerance", 15),
    excessiveExitMs: minutes(parameters, "excessive_exit", 30),
  };
}

/** A stay inside any of the report's geofences, from its first point inside to the first point outside (null: still inside at the end). */
export interface Presence {
  first: number;
  enteredMs: number;
  leftMs: number | null;
  /** When it was last known inside or left: `leftMs`, else its last point's time. */
  endMs: number;
}

export interface ShiftExit {
  leftMs: number;
  returnedMs: number;
}

export interface ShiftDay {
  /** The date the shift starts on. */
  date: string;
  /** The first stay in the shift: when it was entered is the arrival. */
  arrival: Presence;
  /** When the last stay in the shift was left; null when still inside at the end. */
  departureMs: number | null;
  late: boolean;
  early: boolean;
  /** The exits between arrival and departure longer than the excessive exit. */
  exits: ShiftExit[];
}

/**
 * Each of `dates` whose shift the device spent some of in the geofences, judged by the
 * parameters. A day with no stay in the shift has no row: the report has no working calendar,
 * so an absence cannot be told from a day off. Tolerances are inclusive: arriving exactly at
 * start + tolerance is on time, leaving exactly at finish − tolerance is not early, an exit of
 * exactly the excessive exit is not excessive.
 */
export function shiftDays(ctx: ReportContext, dates: readonly string[], presences: readonly Presence[], p: ShiftParameters): ShiftDay[] {
  const overnight = minutesOf(p.finish)! <= minutesOf(p.start)!;
  return dates.flatMap((date): ShiftDay[] => {
    const startMs = instantOn(ctx, date, p.start);
    const finishMs = instantOn(ctx, overnight ? nextDate(date) : date, p.finish);
    const stays = presences.filter((s) => s.enteredMs < finishMs && s.endMs > startMs);
    if (stays.length === 0) return [];
    const last = stays.at(-1)!;
    // Between two stays of the shift the earlier was left (a later stay follows it) and the later entered before the finish.
    const exits = stays.slice(1).map((s, i): ShiftExit => ({ leftMs: stays[i]!.leftMs!, returnedMs: s.enteredMs }));
    return [
      {
        date,
        arrival: stays[0]!,
        departureMs: last.leftMs,
        late: stays[0]!.enteredMs > startMs + p.startToleranceMs,
        early: last.leftMs !== null && last.leftMs < finishMs - p.finishToleranceMs,
        exits: exits.filter((e) => e.returnedMs - e.leftMs > p.excessiveExitMs),
      },
    ];
  });
}

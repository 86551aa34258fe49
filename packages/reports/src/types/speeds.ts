import type { Segmentation } from "@fleet/trips";
import type { ReportDocument, ReportSection } from "../document.js";
import { positionText, shownSpeed, speedColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, sumOf, type Field } from "./fields.js";
import { overspeedRuns, underspeedRuns } from "./overspeeds.js";
import type { Run } from "./runs.js";

/*
 * An episode runs from its first point beyond the limit to its last one, not to the first
 * point back within it: its times, speeds and position then all come from the same points,
 * a gap in the data after it never counts as time speeding, and one that lasts to the end of
 * the period needs no other rule. A single point beyond the limit is an episode of no
 * duration, still listed with its speed.
 */

interface Episode extends Run {
  durationMs: number;
  /** The top speed of an overspeed, the lowest of an underspeed. */
  extremeKmh: number;
  /** The mean of the points' speeds: distance over time has nothing to divide by for a single point. */
  averageKmh: number;
}

interface SpeedKind {
  /** "Overspeed" or "Underspeed", for the labels. */
  name: string;
  runs(track: Segmentation, limitKmh: number): Run[];
  extreme: { title: string; pick: (a: number, b: number) => number };
}

const OVERSPEED: SpeedKind = { name: "Overspeed", runs: overspeedRuns, extreme: { title: "Top speed", pick: Math.max } };
const UNDERSPEED: SpeedKind = { name: "Underspeed", runs: underspeedRuns, extreme: { title: "Lowest speed", pick: Math.min } };

function episode(track: Segmentation, run: Run, kind: SpeedKind): Episode {
  const { points } = track;
  const speeds = points.slice(run.first, run.last + 1).map((p) => p.speedKmh);
  return {
    ...run,
    durationMs: points[run.last]!.fixTime - points[run.first]!.fixTime,
    extremeKmh: speeds.reduce((a, b) => kind.extreme.pick(a, b)),
    averageKmh: sumOf(speeds, (s) => s) / speeds.length,
  };
}

function section(t: DeviceTrack, ctx: ReportContext, kind: SpeedKind, limitKmh: number): ReportSection {
  const { units } = ctx;
  const { points } = t.track;
  const episodes = kind.runs(t.track, limitKmh).map((r) => episode(t.track, r, kind));
  const fields: Field<Episode>[] = [
    { column: { title: "Start" }, cell: (e) => ctx.time(points[e.first]!.fixTime) },
    { column: { title: "End" }, cell: (e) => ctx.time(points[e.last]!.fixTime) },
    { column: { title: "Duration" }, cell: (e) => ctx.duration(e.durationMs) },
    { column: speedColumn(kind.extreme.title, units), cell: (e) => shownSpeed(units, e.extremeKmh) },
    { column: speedColumn("Average speed", units), cell: (e) => shownSpeed(units, e.averageKmh) },
    { column: { title: "Position" }, cell: (e) => positionText(points[e.first]!, ctx) },
  ];
  return {
    heading: t.device.name,
    summary: [
      // The limit as asked (62.5 is applied as 62.5), not rounded as a measured speed is.
      [`Speed limit (${units.speedUnit})`, Math.round(units.speed(limitKmh) * 100) / 100],
      [`${kind.name} count`, episodes.length],
      [`${kind.name} duration`, ctx.duration(sumOf(episodes, (e) => e.durationMs))],
    ],
    tables: [fieldTable(fields, episodes, `No ${kind.name.toLowerCase()}s in the period.`)],
  };
}

function speedReport(kind: SpeedKind) {
  return (heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument => {
    const limit = ctx.speedLimitKmh;
    // The api refuses these types without speed_limit, so getting here without one is a bug.
    if (limit === null) throw new Error(`${kind.name} reports need a speed limit`);
    return { title: heading.title, subtitle: subtitle(heading, ctx), sections: tracks.map((t) => section(t, ctx, kind, limit)) };
  };
}

/** Type 5, overspeed: per device each run of points above the report's limit. */
export const overspeeds = speedReport(OVERSPEED);

/** Type 6, underspeed: per device each run of moving points below the report's limit. */
export const underspeeds = speedReport(UNDERSPEED);

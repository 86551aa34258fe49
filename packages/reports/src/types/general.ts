import type { ReportDocument, ReportSection } from "../document.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { overspeedCount } from "./overspeeds.js";

/** km/h over a time, 0 for none. */
const average = (km: number, ms: number) => (ms > 0 ? km / (ms / 3_600_000) : 0);

/**
 * One device's totals over the period, as general information (type 1) lists them and drives
 * and stops (type 3) heads its table with: the same cut as get_history's, so the screens and
 * the reports never disagree.
 */
export function deviceTotals(t: DeviceTrack, ctx: ReportContext): ReportSection["summary"] {
  const { units } = ctx;
  const { points, totals, groups } = t.track;
  const first = points[0];
  const last = points.at(-1);
  const dist = `(${units.distanceUnit})`;
  const speed = `(${units.speedUnit})`;
  return [
    ["Route start", first ? ctx.time(first.fixTime) : null],
    ["Route end", last ? ctx.time(last.fixTime) : null],
    [`Route length ${dist}`, units.distance(totals.distanceKm)],
    ["Move duration", ctx.duration(totals.driveMs)],
    ["Stop duration", ctx.duration(totals.stopMs)],
    ["Stops", groups.filter((g) => g.status === 2).length],
    [`Top speed ${speed}`, Math.round(units.speed(totals.topSpeedKmh))],
    [`Average speed ${speed}`, Math.round(units.speed(average(totals.distanceKm, totals.driveMs)))],
    ...(ctx.speedLimitKmh !== null ? [["Overspeed count", overspeedCount(t.track, ctx.speedLimitKmh)] as const] : []),
    ["Engine work", ctx.duration(totals.engineWorkMs)],
    ["Engine idle", ctx.duration(totals.engineIdleMs)],
    ["Engine hours", ctx.duration(totals.engineHoursMs)],
    ...(t.fuelUnit !== null ? [[`Fuel consumption (${t.fuelUnit})`, totals.fuelConsumed] as const] : []),
  ];
}

/** Type 1, general information: a section of totals per device. */
export function generalInformation(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument {
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: tracks.map((t) => ({ heading: t.device.name, summary: deviceTotals(t, ctx), tables: [] })),
  };
}

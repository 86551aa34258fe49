import { GroupStatus, type Group } from "@fleet/trips";
import type { ReportDocument, ReportTable } from "../document.js";
import { averageKmh, distanceColumn, fuelColumn, positionText, shownSpeed, speedColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, maxOf, sumOf, type Field } from "./fields.js";

/** One device's drives, a row each, with where each began and ended; the footer adds them up. */
function drivesTable(t: DeviceTrack, ctx: ReportContext): ReportTable {
  const { units } = ctx;
  const { points } = t.track;
  const km = (gs: readonly Group[]) => sumOf(gs, (g) => g.distanceKm);
  const ms = (gs: readonly Group[]) => sumOf(gs, (g) => g.durationMs);
  const fields: Field<Group>[] = [
    { column: { title: "Start" }, cell: (g) => ctx.time(g.startMs) },
    { column: { title: "Start position" }, cell: (g) => positionText(points[g.first]!, ctx) },
    { column: { title: "End" }, cell: (g) => ctx.time(g.endMs) },
    { column: { title: "End position" }, cell: (g) => positionText(points[g.last]!, ctx) },
    { column: { title: "Duration" }, cell: (g) => ctx.duration(g.durationMs), total: (gs) => ctx.duration(ms(gs)) },
    { column: distanceColumn(units), cell: (g) => units.distance(g.distanceKm), total: (gs) => units.distance(km(gs)) },
    { column: speedColumn("Top speed", units), cell: (g) => shownSpeed(units, g.topSpeedKmh), total: (gs) => shownSpeed(units, maxOf(gs, (g) => g.topSpeedKmh)) },
    // Over all the drives: their distance over their time, not the mean of their averages.
    { column: speedColumn("Average speed", units), cell: (g) => shownSpeed(units, averageKmh(g.distanceKm, g.durationMs)), total: (gs) => shownSpeed(units, averageKmh(km(gs), ms(gs))) },
    ...(t.fuelUnit !== null ? [{ column: fuelColumn(t.fuelUnit), cell: (g: Group) => g.fuelConsumed, total: (gs: readonly Group[]) => sumOf(gs, (g) => g.fuelConsumed) }] : []),
  ];
  return fieldTable(
    fields,
    t.track.groups.filter((g) => g.status === GroupStatus.drive),
    "No drives in the period.",
  );
}

/** Type 4, travel sheet: per device its drives, from where to where, and their totals. */
export function travelSheet(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument {
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: tracks.map((t) => ({ heading: t.device.name, tables: [drivesTable(t, ctx)] })),
  };
}

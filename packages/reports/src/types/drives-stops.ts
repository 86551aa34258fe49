import { GroupStatus, type Group } from "@fleet/trips";
import type { ReportDocument, ReportTable } from "../document.js";
import { averageKmh, distanceColumn, fuelColumn, positionText, shownSpeed, speedColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, type Field } from "./fields.js";
import { deviceTotals } from "./general.js";

/** The drives and stops of one device, a row each, in time order. */
function groupsTable(t: DeviceTrack, ctx: ReportContext): ReportTable {
  const { units } = ctx;
  const fields: Field<Group>[] = [
    { column: { title: "Status" }, cell: (g) => (g.status === GroupStatus.drive ? "Drive" : "Stop") },
    { column: { title: "Start" }, cell: (g) => ctx.time(g.startMs) },
    { column: { title: "End" }, cell: (g) => ctx.time(g.endMs) },
    { column: { title: "Duration" }, cell: (g) => ctx.duration(g.durationMs) },
    { column: distanceColumn(units), cell: (g) => units.distance(g.distanceKm) },
    { column: speedColumn("Top speed", units), cell: (g) => shownSpeed(units, g.topSpeedKmh) },
    { column: speedColumn("Average speed", units), cell: (g) => shownSpeed(units, g.status === GroupStatus.drive ? averageKmh(g.distanceKm, g.durationMs) : 0) },
    { column: { title: "Engine idle" }, cell: (g) => ctx.duration(g.engineIdleMs) },
    ...(t.fuelUnit !== null ? [{ column: fuelColumn(t.fuelUnit), cell: (g: Group) => g.fuelConsumed }] : []),
    { column: { title: "Position" }, cell: (g) => positionText(t.track.points[g.first]!) },
  ];
  const groups = t.track.groups.filter((g) => g.status === GroupStatus.drive || g.status === GroupStatus.stop);
  return fieldTable(fields, groups, "No drives or stops in the period.");
}

/** Type 3, drives and stops: per device its totals, then its drives and stops. */
export function drivesAndStops(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument {
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: tracks.map((t) => ({ heading: t.device.name, summary: deviceTotals(t, ctx), tables: [groupsTable(t, ctx)] })),
  };
}

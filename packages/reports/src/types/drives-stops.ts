import { GroupStatus, type Group } from "@fleet/trips";
import type { ReportDocument } from "../document.js";
import { averageKmh, distanceColumn, fuelColumn, positionText, shownSpeed, speedColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, type Field } from "./fields.js";
import { deviceTotals } from "./general.js";

/** A drive or a stop and the device it is of: a row of the drives and stops types (3, 18, 19, 21, 22). */
export interface GroupRow {
  t: DeviceTrack;
  g: Group;
}

/** The track's drives and stops, in time order (its start and end markers are no rows). */
export const groupRowsOf = (t: DeviceTrack): GroupRow[] => t.track.groups.filter((g) => g.status === GroupStatus.drive || g.status === GroupStatus.stop).map((g) => ({ t, g }));

export const NO_GROUPS = "No drives or stops in the period.";

/** Where a group is: its first point's position (or place). */
export const positionField = (ctx: Pick<ReportContext, "place">): Field<GroupRow> => ({ column: { title: "Position" }, cell: (r) => positionText(r.t.track.points[r.g.first]!, ctx) });

/**
 * The drives and stops columns. `device` puts the device first, for rows of several devices;
 * `place` is the last column (the position unless told). A fuel column for each fuel unit of
 * `tracks`, empty in the rows of devices in another unit: litres and gallons never add up.
 */
export function groupFields(ctx: ReportContext, tracks: readonly DeviceTrack[], opts: { device?: boolean; place?: Field<GroupRow> } = {}): Field<GroupRow>[] {
  const { units } = ctx;
  const fuelUnits = [...new Set(tracks.map((t) => t.fuelUnit).filter((u) => u !== null))];
  return [
    ...(opts.device ? [{ column: { title: "Device" }, cell: (r: GroupRow) => r.t.device.name }] : []),
    { column: { title: "Status" }, cell: (r) => (r.g.status === GroupStatus.drive ? "Drive" : "Stop") },
    { column: { title: "Start" }, cell: (r) => ctx.time(r.g.startMs) },
    { column: { title: "End" }, cell: (r) => ctx.time(r.g.endMs) },
    { column: { title: "Duration" }, cell: (r) => ctx.duration(r.g.durationMs) },
    { column: distanceColumn(units), cell: (r) => units.distance(r.g.distanceKm) },
    { column: speedColumn("Top speed", units), cell: (r) => shownSpeed(units, r.g.topSpeedKmh) },
    { column: speedColumn("Average speed", units), cell: (r) => shownSpeed(units, r.g.status === GroupStatus.drive ? averageKmh(r.g.distanceKm, r.g.durationMs) : 0) },
    { column: { title: "Engine idle" }, cell: (r) => ctx.duration(r.g.engineIdleMs) },
    ...fuelUnits.map((unit): Field<GroupRow> => ({ column: fuelColumn(unit), cell: (r) => (r.t.fuelUnit === unit ? r.g.fuelConsumed : null) })),
    opts.place ?? positionField(ctx),
  ];
}

/** Type 3, drives and stops: per device its totals, then its drives and stops. */
export function drivesAndStops(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument {
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: tracks.map((t) => ({ heading: t.device.name, summary: deviceTotals(t, ctx), tables: [fieldTable(groupFields(ctx, [t]), groupRowsOf(t), NO_GROUPS)] })),
  };
}

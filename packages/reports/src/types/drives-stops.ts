import { GroupStatus, type Group, type GroupStats } from "@fleet/trips";
import type { ReportDocument } from "../document.js";
import { distanceColumn, fuelColumn, positionText, shownSpeed, speedColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, type Field } from "./fields.js";
import { figuresSummary } from "./general.js";
import { trackFigures, type TrackFigures } from "./totals.js";

/** A drive or a stop as the drives and stops types show it: its sums, and where it began. */
export interface ReportGroup extends GroupStats {
  status: typeof GroupStatus.drive | typeof GroupStatus.stop;
  /** Its first position. */
  at: { latitude: number; longitude: number };
}

/**
 * A device's drives and stops with its totals: what the drives and stops types (3, 18, 19, 21,
 * 22) lay out, from a track cut here (`deviceGroups`) or cut by the history engine.
 */
export interface DeviceGroups {
  device: DeviceTrack["device"];
  /** The fuel sensor's unit when the device has one (fuel columns then show). */
  fuelUnit: string | null;
  figures: TrackFigures;
  /** In time order. */
  groups: readonly ReportGroup[];
}

const isDriveOrStop = (g: Group): g is Group & { status: ReportGroup["status"] } => g.status === GroupStatus.drive || g.status === GroupStatus.stop;

/** The drives and stops of a track cut here (its start and end markers are no groups). */
export function deviceGroups(t: DeviceTrack, speedLimitKmh: number | null): DeviceGroups {
  const { points } = t.track;
  const groups = t.track.groups.filter(isDriveOrStop).map(({ first, last: _last, ...g }): ReportGroup => ({ ...g, at: { latitude: points[first]!.latitude, longitude: points[first]!.longitude } }));
  return { device: t.device, fuelUnit: t.fuelUnit, figures: trackFigures(t, speedLimitKmh), groups };
}

/** A drive or a stop and the device it is of: a row of the drives and stops types. */
export interface GroupRow {
  d: DeviceGroups;
  g: ReportGroup;
}

export const groupRowsOf = (d: DeviceGroups): GroupRow[] => d.groups.map((g) => ({ d, g }));

export const NO_GROUPS = "No drives or stops in the period.";

/** Where a group is: its first point's position (or place). */
export const positionField = (ctx: Pick<ReportContext, "place">): Field<GroupRow> => ({ column: { title: "Position" }, cell: (r) => positionText(r.g.at, ctx) });

/**
 * The drives and stops columns. `device` puts the device first, for rows of several devices;
 * `place` is the last column (the position unless told). A fuel column for each fuel unit of
 * `devices`, empty in the rows of devices in another unit: litres and gallons never add up.
 */
export function groupFields(ctx: ReportContext, devices: readonly DeviceGroups[], opts: { device?: boolean; place?: Field<GroupRow> } = {}): Field<GroupRow>[] {
  const { units } = ctx;
  const fuelUnits = [...new Set(devices.map((d) => d.fuelUnit).filter((u) => u !== null))];
  return [
    ...(opts.device ? [{ column: { title: "Device" }, cell: (r: GroupRow) => r.d.device.name }] : []),
    { column: { title: "Status" }, cell: (r) => (r.g.status === GroupStatus.drive ? "Drive" : "Stop") },
    { column: { title: "Start" }, cell: (r) => ctx.time(r.g.startMs) },
    { column: { title: "End" }, cell: (r) => ctx.time(r.g.endMs) },
    { column: { title: "Duration" }, cell: (r) => ctx.duration(r.g.durationMs) },
    { column: distanceColumn(units), cell: (r) => units.distance(r.g.distanceKm) },
    { column: speedColumn("Top speed", units), cell: (r) => shownSpeed(units, r.g.topSpeedKmh) },
    // A stop's too (its distance over its time, usually 0), as get_history shows the same group.
    { column: speedColumn("Average speed", units), cell: (r) => shownSpeed(units, r.g.averageSpeedKmh) },
    { column: { title: "Engine idle" }, cell: (r) => ctx.duration(r.g.engineIdleMs) },
    ...fuelUnits.map((unit): Field<GroupRow> => ({ column: fuelColumn(unit), cell: (r) => (r.d.fuelUnit === unit ? r.g.fuelConsumed : null) })),
    opts.place ?? positionField(ctx),
  ];
}

/** Type 3, drives and stops: per device its totals, then its drives and stops. */
export function drivesAndStops(heading: ReportHeading, devices: readonly DeviceGroups[], ctx: ReportContext): ReportDocument {
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: devices.map((d) => ({ heading: d.device.name, summary: figuresSummary(d.figures, ctx), tables: [fieldTable(groupFields(ctx, [d]), groupRowsOf(d), NO_GROUPS)] })),
  };
}

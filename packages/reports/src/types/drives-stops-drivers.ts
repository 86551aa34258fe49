import { GroupStatus } from "@fleet/trips";
import type { Cell, ReportDocument, ReportSection } from "../document.js";
import { isBusinessTime } from "./business-hours.js";
import { subtitle, type ReportContext, type ReportHeading } from "./context.js";
import { groupFields, groupRowsOf, NO_GROUPS, type DeviceGroups, type GroupRow } from "./drives-stops.js";
import { fieldTable, sumOf } from "./fields.js";

/*
 * Drives and stops by driver (types 19, 21, 22): a section per driver across the report's
 * devices, since a driver may drive several, each row naming its device. A group's driver is
 * the card in effect when it began (the segmentation's driverKey).
 */

const NO_DRIVER = "No driver";

interface DriverRows {
  name: string;
  rows: GroupRow[];
}

/** The rows by driver, named by the api (`driverName`) or by their card, in name order; the rows without a card last. */
function byDriver(ctx: ReportContext, rows: readonly GroupRow[]): DriverRows[] {
  const byKey = new Map<string | null, GroupRow[]>();
  for (const r of rows) {
    const mine = byKey.get(r.g.driverKey);
    if (mine) mine.push(r);
    else byKey.set(r.g.driverKey, [r]);
  }
  const named: DriverRows[] = [];
  for (const [key, mine] of byKey) if (key !== null) named.push({ name: ctx.driverName?.(key) ?? key, rows: mine });
  named.sort((a, b) => a.name.localeCompare(b.name, "en"));
  const none = byKey.get(null);
  return none ? [...named, { name: NO_DRIVER, rows: none }] : named;
}

/** A driver's totals over their rows, labelled as general information labels them. */
function driverTotals(ctx: ReportContext, rows: readonly GroupRow[]): [string, Cell][] {
  const drives = rows.filter((r) => r.g.status === GroupStatus.drive);
  const stops = rows.filter((r) => r.g.status === GroupStatus.stop);
  return [
    ["Drives", drives.length],
    ["Stops", stops.length],
    [`Route length (${ctx.units.distanceUnit})`, ctx.units.distance(sumOf(rows, (r) => r.g.distanceKm))],
    ["Move duration", ctx.duration(sumOf(drives, (r) => r.g.durationMs))],
    ["Stop duration", ctx.duration(sumOf(stops, (r) => r.g.durationMs))],
  ];
}

function driverSection(ctx: ReportContext, d: DriverRows, empty: string): ReportSection {
  // Fuel columns for the fuel units of this driver's devices only.
  const devices = [...new Set(d.rows.map((r) => r.d))];
  return { heading: d.name, summary: driverTotals(ctx, d.rows), tables: [fieldTable(groupFields(ctx, devices, { device: true }), d.rows, empty)] };
}

function driversReport(keep: (ctx: ReportContext, r: GroupRow) => boolean, empty: string) {
  return (heading: ReportHeading, devices: readonly DeviceGroups[], ctx: ReportContext): ReportDocument => {
    // By start; devices in the report's order when they start at once (the sort is stable).
    const rows = devices
      .flatMap(groupRowsOf)
      .filter((r) => keep(ctx, r))
      .sort((a, b) => a.g.startMs - b.g.startMs);
    const drivers = byDriver(ctx, rows);
    const sections = drivers.length > 0 ? drivers.map((d) => driverSection(ctx, d, empty)) : [driverSection(ctx, { name: "All drivers", rows: [] }, empty)];
    return { title: heading.title, subtitle: subtitle(heading, ctx), sections };
  };
}

/** Type 19, drives and stops / drivers: each driver's drives and stops in all the report's devices, and their totals. */
export const drivesAndStopsDrivers = driversReport(() => true, NO_GROUPS);

/** Type 21, drives and stops / drivers (business): type 19 with the drives and stops begun in working hours (business-hours.ts). */
export const drivesAndStopsDriversBusiness = driversReport((ctx, r) => isBusinessTime(ctx, r.g.startMs), "No business drives or stops in the period.");

/** Type 22, drives and stops / drivers (private): type 19 with the drives and stops begun outside working hours. */
export const drivesAndStopsDriversPrivate = driversReport((ctx, r) => !isBusinessTime(ctx, r.g.startMs), "No private drives or stops in the period.");

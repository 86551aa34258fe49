import { GroupStatus } from "@fleet/trips";
import type { ReportDocument } from "../document.js";
import { positionText } from "./cells.js";
import { subtitle, type ReportContext, type ReportGeofence, type ReportHeading } from "./context.js";
import { groupFields, groupRowsOf, NO_GROUPS, type DeviceGroups, type GroupRow } from "./drives-stops.js";
import { fieldTable, type Field } from "./fields.js";
import { figuresSummary } from "./general.js";
import { geofenceLookup } from "./geofences.js";

/**
 * Type 18, drives and stops / geofences: type 3 with each stop placed by the geofences holding
 * it (where it began, the point type 3 gives the position of), or by its position in none.
 * A drive is between places, so it keeps its starting position.
 */
export function drivesAndStopsGeofences(heading: ReportHeading, devices: readonly DeviceGroups[], ctx: ReportContext, geofences: readonly ReportGeofence[]): ReportDocument {
  const lookup = geofenceLookup(geofences);
  const place: Field<GroupRow> = {
    column: { title: "Location" },
    cell: ({ g }) => (g.status === GroupStatus.stop && lookup.namesAt(g.at)) || positionText(g.at, ctx),
  };
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: devices.map((d) => ({ heading: d.device.name, summary: figuresSummary(d.figures, ctx), tables: [fieldTable(groupFields(ctx, [d], { place }), groupRowsOf(d), NO_GROUPS)] })),
  };
}

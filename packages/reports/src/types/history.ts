import type { Attributes, HistoryRow } from "@fleet/contracts";
import { rowsInOrder, stepsByRow } from "@fleet/trips";
import type { ReportDocument, ReportTable } from "../document.js";
import { distanceColumn, positionText, shownSpeed, speedColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, sumOf, type Field } from "./fields.js";

/** A position's attributes as one text, "key: value" in the order they were stored. */
export const attributesText = (attributes: Attributes): string =>
  Object.entries(attributes)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(", ");

/**
 * One device's positions, a row each: every stored position (the track's, where the report was
 * not read with its rows), with the step it added as the track measures it (0 for another
 * position of the same instant), so the column adds up to the track's distance.
 */
function positionsTable(t: DeviceTrack, ctx: ReportContext): ReportTable {
  const { units } = ctx;
  const rows = t.rows ? rowsInOrder(t.rows) : t.track.points;
  const steps = stepsByRow(rows);
  const km = (r: HistoryRow) => steps.get(r.id) ?? 0;
  const fields: Field<HistoryRow>[] = [
    { column: { title: "Time" }, cell: (r) => ctx.time(r.fixTime) },
    { column: { title: "Position" }, cell: (r) => positionText(r, ctx) },
    { column: speedColumn("Speed", units), cell: (r) => shownSpeed(units, r.speedKmh) },
    { column: { title: `Altitude (${units.altitudeUnit})`, decimals: 0 }, cell: (r) => units.altitude(r.altitude) },
    { column: { title: "Course", decimals: 0 }, cell: (r) => r.course },
    // From the position before, so the column adds up to the footer's total.
    { column: distanceColumn(units), cell: (r) => units.distance(km(r)), total: (rs) => units.distance(sumOf(rs, km)) },
    { column: { title: "Attributes" }, cell: (r) => attributesText(r.attributes) },
  ];
  return fieldTable(fields, rows, "No positions in the period.");
}

/** Type 25, object history: per device every stored position in the period, with the distance it added. */
export function objectHistory(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument {
  return { title: heading.title, subtitle: subtitle(heading, ctx), sections: tracks.map((t) => ({ heading: t.device.name, tables: [positionsTable(t, ctx)] })) };
}

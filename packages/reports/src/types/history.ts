import type { Attributes } from "@fleet/contracts";
import type { ReportDocument, ReportTable } from "../document.js";
import { distanceColumn, positionText, shownSpeed, speedColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, sumOf, type Field } from "./fields.js";

/** A position's attributes as one text, "key: value" in the order they were stored. */
export const attributesText = (attributes: Attributes): string =>
  Object.entries(attributes)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(", ");

/** One device's positions, a row each: index `i` into the track, so each row finds its step's distance. */
function positionsTable(t: DeviceTrack, ctx: ReportContext): ReportTable {
  const { units } = ctx;
  const { points, stepKm } = t.track;
  const fields: Field<number>[] = [
    { column: { title: "Time" }, cell: (i) => ctx.time(points[i]!.fixTime) },
    { column: { title: "Position" }, cell: (i) => positionText(points[i]!, ctx) },
    { column: speedColumn("Speed", units), cell: (i) => shownSpeed(units, points[i]!.speedKmh) },
    { column: { title: `Altitude (${units.altitudeUnit})`, decimals: 0 }, cell: (i) => units.altitude(points[i]!.altitude) },
    { column: { title: "Course", decimals: 0 }, cell: (i) => points[i]!.course },
    // From the position before, so the column adds up to the footer's total.
    { column: distanceColumn(units), cell: (i) => units.distance(stepKm[i]!), total: (is) => units.distance(sumOf(is, (i) => stepKm[i]!)) },
    { column: { title: "Attributes" }, cell: (i) => attributesText(points[i]!.attributes) },
  ];
  return fieldTable(
    fields,
    points.map((_, i) => i),
    "No positions in the period.",
  );
}

/** Type 25, object history: per device every position in the period, with the distance it added. */
export function objectHistory(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument {
  return { title: heading.title, subtitle: subtitle(heading, ctx), sections: tracks.map((t) => ({ heading: t.device.name, tables: [positionsTable(t, ctx)] })) };
}

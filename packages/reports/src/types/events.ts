import type { ReportDocument, ReportSection } from "../document.js";
import { positionText, shownSpeed, speedColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportEvent, type ReportHeading } from "./context.js";
import { fieldTable, type Field } from "./fields.js";

/** A stored event type as a person reads it: "geofence_in" is "Geofence in". */
export function eventTypeName(type: string): string {
  const words = type.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How many events of each type, by name in alphabetical order so the same types always read in the same order. */
function countsByType(events: readonly ReportEvent[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(eventTypeName(e.type), (counts.get(eventTypeName(e.type)) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b, "en"));
}

function section(t: DeviceTrack, ctx: ReportContext): ReportSection {
  const { units } = ctx;
  // Sorted here as well: the order is the report's promise, whoever read the events.
  const events = [...(t.events ?? [])].sort((a, b) => a.time - b.time);
  const fields: Field<ReportEvent>[] = [
    { column: { title: "Time" }, cell: (e) => ctx.time(e.time) },
    { column: { title: "Type" }, cell: (e) => eventTypeName(e.type) },
    { column: { title: "Message" }, cell: (e) => e.message },
    { column: speedColumn("Speed", units), cell: (e) => shownSpeed(units, e.speedKmh) },
    { column: { title: "Position" }, cell: (e) => positionText(e, ctx) },
  ];
  return { heading: t.device.name, summary: countsByType(events), tables: [fieldTable(fields, events, "No events in the period.")] };
}

/** Type 8, events: per device its events in the period in time order, and how many of each type. */
export function deviceEvents(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument {
  return { title: heading.title, subtitle: subtitle(heading, ctx), sections: tracks.map((t) => section(t, ctx)) };
}

import type { GeofenceIndex } from "@fleet/geo";
import type { ReportDocument, ReportSection } from "../document.js";
import { localDates } from "./calendar.js";
import type { DeviceTrack, ReportContext, ReportGeofence, ReportHeading } from "./context.js";
import { fieldTable, sumOf, type Field } from "./fields.js";
import { geofenceDocument, geofencesAt, type GeofenceLookup } from "./geofences.js";
import { runsWhere } from "./runs.js";
import { shiftDays, shiftParameters, type Presence, type ShiftDay, type ShiftExit, type ShiftParameters } from "./shift-rules.js";

/**
 * The track's stays inside any of the report's geofences: going from one straight into
 * another, with no point outside between, is one stay and no exit.
 */
function presences(t: DeviceTrack, index: GeofenceIndex): Presence[] {
  const { points } = t.track;
  const inside = geofencesAt(points, index);
  return runsWhere(points.length, (i) => inside[i]!.size > 0).map(({ first, last }) => {
    const leftMs = points[last + 1]?.fixTime ?? null;
    return { first, enteredMs: points[first]!.fixTime, leftMs, endMs: leftMs ?? points[last]!.fixTime };
  });
}

const yesNo = (b: boolean) => (b ? "Yes" : "No");
const exitMs = (e: ShiftExit) => e.returnedMs - e.leftMs;

function section(t: DeviceTrack, ctx: ReportContext, heading: ReportHeading, lookup: GeofenceLookup, p: ShiftParameters): ReportSection {
  const { points } = t.track;
  const days = shiftDays(ctx, localDates(ctx, heading.fromMs, heading.toMs), presences(t, lookup.index), p);
  const dayFields: Field<ShiftDay>[] = [
    { column: { title: "Date" }, cell: (d) => d.date },
    { column: { title: "Geofence" }, cell: (d) => lookup.namesAt(points[d.arrival.first]!) },
    { column: { title: "Arrived" }, cell: (d) => ctx.time(d.arrival.enteredMs) },
    { column: { title: "Late arrival" }, cell: (d) => yesNo(d.late) },
    { column: { title: "Left" }, cell: (d) => (d.departureMs === null ? null : ctx.time(d.departureMs)) },
    { column: { title: "Early departure" }, cell: (d) => yesNo(d.early) },
    { column: { title: "Excessive exits", decimals: 0 }, cell: (d) => d.exits.length },
    { column: { title: "Time out" }, cell: (d) => ctx.duration(sumOf(d.exits, exitMs)) },
  ];
  const exits = days.flatMap((d) => d.exits.map((e) => ({ ...e, date: d.date })));
  const exitFields: Field<ShiftExit & { date: string }>[] = [
    { column: { title: "Date" }, cell: (e) => e.date },
    { column: { title: "Left" }, cell: (e) => ctx.time(e.leftMs) },
    { column: { title: "Returned" }, cell: (e) => ctx.time(e.returnedMs) },
    { column: { title: "Duration" }, cell: (e) => ctx.duration(exitMs(e)) },
  ];
  return {
    heading: t.device.name,
    summary: [
      ["Shift", `${p.start}–${p.finish}`],
      ["Shift days", days.length],
      ["Late arrivals", days.filter((d) => d.late).length],
      ["Early departures", days.filter((d) => d.early).length],
      ["Excessive exits", exits.length],
    ],
    tables: [fieldTable(dayFields, days, "No shift spent in the geofences in the period."), fieldTable(exitFields, exits, "No excessive exits in the period.")],
  };
}

/**
 * Type 28, geofence in/out (shift): per device and day, when it arrived in the report's
 * geofences and whether late, when it left and whether early, and its exits during the shift
 * longer than the excessive exit (see shift-rules.ts). Takes the type's stored parameters.
 */
export function geofenceInOutShift(
  heading: ReportHeading,
  tracks: readonly DeviceTrack[],
  ctx: ReportContext,
  geofences: readonly ReportGeofence[],
  parameters: Record<string, number | string>,
): ReportDocument {
  const p = shiftParameters(parameters);
  return geofenceDocument(heading, tracks, ctx, geofences, (t, lookup) => section(t, ctx, heading, lookup, p));
}

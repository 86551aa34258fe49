import type { HistoryRow } from "@fleet/contracts";
import type { ReportDocument } from "../document.js";
import type { DeviceTrack, ReportContext, ReportGeofence, ReportHeading } from "./context.js";
import { fieldTable, type Field } from "./fields.js";
import { geofenceDocument, geofenceVisits, NO_VISITS, visitFields, visitsSection, type GeofenceVisit } from "./geofences.js";

/**
 * ms with the engine on over the steps from point `from` to point `to`: a step counts when the
 * engine ran at both its ends, as engine time is counted without an engine-hours sensor.
 */
export function engineOnMs(points: readonly HistoryRow[], from: number, to: number): number {
  let ms = 0;
  for (let k = from + 1; k <= to; k++) if (points[k - 1]!.engineOn && points[k]!.engineOn) ms += points[k]!.fixTime - points[k - 1]!.fixTime;
  return ms;
}

interface IgnitionVisit extends GeofenceVisit {
  engineOnMs: number;
}

/**
 * Type 20, geofence in/out (ignition ON/OFF): type 7 with each visit's time with the engine on
 * and off. The visit's time runs to the first point outside, so its steps do; the rest of the
 * visit's time, transitions included, is off.
 */
export function geofenceInOutIgnition(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext, geofences: readonly ReportGeofence[]): ReportDocument {
  return geofenceDocument(heading, tracks, ctx, geofences, (t, { geofences: unique, index }) => {
    const { points } = t.track;
    const visits = geofenceVisits(t, unique, index);
    const rows = visits.map((v): IgnitionVisit => ({ ...v, engineOnMs: engineOnMs(points, v.first, v.leftMs === null ? v.last : v.last + 1) }));
    const fields: Field<IgnitionVisit>[] = [
      ...visitFields(ctx),
      { column: { title: "Ignition on" }, cell: (v) => ctx.duration(v.engineOnMs) },
      { column: { title: "Ignition off" }, cell: (v) => ctx.duration(v.durationMs - v.engineOnMs) },
    ];
    return visitsSection(t, ctx, unique, visits, fieldTable(fields, rows, NO_VISITS));
  });
}

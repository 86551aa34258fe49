import type { ReportDocument } from "../document.js";
import { midnightsWithin } from "./calendar.js";
import type { DeviceTrack, ReportContext, ReportGeofence, ReportHeading } from "./context.js";
import { fieldTable } from "./fields.js";
import { geofenceDocument, geofenceVisits, NO_VISITS, visitFields, visitsSection, type GeofenceVisit, type VisitRow } from "./geofences.js";

/**
 * A visit cut at each of the user's midnights, so that each part lies within one day of their
 * clock: the first part entered when the visit was, each later one at its midnight; each part
 * but the last left at the next midnight, the last when the visit was (or not at all, still
 * inside). A part's distance is that of the visit's steps that began in it: a step across
 * midnight was mostly driven on the day it began, and the parts still add up to the visit.
 */
export function dayParts(t: DeviceTrack, ctx: ReportContext, v: GeofenceVisit): VisitRow[] {
  const { points, stepKm } = t.track;
  const endMs = v.leftMs ?? points[v.last]!.fixTime;
  const cuts = [v.enteredMs, ...midnightsWithin(ctx, v.enteredMs, endMs), endMs];
  return cuts.slice(0, -1).map((fromMs, i): VisitRow => {
    const toMs = cuts[i + 1]!;
    let distanceKm = 0;
    for (let k = v.first + 1; k <= v.last; k++) {
      const began = points[k - 1]!.fixTime;
      if (began >= fromMs && began < toMs) distanceKm += stepKm[k]!;
    }
    const lastPart = i === cuts.length - 2;
    return { geofence: v.geofence, enteredMs: fromMs, leftMs: lastPart ? v.leftMs : toMs, durationMs: toMs - fromMs, distanceKm };
  });
}

/**
 * Type 15, geofence in/out 24 hour mode: type 7 with each visit cut at the user's midnights, a
 * row per day of it. The summary counts visits, not rows, so it reads as type 7's does.
 */
export function geofenceInOut24h(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext, geofences: readonly ReportGeofence[]): ReportDocument {
  return geofenceDocument(heading, tracks, ctx, geofences, (t, { geofences: unique, index }) => {
    const visits = geofenceVisits(t, unique, index);
    return visitsSection(t, ctx, unique, visits, fieldTable(visitFields(ctx), visits.flatMap((v) => dayParts(t, ctx, v)), NO_VISITS));
  });
}

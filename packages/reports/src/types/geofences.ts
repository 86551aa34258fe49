import { distanceKm, GeofenceIndex, isGpsJump } from "@fleet/geo";
import type { ReportDocument, ReportSection, ReportTable } from "../document.js";
import { distanceColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportGeofence, type ReportHeading } from "./context.js";
import { fieldTable, sumOf, type Field } from "./fields.js";
import { runsWhere } from "./runs.js";

/**
 * One stay in a geofence: a maximal run of consecutive points inside it. It is entered at its
 * first point inside and left at the first point outside after it, when the geofence_out
 * event would fire; the time between counts as inside, since until then nothing showed the
 * device had gone. A visit still going at the end of the period has no leaving time and lasts
 * to its last point, the last the data shows. Its distance is that of the steps between its
 * points, both ends inside; the leaving step is partly outside by how much no fix tells.
 */
export interface GeofenceVisit {
  geofence: ReportGeofence;
  /** The visit's first and last points inside, as indexes into the track's points. */
  first: number;
  last: number;
  enteredMs: number;
  leftMs: number | null;
  durationMs: number;
  distanceKm: number;
}

/** What a row of the in/out types shows of a visit, or of the part of one a row is about. */
export type VisitRow = Pick<GeofenceVisit, "geofence" | "enteredMs" | "leftMs" | "durationMs" | "distanceKm">;

/**
 * The geofences holding each point, as the alerts see them: a fix reached faster than
 * GPS_JUMP_KMH (a GPS jump, and the fix coming back from one) moves the device in or out of
 * nothing, so a jump out and back is no visit, as it fires no geofence event.
 */
export function geofencesAt(points: readonly { fixTime: number; latitude: number; longitude: number }[], index: GeofenceIndex): ReadonlySet<number>[] {
  const out: ReadonlySet<number>[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const q = points[i - 1];
    const jump = q !== undefined && p.fixTime > q.fixTime && isGpsJump(distanceKm({ lat: q.latitude, lng: q.longitude }, { lat: p.latitude, lng: p.longitude }), p.fixTime - q.fixTime);
    out.push(jump ? out[i - 1]! : new Set(index.containing({ lat: p.latitude, lng: p.longitude })));
  }
  return out;
}

/** Every visit of the track to each geofence, by entry time (geofences in the given order when entered at once). */
export function geofenceVisits(t: DeviceTrack, geofences: readonly ReportGeofence[], index: GeofenceIndex): GeofenceVisit[] {
  const { points, stepKm } = t.track;
  const inside = geofencesAt(points, index);
  const visits = geofences.flatMap((geofence) =>
    runsWhere(points.length, (i) => inside[i]!.has(geofence.id)).map(({ first, last }): GeofenceVisit => {
      const enteredMs = points[first]!.fixTime;
      const leftMs = points[last + 1]?.fixTime ?? null;
      return { geofence, first, last, enteredMs, leftMs, durationMs: (leftMs ?? points[last]!.fixTime) - enteredMs, distanceKm: sumOf(stepKm.slice(first + 1, last + 1), (km) => km) };
    }),
  );
  return visits.sort((a, b) => a.enteredMs - b.enteredMs);
}

export const NO_VISITS = "No geofence visits in the period.";

/** The in/out types' columns: which geofence, when entered and left, how long and how far. */
export function visitFields(ctx: ReportContext): Field<VisitRow>[] {
  const { units } = ctx;
  return [
    { column: { title: "Geofence" }, cell: (v) => v.geofence.name },
    { column: { title: "Entered" }, cell: (v) => ctx.time(v.enteredMs) },
    { column: { title: "Left" }, cell: (v) => (v.leftMs === null ? null : ctx.time(v.leftMs)) },
    { column: { title: "Duration" }, cell: (v) => ctx.duration(v.durationMs) },
    { column: distanceColumn(units), cell: (v) => units.distance(v.distanceKm) },
  ];
}

/** A device's section of the in/out types: the visits to each geofence and the time in it, above `table`. */
export function visitsSection(t: DeviceTrack, ctx: ReportContext, geofences: readonly ReportGeofence[], visits: readonly GeofenceVisit[], table: ReportTable): ReportSection {
  const summary = geofences.flatMap((g) => {
    const mine = visits.filter((v) => v.geofence === g);
    return [[`Visits to ${g.name}`, mine.length] as const, [`Time in ${g.name}`, ctx.duration(sumOf(mine, (v) => v.durationMs))] as const];
  });
  return { heading: t.device.name, summary, tables: [table] };
}

/** The report's geofences as the geofence types look positions up in them. */
export interface GeofenceLookup {
  /** Each once: a list naming one twice would otherwise count its visits twice. */
  geofences: readonly ReportGeofence[];
  /** One index for all the devices: the geofences are the same for each. */
  index: GeofenceIndex;
  /** The names of the geofences holding a point, in id order, joined; "" for none. */
  namesAt(p: { latitude: number; longitude: number }): string;
}

export function geofenceLookup(geofences: readonly ReportGeofence[]): GeofenceLookup {
  const unique = [...new Map(geofences.map((g) => [g.id, g])).values()];
  const index = new GeofenceIndex(unique);
  const names = new Map(unique.map((g) => [g.id, g.name]));
  return {
    geofences: unique,
    index,
    namesAt: (p) =>
      index
        .containing({ lat: p.latitude, lng: p.longitude })
        .map((id) => names.get(id)!)
        .join(", "),
  };
}

/** A geofence type's document: a section per device, all looking positions up in one lookup. */
export function geofenceDocument(
  heading: ReportHeading,
  tracks: readonly DeviceTrack[],
  ctx: ReportContext,
  geofences: readonly ReportGeofence[],
  section: (t: DeviceTrack, lookup: GeofenceLookup) => ReportSection,
): ReportDocument {
  const lookup = geofenceLookup(geofences);
  return { title: heading.title, subtitle: subtitle(heading, ctx), sections: tracks.map((t) => section(t, lookup)) };
}

/** Type 7, geofence in/out: per device its visits to the report's geofences, and the visits and time in each. */
export function geofenceInOut(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext, geofences: readonly ReportGeofence[]): ReportDocument {
  return geofenceDocument(heading, tracks, ctx, geofences, (t, { geofences: unique, index }) => {
    const visits = geofenceVisits(t, unique, index);
    return visitsSection(t, ctx, unique, visits, fieldTable(visitFields(ctx), visits, NO_VISITS));
  });
}

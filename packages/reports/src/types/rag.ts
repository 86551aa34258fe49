import type { Cell, ReportDocument, ReportSection, ReportTable } from "../document.js";
import { distanceColumn, positionText, shownSpeed, speedColumn } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { harshAccelerations, harshBrakings, seatbeltAttribute, seatbeltStates, unbeltedRuns } from "./driving-behaviour.js";
import { fieldTable, sumOf, type Field } from "./fields.js";
import { overspeedRuns } from "./overspeeds.js";
import type { Run } from "./runs.js";

/*
 * RAG (type 14) and RAG / Seatbelt (23): a Red/Amber/Green rating of each device's driving
 * from its incidents per 100 km. Per device rather than per driver card: the report's devices
 * are what its user chose, and few devices read cards, so a card-less fleet would be one
 * "no driver" row.
 */

/** Points off the score for each incident per 100 km. */
export const POINTS_PER_INCIDENT = 10;
/** The least score rated green, and amber. */
export const GREEN_FROM = 80;
export const AMBER_FROM = 50;

/**
 * 100 less 10 for each incident per 100 km driven, whole and never below 0: 2 per 100 km is
 * still green, 5 amber, more red. Per 100 km whatever the user's unit, so a score does not
 * change with the unit. Null without driving: nothing to rate.
 */
export function ragScore(incidents: number, distanceKm: number): number | null {
  if (distanceKm <= 0) return null;
  return Math.max(0, Math.round(100 - POINTS_PER_INCIDENT * ((incidents / distanceKm) * 100)));
}

export function ragRating(score: number | null): string {
  if (score === null) return "Not rated";
  return score >= GREEN_FROM ? "Green" : score >= AMBER_FROM ? "Amber" : "Red";
}

/** A harsh acceleration or braking, for the incidents table. */
interface Incident extends Run {
  name: string;
}

/** A kind of incident in the summary: its count and its rate; `runs` null when it is not counted (no speed limit, no seatbelt sensor). */
interface Tally {
  label: string;
  runs: Run[] | null;
}

function incidentsTable(t: DeviceTrack, ctx: ReportContext, incidents: readonly Incident[]): ReportTable {
  const { units } = ctx;
  const { points } = t.track;
  const fields: Field<Incident>[] = [
    { column: { title: "Time" }, cell: (i) => ctx.time(points[i.first]!.fixTime) },
    { column: { title: "Incident" }, cell: (i) => i.name },
    { column: speedColumn("Speed from", units), cell: (i) => shownSpeed(units, points[i.first]!.speedKmh) },
    { column: speedColumn("Speed to", units), cell: (i) => shownSpeed(units, points[i.last]!.speedKmh) },
    { column: { title: "Position" }, cell: (i) => positionText(points[i.first]!, ctx) },
  ];
  return fieldTable(fields, incidents, "No harsh accelerations or brakings in the period.");
}

const runKm = (t: DeviceTrack, r: Run) => sumOf(t.track.stepKm.slice(r.first + 1, r.last + 1), (km) => km);
const runMs = (t: DeviceTrack, r: Run) => t.track.points[r.last]!.fixTime - t.track.points[r.first]!.fixTime;

/** Each spell of driving unbelted; null runs: the device never reported its seatbelt. */
function unbeltedTable(t: DeviceTrack, ctx: ReportContext, runs: readonly Run[] | null): ReportTable {
  const { units } = ctx;
  const { points } = t.track;
  const fields: Field<Run>[] = [
    { column: { title: "Start" }, cell: (r) => ctx.time(points[r.first]!.fixTime) },
    { column: { title: "End" }, cell: (r) => ctx.time(points[r.last]!.fixTime) },
    { column: { title: "Duration" }, cell: (r) => ctx.duration(runMs(t, r)) },
    { column: distanceColumn(units), cell: (r) => units.distance(runKm(t, r)) },
    { column: { title: "Position" }, cell: (r) => positionText(points[r.first]!, ctx) },
  ];
  return fieldTable(fields, runs ?? [], runs === null ? "The device has no seatbelt sensor." : "No driving unbelted in the period.");
}

/** How far and how long the device was driven unbelted; empty without a seatbelt sensor. */
function unbeltedTotals(t: DeviceTrack, ctx: ReportContext, runs: readonly Run[] | null): [string, Cell][] {
  const { units } = ctx;
  return [
    [`Distance unbelted (${units.distanceUnit})`, runs ? units.distance(sumOf(runs, (r) => runKm(t, r))) : null],
    ["Time unbelted", runs ? ctx.duration(sumOf(runs, (r) => runMs(t, r))) : null],
  ];
}

/** The driving unbelted, or null when no fix in the period says how the seatbelt was. */
function unbeltedOf(t: DeviceTrack): Run[] | null {
  const states = seatbeltStates(t.track.points, t.readings?.seatbelt ?? seatbeltAttribute);
  return states.some((s) => s !== null) ? unbeltedRuns(t.track, states) : null;
}

function section(t: DeviceTrack, ctx: ReportContext, seatbelt: boolean): ReportSection {
  const { units } = ctx;
  const { track } = t;
  const distanceKm = track.totals.distanceKm;
  const accelerations = harshAccelerations(track);
  const brakings = harshBrakings(track);
  const incidents = [...accelerations.map((r) => ({ ...r, name: "Harsh acceleration" })), ...brakings.map((r) => ({ ...r, name: "Harsh braking" }))].sort((a, b) => a.first - b.first);
  const unbelted = seatbelt ? unbeltedOf(t) : null;
  const tallies: Tally[] = [
    { label: "Harsh accelerations", runs: accelerations },
    { label: "Harsh brakings", runs: brakings },
    ...(ctx.speedLimitKmh !== null ? [{ label: "Overspeeds", runs: overspeedRuns(track, ctx.speedLimitKmh) }] : []),
    ...(seatbelt ? [{ label: "Unbelted drives", runs: unbelted }] : []),
  ];
  const shownKm = units.distance(distanceKm);
  const score = ragScore(sumOf(tallies, (x) => x.runs?.length ?? 0), distanceKm);
  const summary: [string, Cell][] = [
    [distanceColumn(units).title, shownKm],
    ...tallies.flatMap(({ label, runs }): [string, Cell][] => [
      [label, runs?.length ?? null],
      // Shown per 100 of the user's unit, as they read distances.
      [`${label} per 100 ${units.distanceUnit}`, runs && shownKm > 0 ? (runs.length / shownKm) * 100 : null],
    ]),
    ...(seatbelt ? unbeltedTotals(t, ctx, unbelted) : []),
    ["Score", score],
    ["Rating", ragRating(score)],
  ];
  return { heading: t.device.name, summary, tables: [incidentsTable(t, ctx, incidents), ...(seatbelt ? [unbeltedTable(t, ctx, unbelted)] : [])] };
}

function ragReport(seatbelt: boolean) {
  return (heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument => ({
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: tracks.map((t) => section(t, ctx, seatbelt)),
  });
}

/** Type 14, RAG: per device its harsh accelerations and brakings (and overspeeds, with a speed limit), each per 100 km, and the rating they earn. */
export const rag = ragReport(false);

/** Type 23, RAG / Seatbelt: type 14 with the driving done unbelted, each spell an incident. */
export const ragSeatbelt = ragReport(true);

import { GroupStatus } from "@fleet/trips";
import type { Cell } from "../document.js";
import { averageKmh, shownSpeed } from "./cells.js";
import type { DeviceTrack, ReportContext } from "./context.js";
import { overspeedCount } from "./overspeeds.js";

/*
 * What general information says about a track, first as plain figures (ms, km, km/h), then as
 * the labelled values a report shows. Keeping the figures apart lets many devices' be combined
 * (the merged report's footer) before anything is converted or rounded.
 */

export interface TrackFigures {
  startMs: number | null;
  endMs: number | null;
  distanceKm: number;
  driveMs: number;
  stopMs: number;
  stops: number;
  topSpeedKmh: number;
  overspeeds: number;
  engineWorkMs: number;
  engineIdleMs: number;
  engineHoursMs: number;
  /** Fuel used by fuel sensor unit: empty without a sensor, one unit per device. */
  fuel: ReadonlyMap<string, number>;
}

/** One labelled value, with the decimals it is shown with in a table. */
export interface Total {
  label: string;
  value: Cell;
  decimals?: number;
}

/** A device with its figures: what the general information types lay out, however the figures were worked out. */
export interface DeviceFigures {
  device: DeviceTrack["device"];
  figures: TrackFigures;
}

/** The figures of a track cut in JS. */
export const deviceFigures = (t: DeviceTrack, speedLimitKmh: number | null): DeviceFigures => ({ device: t.device, figures: trackFigures(t, speedLimitKmh) });

export function trackFigures(t: DeviceTrack, speedLimitKmh: number | null): TrackFigures {
  const { points, totals, groups } = t.track;
  return {
    startMs: points[0]?.fixTime ?? null,
    endMs: points.at(-1)?.fixTime ?? null,
    distanceKm: totals.distanceKm,
    driveMs: totals.driveMs,
    stopMs: totals.stopMs,
    stops: groups.filter((g) => g.status === GroupStatus.stop).length,
    topSpeedKmh: totals.topSpeedKmh,
    overspeeds: overspeedCount(t.track, speedLimitKmh),
    engineWorkMs: totals.engineWorkMs,
    engineIdleMs: totals.engineIdleMs,
    engineHoursMs: totals.engineHoursMs,
    fuel: new Map(t.fuelUnit !== null ? [[t.fuelUnit, totals.fuelConsumed]] : []),
  };
}

const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const latest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * Many tracks' figures as one: sums, except the route's start and end (the earliest and the
 * latest) and the top speed (the highest). Fuel is summed per unit, as litres and gallons
 * do not add up.
 */
export function combinedFigures(all: readonly TrackFigures[]): TrackFigures {
  const fuel = new Map<string, number>();
  for (const f of all) for (const [unit, used] of f.fuel) fuel.set(unit, (fuel.get(unit) ?? 0) + used);
  const sum = (key: "distanceKm" | "driveMs" | "stopMs" | "stops" | "overspeeds" | "engineWorkMs" | "engineIdleMs" | "engineHoursMs") => all.reduce((s, f) => s + f[key], 0);
  return {
    startMs: all.reduce<number | null>((m, f) => earliest(m, f.startMs), null),
    endMs: all.reduce<number | null>((m, f) => latest(m, f.endMs), null),
    distanceKm: sum("distanceKm"),
    driveMs: sum("driveMs"),
    stopMs: sum("stopMs"),
    stops: sum("stops"),
    topSpeedKmh: all.reduce((m, f) => Math.max(m, f.topSpeedKmh), 0),
    overspeeds: sum("overspeeds"),
    engineWorkMs: sum("engineWorkMs"),
    engineIdleMs: sum("engineIdleMs"),
    engineHoursMs: sum("engineHoursMs"),
    fuel,
  };
}

/**
 * The figures as general information lists them, in the user's units. The average speed is
 * the distance over the driving time, so over many devices it weighs each by its driving.
 * The overspeed count shows only when the report has a limit, fuel only for a sensor's unit.
 */
export function totalsOf(f: TrackFigures, ctx: ReportContext): Total[] {
  const { units } = ctx;
  const dist = `(${units.distanceUnit})`;
  const speed = `(${units.speedUnit})`;
  return [
    { label: "Route start", value: f.startMs === null ? null : ctx.time(f.startMs) },
    { label: "Route end", value: f.endMs === null ? null : ctx.time(f.endMs) },
    { label: `Route length ${dist}`, value: units.distance(f.distanceKm), decimals: 2 },
    { label: "Move duration", value: ctx.duration(f.driveMs) },
    { label: "Stop duration", value: ctx.duration(f.stopMs) },
    { label: "Stops", value: f.stops, decimals: 0 },
    { label: `Top speed ${speed}`, value: shownSpeed(units, f.topSpeedKmh), decimals: 0 },
    { label: `Average speed ${speed}`, value: shownSpeed(units, averageKmh(f.distanceKm, f.driveMs)), decimals: 0 },
    ...(ctx.speedLimitKmh !== null ? [{ label: "Overspeed count", value: f.overspeeds, decimals: 0 }] : []),
    { label: "Engine work", value: ctx.duration(f.engineWorkMs) },
    { label: "Engine idle", value: ctx.duration(f.engineIdleMs) },
    { label: "Engine hours", value: ctx.duration(f.engineHoursMs) },
    ...[...f.fuel].map(([unit, used]) => ({ label: `Fuel consumption (${unit})`, value: used, decimals: 2 })),
  ];
}

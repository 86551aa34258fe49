import { GroupStatus, type Group } from "@fleet/trips";
import type { Cell, ReportColumn, ReportDocument, ReportTable } from "../document.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { deviceTotals } from "./general.js";

const average = (km: number, ms: number) => (ms > 0 ? km / (ms / 3_600_000) : 0);

/** The drives and stops of one device, a row each, in time order. */
function groupsTable(t: DeviceTrack, ctx: ReportContext): ReportTable {
  const { units } = ctx;
  const fuel = t.fuelUnit !== null;
  const columns: ReportColumn[] = [
    { title: "Status" },
    { title: "Start" },
    { title: "End" },
    { title: "Duration" },
    { title: `Distance (${units.distanceUnit})`, decimals: 2 },
    { title: `Top speed (${units.speedUnit})`, decimals: 0 },
    { title: `Average speed (${units.speedUnit})`, decimals: 0 },
    { title: "Engine idle" },
    ...(fuel ? [{ title: `Fuel consumption (${t.fuelUnit})`, decimals: 2 }] : []),
    { title: "Position" },
  ];
  const row = (g: Group): Cell[] => {
    const at = t.track.points[g.first]!;
    return [
      g.status === GroupStatus.drive ? "Drive" : "Stop",
      ctx.time(g.startMs),
      ctx.time(g.endMs),
      ctx.duration(g.durationMs),
      units.distance(g.distanceKm),
      Math.round(units.speed(g.topSpeedKmh)),
      Math.round(units.speed(g.status === GroupStatus.drive ? average(g.distanceKm, g.durationMs) : 0)),
      ctx.duration(g.engineIdleMs),
      ...(fuel ? [g.fuelConsumed] : []),
      `${at.latitude.toFixed(6)}, ${at.longitude.toFixed(6)}`,
    ];
  };
  const rows = t.track.groups.filter((g) => g.status === GroupStatus.drive || g.status === GroupStatus.stop).map(row);
  return { columns, rows, empty: "No drives or stops in the period." };
}

/** Type 3, drives and stops: per device its totals, then its drives and stops. */
export function drivesAndStops(heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument {
  return {
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: tracks.map((t) => ({ heading: t.device.name, summary: deviceTotals(t, ctx), tables: [groupsTable(t, ctx)] })),
  };
}

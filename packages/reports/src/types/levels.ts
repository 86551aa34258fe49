import type { HistoryRow } from "@fleet/contracts";
import type { Cell, ReportDocument, ReportSection } from "../document.js";
import { positionText, withUnit } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, sumOf, type Field } from "./fields.js";
import { changedReadings, readingsOf, type Reading } from "./readings.js";

/*
 * A sensor's level over the period (fuel, type 10; temperature, type 13): the readings as a
 * table, a row where the level changed, and figures over all the readings in the summary.
 */

interface LevelKind {
  /** The sensor as the empty texts name it ("fuel"). */
  sensor: string;
  /** The level column's title, before its unit. */
  title: string;
  decimals: number;
  read(t: DeviceTrack): ((row: HistoryRow) => number | null) | undefined;
  unit(t: DeviceTrack): string | null | undefined;
  /** The summary over every reading, in order (none when there were none: then each figure is empty). */
  summary(values: readonly number[], unit: string | null | undefined): [string, Cell][];
}

// Reduced rather than spread into Math.min: a month of fixes is more arguments than a call takes.
const lowest = (values: readonly number[]) => (values.length > 0 ? values.reduce((a, b) => Math.min(a, b)) : null);
const highest = (values: readonly number[]) => (values.length > 0 ? values.reduce((a, b) => Math.max(a, b)) : null);

const FUEL: LevelKind = {
  sensor: "fuel",
  title: "Fuel level",
  decimals: 2,
  read: (t) => t.readings?.fuel,
  unit: (t) => t.fuelUnit,
  summary: (values, unit) => [
    [withUnit("Start level", unit), values[0] ?? null],
    [withUnit("End level", unit), values.at(-1) ?? null],
    [withUnit("Minimum level", unit), lowest(values)],
    [withUnit("Maximum level", unit), highest(values)],
  ],
};

const TEMPERATURE: LevelKind = {
  sensor: "temperature",
  title: "Temperature",
  decimals: 1,
  read: (t) => t.readings?.temperature,
  unit: (t) => t.readings?.temperatureUnit,
  // The mean of the readings, each once, as the speed reports average their fixes' speeds.
  summary: (values, unit) => [
    [withUnit("Minimum temperature", unit), lowest(values)],
    [withUnit("Maximum temperature", unit), highest(values)],
    [withUnit("Average temperature", unit), values.length > 0 ? sumOf(values, (v) => v) / values.length : null],
  ],
};

function section(t: DeviceTrack, ctx: ReportContext, kind: LevelKind): ReportSection {
  const read = kind.read(t);
  const unit = kind.unit(t);
  const { points } = t.track;
  const readings = read ? readingsOf(points, read) : [];
  const fields: Field<Reading>[] = [
    { column: { title: "Time" }, cell: (r) => ctx.time(points[r.index]!.fixTime) },
    { column: { title: withUnit(kind.title, unit), decimals: kind.decimals }, cell: (r) => r.value },
    { column: { title: "Position" }, cell: (r) => positionText(points[r.index]!, ctx) },
  ];
  const empty = read ? `No ${kind.sensor} readings in the period.` : `The device has no ${kind.sensor} sensor.`;
  return {
    heading: t.device.name,
    summary: read ? kind.summary(readings.map((r) => r.value), unit).map(([label, value]) => [label, value, kind.decimals] as const) : [],
    tables: [fieldTable(fields, changedReadings(readings), empty)],
  };
}

function levelReport(kind: LevelKind) {
  return (heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument => ({
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: tracks.map((t) => section(t, ctx, kind)),
  });
}

/** Type 10, fuel level: per device its fuel sensor's level over the period, and where it started, ended, and its lowest and highest. */
export const fuelLevel = levelReport(FUEL);

/** Type 13, temperature: per device its temperature sensor's readings over the period, and their lowest, highest and average. */
export const temperature = levelReport(TEMPERATURE);

import type { HistoryRow } from "@fleet/contracts";
import type { Segmentation } from "@fleet/trips";
import type { ReportDocument, ReportSection } from "../document.js";
import { positionText, withUnit } from "./cells.js";
import { subtitle, type DeviceTrack, type ReportContext, type ReportHeading } from "./context.js";
import { fieldTable, sumOf, type Field } from "./fields.js";
import { readingsOf } from "./readings.js";

/** The least change that counts when the device does not say (min_fuel_fillings' and min_fuel_thefts' default). */
export const DEFAULT_MIN_FUEL_CHANGE = 10;

/** A filling or a theft: from the level before it to the level where it stopped. */
export interface FuelChange {
  /** The fix where the change first reached the threshold: where the fuel_change alert fires. */
  index: number;
  /** The fix where the level stopped rising (a filling) or falling (a theft). */
  endIndex: number;
  before: number;
  after: number;
}

/**
 * The track's fillings (`direction` 1) or thefts (-1) of at least `threshold`, found as the
 * rules service's fuel_change detector finds them (docs/decisions.md, "fuel_change"): while
 * the device stands, the level is compared with the highest (for thefts) or lowest (for
 * fillings) since it stopped (its first standing reading, which is itself compared with the
 * last one on the move; or since the last change found in that stop), so a filling or a
 * siphoning spread over many fixes counts, and a siphoning after a filling in the same stop;
 * while it moves, with the reading before, so fuel burnt on the road is never a theft. Where
 * the detector fires, the change is followed on over the standing fixes after it for as long
 * as the level keeps going the same way, so one filling is one row, its amount from the level
 * before it to where it stopped (never into a drive, where a falling level is fuel burnt).
 * A fix without a reading is skipped, the level standing until the next.
 */
export function fuelChanges(track: Segmentation, levelAt: (row: HistoryRow) => number | null, direction: 1 | -1, threshold: number): FuelChange[] {
  const readings = readingsOf(track.points, levelAt);
  // Idling is as on the move (as the alert): an engine running at a stop burns fuel, which is not a theft.
  const standing = (r: number) => !track.moving[readings[r]!.index] && !track.points[readings[r]!.index]!.engineOn;
  const out: FuelChange[] = [];
  let previous: number | null = null;
  /** While standing: the level the stop's readings are compared with. */
  let standingFrom: number | null = null;
  for (let r = 0; r < readings.length; r++) {
    const { index, value } = readings[r]!;
    const from: number = standing(r) ? (standingFrom ?? previous ?? value) : (previous ?? value);
    const change = direction * (value - from);
    // Positive as well as at least the threshold: a threshold of 0 counts every change, not every reading.
    if (change > 0 && change >= threshold) {
      let end = r;
      while (end + 1 < readings.length && standing(end + 1) && direction * (readings[end + 1]!.value - readings[end]!.value) > 0) end++;
      const after = readings[end]!.value;
      out.push({ index, endIndex: readings[end]!.index, before: from, after });
      previous = after;
      standingFrom = standing(end) ? after : null;
      r = end;
      continue;
    }
    // The level when it stopped is its first standing reading's: measured from the last reading
    // on the move, a theft in the stop would count the fuel burnt in between. Then followed up
    // for a theft (down for a filling), as the alert does: a siphoning after a filling in the
    // same stop is measured from the filled level, not from the level before the filling.
    standingFrom = !standing(r) ? null : standingFrom === null ? value : direction < 0 ? Math.max(standingFrom, value) : Math.min(standingFrom, value);
    previous = value;
  }
  return out;
}

interface ChangeKind {
  direction: 1 | -1;
  /** The report's count label and, lower case, its empty text's ("Fuel fillings"). */
  name: string;
  thresholdLabel: string;
  totalLabel: string;
  threshold(t: DeviceTrack): number;
}

const FILLINGS: ChangeKind = { direction: 1, name: "Fuel fillings", thresholdLabel: "Minimum rise", totalLabel: "Fuel filled", threshold: (t) => t.device.minFuelFillings ?? DEFAULT_MIN_FUEL_CHANGE };
const THEFTS: ChangeKind = { direction: -1, name: "Fuel thefts", thresholdLabel: "Minimum drop", totalLabel: "Fuel stolen", threshold: (t) => t.device.minFuelThefts ?? DEFAULT_MIN_FUEL_CHANGE };

const amountOf = (c: FuelChange) => Math.abs(c.after - c.before);

function section(t: DeviceTrack, ctx: ReportContext, kind: ChangeKind): ReportSection {
  const read = t.readings?.fuel;
  const { points } = t.track;
  const unit = t.fuelUnit;
  const threshold = kind.threshold(t);
  const changes = read ? fuelChanges(t.track, read, kind.direction, threshold) : [];
  const fields: Field<FuelChange>[] = [
    { column: { title: "Time" }, cell: (c) => ctx.time(points[c.index]!.fixTime) },
    { column: { title: "Position" }, cell: (c) => positionText(points[c.index]!, ctx) },
    { column: { title: withUnit("Level before", unit), decimals: 2 }, cell: (c) => c.before },
    { column: { title: withUnit("Level after", unit), decimals: 2 }, cell: (c) => c.after },
    { column: { title: withUnit("Amount", unit), decimals: 2 }, cell: amountOf },
  ];
  if (!read) return { heading: t.device.name, summary: [], tables: [fieldTable(fields, [], "The device has no fuel sensor.")] };
  return {
    heading: t.device.name,
    summary: [
      [withUnit(kind.thresholdLabel, unit), threshold, 2],
      [kind.name, changes.length, 0],
      [withUnit(kind.totalLabel, unit), sumOf(changes, amountOf), 2],
    ],
    tables: [fieldTable(fields, changes, `No ${kind.name.toLowerCase()} in the period.`)],
  };
}

function changeReport(kind: ChangeKind) {
  return (heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext): ReportDocument => ({
    title: heading.title,
    subtitle: subtitle(heading, ctx),
    sections: tracks.map((t) => section(t, ctx, kind)),
  });
}

/** Type 11, fuel fillings: per device each rise of the fuel level of at least its min_fuel_fillings, and their count and total. */
export const fuelFillings = changeReport(FILLINGS);

/** Type 12, fuel thefts: per device each drop of the fuel level of at least its min_fuel_thefts, and their count and total. */
export const fuelThefts = changeReport(THEFTS);

/*
 * Tracks and settings with known answers, for the report types' tests only: vehicles heading
 * due north from 54°N 25°E (TrackBuilder), a fix every 10 s from 08:00 UTC, times in UTC and
 * durations in seconds so that an expected cell reads as plainly as the track is built.
 */
import { expect } from "vitest";
import { userUnits, wallClockMs, type Attributes, type HistoryRow } from "@fleet/contracts";
import { segmentTrack } from "@fleet/trips";
import { TrackBuilder } from "@fleet/trips/testing";
import { isDuration, type Cell } from "../document.js";
import type { DeviceTrack, ReportContext, ReportEvent, ReportHeading, SensorReadings } from "./context.js";
import { deviceGroups, type DeviceGroups } from "./drives-stops.js";

export const T0 = Date.UTC(2026, 0, 5, 8);

export const KM = userUnits({ unitOfDistance: "km", unitOfAltitude: "mt" });
export const MI = userUnits({ unitOfDistance: "mi", unitOfAltitude: "ft" });

const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
const seconds = (ms: number) => ({ durationMs: ms, text: `${ms / 1000}s` });

const durationLike = (v: unknown): v is { durationMs: number; text: string } => typeof v === "object" && v !== null && "durationMs" in v && "text" in v;
/** A duration cell equals its text in the types' expectations, which read as the report shows them ("610s"). */
expect.addEqualityTesters([(a, b) => (durationLike(a) && typeof b === "string" ? a.text === b : durationLike(b) && typeof a === "string" ? b.text === a : undefined)]);

/** The user's clock is UTC unless told: `time` writes it and `localInstant` reads it. */
export const ctx = (over: Partial<ReportContext> = {}): ReportContext => ({ units: KM, time: utc, duration: seconds, speedLimitKmh: null, localInstant: wallClockMs, ...over });
const TWO_HOURS = 7_200_000;

function easternInstant(date: string, time: string): number | undefined {
  const wall = wallClockMs(date, time);
  return wall === undefined ? undefined : wall - TWO_HOURS;
}

/** A user two hours east of UTC (no summer time): 08:00 UTC is 10:00 on their clock, their midnight 22:00 UTC. */
export const eastern = (over: Partial<ReportContext> = {}): ReportContext => ctx({ time: (ms) => utc(ms + TWO_HOURS), localInstant: easternInstant, ...over });

export const heading = (typeName: string): ReportHeading => ({ title: "Weekly", typeName, fromMs: T0, toMs: T0 + 86_400_000 });

/** A number attribute each fix may carry, read back as a sensor would read it. */
export const numberAttribute = (key: string) => (row: HistoryRow) => (typeof row.attributes[key] === "number" ? row.attributes[key] : null);

/** The fixes with `key` set to each value in turn; null leaves a fix without it. */
export function withAttribute(rows: HistoryRow[], key: string, values: readonly (Attributes[string] | null)[]): HistoryRow[] {
  return rows.map((r, i) => {
    const value = values[i] ?? null;
    const attributes: Attributes = value === null ? r.attributes : { ...r.attributes, [key]: value };
    return { ...r, attributes };
  });
}

/** The fuel level each fix carries (`withFuel`), read back as the device's fuel sensor. */
const fuelAt = numberAttribute("fuel");

interface TrackExtra {
  /** The fixes carry a fuel level in litres (`fuel`), read as the device's fuel sensor. */
  fuel?: boolean;
  events?: ReportEvent[];
  readings?: SensorReadings;
  device?: Partial<DeviceTrack["device"]>;
  /** Read by the segmentation, for each group's driver. */
  driverKeyAt?: (row: HistoryRow) => string | null;
}

/** A device's track cut as the reports cut it: moving above 6 km/h, stops of 5 minutes or more; fuel in litres when its fixes carry a level. */
export function deviceTrack(id: number, name: string, rows: HistoryRow[], extra: TrackExtra = {}): DeviceTrack {
  const fuel = extra.fuel ? { levelAt: fuelAt, minFilling: 5, minTheft: 5 } : undefined;
  const readings = { ...(extra.fuel ? { fuel: fuelAt } : {}), ...extra.readings };
  return {
    device: { id, name, plateNumber: "", ...extra.device },
    track: segmentTrack(rows, { minMovingSpeedKmh: 6, hasEngineSensor: false, minStopMs: 300_000, ...(fuel ? { fuel } : {}), ...(extra.driverKeyAt ? { driverKeyAt: extra.driverKeyAt } : {}) }),
    fuelUnit: extra.fuel ? "l" : null,
    ...(extra.events ? { events: extra.events } : {}),
    ...(Object.keys(readings).length > 0 ? { readings } : {}),
  };
}

/** A tank going down 0.1 l a fix: a group's consumption is a tenth of its steps. */
export const withFuel = (rows: HistoryRow[]): HistoryRow[] => rows.map((r, i) => ({ ...r, attributes: { ...r.attributes, fuel: 100 - i * 0.1 } }));

/** 10 km at 60 km/h (08:00:00–08:10:10), 10 minutes standing, 10 km at 120 km/h (08:20:10–08:25:10). */
export const truckRows = (start = T0) => new TrackBuilder(start).fix().drive(600).stand(600).drive(300, 120).rows;
export const truck = () => deviceTrack(1, "Truck 1", truckRows());
export const emptyTrack = () => deviceTrack(2, "Van 2", []);
/** A track's drives and stops as the drives and stops types read them, without a speed limit. */
export const groups = (t: DeviceTrack): DeviceGroups => deviceGroups(t, null);

/** Numbers to 3 decimals, so sums of floats compare with what a person works out. */
/** Cells as a test compares them: numbers to 3 decimals, durations as their text. */
export const rounded = (cells: readonly Cell[] | undefined) => cells?.map((c) => (typeof c === "number" ? Math.round(c * 1000) / 1000 : isDuration(c) ? c.text : c));

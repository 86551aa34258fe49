import { KM_PER_MILE, findReportType, userClock, userUnits, type HistoryRange, type ReportFormat } from "@fleet/contracts";
import { findUserDriversByRfid, listUserDeviceEvents, type Db, type Geofence, type ReportInput, type Sensor, type User } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import * as types from "@fleet/reports";
import { renderReport, type DeviceFigures, type DeviceTrack, type RenderedReport, type ReportContext, type ReportDocument, type ReportGeofence, type ReportHeading } from "@fleet/reports";
import { segmentTrack } from "@fleet/trips";
import { formatDuration } from "../lib/live-item.js";
import type { LiveRecord } from "../lib/live-records.js";
import { localTimes } from "../lib/local-times.js";
import { generalFigures, type FiguresDeps } from "./report-figures.js";
import { placeNamer, type PlaceDeps } from "./report-places.js";
import { isFuelLevel, numberAt, segmentOptions } from "./track-cut.js";

/*
 * Making a report's file from a definition and a period: what generate_report and the
 * scheduled emails share. Each type names the builder that lays it out and what it reads
 * besides the devices' tracks.
 */

export interface ReportMakingDeps extends PlaceDeps, FiguresDeps {
  db: Db;
  history: Pick<HistoryStore, "queryRows" | "trackTotals">;
}

type Builder = (heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext, geofences: readonly ReportGeofence[], parameters: Record<string, number | string>) => ReportDocument;
type FiguresBuilder = (heading: ReportHeading, devices: readonly DeviceFigures[], ctx: ReportContext) => ReportDocument;

interface TypeSpec {
  build: Builder;
  /**
   * It lays out all devices together (a row per device, a section per driver). The others are
   * laid out device by device, so no device's positions are kept past its own sections.
   */
  combined?: boolean;
  /** It lists the devices' events. */
  events?: boolean;
  /** It names the drivers whose cards its devices read. */
  drivers?: boolean;
  /** It names stops by every geofence of the user, not the report's (type 18 has no geofences field). */
  allGeofences?: boolean;
}

/** Every type of the catalogue but the two customer-specific ones (24, 27), by id (docs/decisions.md, "Reports that run"). */
const TYPES: Partial<Record<number, TypeSpec>> = {
  3: { build: types.drivesAndStops },
  4: { build: types.travelSheet },
  5: { build: types.overspeeds },
  6: { build: types.underspeeds },
  7: { build: types.geofenceInOut },
  8: { build: types.deviceEvents, events: true },
  10: { build: types.fuelLevel },
  11: { build: types.fuelFillings },
  12: { build: types.fuelThefts },
  13: { build: types.temperature },
  14: { build: types.rag },
  15: { build: types.geofenceInOut24h },
  18: { build: types.drivesAndStopsGeofences, allGeofences: true },
  19: { build: types.drivesAndStopsDrivers, combined: true, drivers: true },
  20: { build: types.geofenceInOutIgnition },
  21: { build: types.drivesAndStopsDriversBusiness, combined: true, drivers: true },
  22: { build: types.drivesAndStopsDriversPrivate, combined: true, drivers: true },
  23: { build: types.ragSeatbelt },
  25: { build: types.objectHistory },
  28: { build: types.geofenceInOutShift },
};

/** The general information types: they lay out each device's figures, not its track (see report-figures.ts). */
const FIGURE_TYPES: Partial<Record<number, FiguresBuilder>> = {
  1: types.generalInformation,
  2: types.generalInformationMerged,
  16: types.generalInformationMergedCustom,
};

/** Whether a type can be made yet. */
export const canMake = (type: number): boolean => TYPES[type] !== undefined || FIGURE_TYPES[type] !== undefined;

/** A stored event as a report lists it. */
async function eventsOf(db: Db, userId: number, deviceId: number, range: HistoryRange): Promise<DeviceTrack["events"]> {
  // The range's `to` is inclusive, the events store's exclusive.
  const rows = await listUserDeviceEvents(db, userId, deviceId, { fromMs: range.fromMs, toMs: range.toMs + 1 });
  return rows.map((e) => ({ time: e.time.getTime(), type: e.type, message: e.message, latitude: e.latitude, longitude: e.longitude, speedKmh: e.speedKmh }));
}

/** The user's geofences the report is about (all of them when `ids` is undefined), as the geofence types read them. */
function geofencesOf(userGeofences: readonly Geofence[], ids: readonly number[] | undefined): ReportGeofence[] {
  const wanted = ids && new Set(ids);
  return userGeofences.filter((g) => !wanted || wanted.has(g.id)).map((g) => ({ id: g.id, name: g.name, shape: g }));
}

/** How the types that list sensor readings read this device's. */
function readingsOf(sensors: readonly Sensor[]): DeviceTrack["readings"] {
  const fuel = sensors.find(isFuelLevel);
  const temperature = sensors.find((s) => s.type === "temperature");
  return {
    ...(fuel ? { fuel: (row) => numberAt(fuel, row) } : {}),
    ...(temperature ? { temperature: (row) => numberAt(temperature, row), temperatureUnit: temperature.unitOfMeasurement } : {}),
  };
}

/** The user's drivers' names by the cards the tracks' groups were driven with. */
async function driverNames(db: Db, userId: number, tracks: readonly DeviceTrack[]): Promise<(card: string) => string> {
  const cards = [...new Set(tracks.flatMap((t) => t.track.groups.map((g) => g.driverKey)).filter((k): k is string => k !== null))];
  const byCard = await findUserDriversByRfid(db, userId, cards);
  return (card) => byCard.get(card)?.name ?? card;
}

/** The user's records a report reads: its devices (in the order asked) and the user's geofences (for the geofence types and zones_instead). */
export interface ReportRecords {
  devices: readonly LiveRecord[];
  geofences: readonly Geofence[];
}

type Definition = Pick<ReportInput, "title" | "type" | "stops" | "speedLimit" | "geofences" | "showAddresses" | "zonesInstead" | "parameters">;

/**
 * The report's file: its devices' tracks over the period, laid out by its type, rendered in
 * `format`. Devices are read one at a time and, but for the types that combine them, laid out
 * one at a time: a month of a fleet's positions does not fit in memory at once.
 */
export async function makeReport(deps: ReportMakingDeps, user: User, definition: Definition, of: ReportRecords, range: HistoryRange, format: ReportFormat): Promise<RenderedReport> {
  const { devices } = of;
  const type = findReportType(definition.type)!;
  const spec = TYPES[type.type];
  const figures = FIGURE_TYPES[type.type];
  const clock = userClock(user);
  const units = userUnits(user);
  const ctx: ReportContext = {
    units,
    time: localTimes(clock),
    duration: formatDuration,
    speedLimitKmh: definition.speedLimit === null ? null : units.distanceUnit === "mi" ? definition.speedLimit * KM_PER_MILE : definition.speedLimit,
    localInstant: (date, time) => clock.toInstant(date, time),
  };
  const heading: ReportHeading = { title: definition.title, typeName: type.name, fromMs: range.fromMs, toMs: range.toMs };

  const trackOf = async ({ device, sensors }: LiveRecord): Promise<DeviceTrack> => {
    const rows = await deps.history.queryRows({ deviceId: device.id, fromMs: range.fromMs, toMs: range.toMs });
    const fuel = sensors.find(isFuelLevel);
    return {
      device: { id: device.id, name: device.name, plateNumber: device.plateNumber, minFuelFillings: Number(device.minFuelFillings), minFuelThefts: Number(device.minFuelThefts) },
      track: segmentTrack(rows, segmentOptions(device, sensors, definition.stops * 60, rows)),
      fuelUnit: fuel ? fuel.unitOfMeasurement : null,
      readings: readingsOf(sensors),
      ...(spec?.events ? { events: await eventsOf(deps.db, user.id, device.id, range) } : {}),
    };
  };
  if (figures) {
    const asked = { range, stopsMinutes: definition.stops, speedLimitKmh: ctx.speedLimitKmh };
    return renderReport(figures(heading, await generalFigures(deps, devices, asked, trackOf), ctx), format);
  }
  if (!spec) throw new Error(`report type ${type.type} cannot be made`);
  const geofences = geofencesOf(of.geofences, spec.allGeofences ? undefined : definition.geofences);
  const names = placeNamer(deps, definition, of.geofences);
  /** These tracks laid out; with places, laid out once to learn which positions it shows, then again with their names. */
  const layOut = async (tracks: readonly DeviceTrack[]): Promise<ReportDocument> => {
    const base = spec.drivers ? { ...ctx, driverName: await driverNames(deps.db, user.id, tracks) } : ctx;
    const build = (c: ReportContext) => spec.build(heading, tracks, c, geofences, definition.parameters);
    if (!names) return build(base);
    const shown: { latitude: number; longitude: number }[] = [];
    build({ ...base, place: (p) => void shown.push(p) });
    return build({ ...base, place: await names(shown) });
  };

  if (spec.combined) {
    const tracks: DeviceTrack[] = [];
    for (const d of devices) tracks.push(await trackOf(d));
    return renderReport(await layOut(tracks), format);
  }
  const doc = await layOut([]);
  const sections = [];
  for (const d of devices) sections.push(...(await layOut([await trackOf(d)])).sections);
  return renderReport({ ...doc, sections: [...doc.sections, ...sections] }, format);
}

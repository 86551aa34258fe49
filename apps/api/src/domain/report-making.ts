import { InvalidInputError, KM_PER_MILE, defaultReportStopMinutes, findReportType, userUnits, type HistoryRange, type ReportFormat } from "@fleet/contracts";
import { findUserDriversByRfid, listUserDeviceEvents, type Db, type Geofence, type ReportInput, type Sensor, type User } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import * as types from "@fleet/reports";
import { deviceFigures, deviceGroups, renderReport, type DeviceFigures, type DeviceGroups, type DeviceTrack, type RenderedReport, type ReportContext, type ReportDocument, type ReportGeofence, type ReportHeading } from "@fleet/reports";
import { segmentTrack } from "@fleet/trips";
import { clockOf } from "../lib/clock.js";
import type { Slots } from "../lib/slots.js";
import { formatDuration } from "../lib/live-item.js";
import type { LiveRecord } from "../lib/live-records.js";
import { localTimes } from "../lib/local-times.js";
import { cutByEngine, engineCuts, engineFigures, engineGroups, type EngineDeps } from "./report-engine.js";
import { placeNamer, type PlaceDeps } from "./report-places.js";
import { isFuelLevel, numberAt, segmentOptions } from "./track-cut.js";

/*
 * Making a report's file from a definition and a period: what generate_report and the
 * scheduled emails share. Each type names the builder that lays it out, what it reads of each
 * device (its whole track, its drives and stops, or its figures) and what it reads besides.
 */

export interface ReportMakingDeps extends PlaceDeps, EngineDeps {
  db: Db;
  history: Pick<HistoryStore, "queryRows" | "trackTotals" | "count">;
  /** Reports made at once in this process: each may hold a device's month of positions. */
  slots: Slots;
}

/** Positions object history (type 25, a row each) lists at most, over all its devices: about a thousand PDF pages. */
export const LISTED_POSITIONS_MAX = 50_000;
/** Positions of one device a report reads into the process at most. */
export const READ_POSITIONS_MAX = 1_000_000;

type Builder<T> = (heading: ReportHeading, devices: readonly T[], ctx: ReportContext, geofences: readonly ReportGeofence[], parameters: Record<string, number | string>) => ReportDocument;

/** What a type lays out of each device: its track; its drives and stops (types 3, 18, 19, 21, 22); its figures (1, 2, 16). */
type Reads = { reads: "track"; build: Builder<DeviceTrack> } | { reads: "groups"; build: Builder<DeviceGroups> } | { reads: "figures"; build: Builder<DeviceFigures> };

type TypeSpec = Reads & {
  /**
   * It lays out all devices together (a row per device, a section per driver). The others are
   * laid out device by device, so no device's positions are kept past its own sections.
   */
  combined?: boolean;
  /** It lists the devices' events. */
  events?: boolean;
  /** It lists every stored position, those of one instant included (object history). */
  rows?: boolean;
  /** It names the drivers whose cards its devices read. */
  drivers?: boolean;
  /** It names stops by every geofence of the user, not the report's (type 18 has no geofences field). */
  allGeofences?: boolean;
};

/** Every type of the catalogue but the two customer-specific ones (24, 27), by id (docs/decisions.md, "Reports that run"). */
const TYPES: Partial<Record<number, TypeSpec>> = {
  1: { reads: "figures", build: types.generalInformation },
  2: { reads: "figures", build: types.generalInformationMerged, combined: true },
  3: { reads: "groups", build: types.drivesAndStops },
  4: { reads: "track", build: types.travelSheet },
  5: { reads: "track", build: types.overspeeds },
  6: { reads: "track", build: types.underspeeds },
  7: { reads: "track", build: types.geofenceInOut },
  8: { reads: "track", build: types.deviceEvents, events: true },
  10: { reads: "track", build: types.fuelLevel },
  11: { reads: "track", build: types.fuelFillings },
  12: { reads: "track", build: types.fuelThefts },
  13: { reads: "track", build: types.temperature },
  14: { reads: "track", build: types.rag },
  15: { reads: "track", build: types.geofenceInOut24h },
  16: { reads: "figures", build: types.generalInformationMergedCustom, combined: true },
  18: { reads: "groups", build: types.drivesAndStopsGeofences, allGeofences: true },
  19: { reads: "groups", build: types.drivesAndStopsDrivers, combined: true, drivers: true },
  20: { reads: "track", build: types.geofenceInOutIgnition },
  21: { reads: "groups", build: types.drivesAndStopsDriversBusiness, combined: true, drivers: true },
  22: { reads: "groups", build: types.drivesAndStopsDriversPrivate, combined: true, drivers: true },
  23: { reads: "track", build: types.ragSeatbelt },
  25: { reads: "track", build: types.objectHistory, rows: true },
  28: { reads: "track", build: types.geofenceInOutShift },
};

/** Whether a type can be made yet. */
export const canMake = (type: number): boolean => TYPES[type] !== undefined;

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

/** The user's drivers' names by the cards the devices' groups were driven with. */
async function driverNames(db: Db, userId: number, devices: readonly DeviceGroups[]): Promise<(card: string) => string> {
  const cards = [...new Set(devices.flatMap((d) => d.groups.map((g) => g.driverKey)).filter((k): k is string => k !== null))];
  const byCard = await findUserDriversByRfid(db, userId, cards);
  return (card) => byCard.get(card)?.name ?? card;
}

/** The user's records a report reads: its devices (in the order asked) and the user's geofences (for the geofence types and zones_instead). */
export interface ReportRecords {
  devices: readonly LiveRecord[];
  geofences: readonly Geofence[];
}

type Definition = Pick<ReportInput, "title" | "type" | "stops" | "speedLimit" | "geofences" | "showAddresses" | "zonesInstead" | "parameters">;

/** The device as a report names it. */
const reportDevice = (device: LiveRecord["device"]): DeviceTrack["device"] => ({
  id: device.id,
  name: device.name,
  plateNumber: device.plateNumber,
  minFuelFillings: Number(device.minFuelFillings),
  minFuelThefts: Number(device.minFuelThefts),
});

/**
 * Refuses, before anything is made, a report whose period holds more positions than it can
 * lay out: object history past LISTED_POSITIONS_MAX in all, or a device whose positions are read
 * into the process past READ_POSITIONS_MAX. Four such reports at once used to run the server out
 * of memory; what the engine cuts reads no positions and is not counted.
 */
export async function checkReportSize(deps: Pick<ReportMakingDeps, "history">, type: number, devices: readonly LiveRecord[], range: HistoryRange): Promise<void> {
  const spec = TYPES[type];
  if (!spec) return;
  const read = spec.reads === "track" ? devices : devices.filter((r) => spec.drivers || !cutByEngine(r));
  const counts = await Promise.all(read.map((r) => deps.history.count({ deviceId: r.device.id, fromMs: range.fromMs, toMs: range.toMs })));
  const shorter = "choose a shorter period or fewer devices.";
  const listed = type === 25 ? counts.reduce((a, b) => a + b, 0) : 0;
  if (listed > LISTED_POSITIONS_MAX) throw new InvalidInputError({ date_to: `The period holds ${listed} positions of the selected devices; object history lists at most ${LISTED_POSITIONS_MAX}: ${shorter}` });
  const most = Math.max(0, ...counts);
  if (most > READ_POSITIONS_MAX) throw new InvalidInputError({ date_to: `The period holds ${most} positions of one device; a report reads at most ${READ_POSITIONS_MAX} a device: ${shorter}` });
}

/**
 * The report's file: what its type reads of each device over the period, laid out by its type,
 * rendered in `format`. Tracks are read one device at a time and, but for the types that
 * combine devices, laid out one at a time: a month of a fleet's positions does not fit in
 * memory at once. What the history engine cuts (report-engine.ts) is asked for all at once.
 */
export function makeReport(deps: ReportMakingDeps, user: User, definition: Definition, of: ReportRecords, range: HistoryRange, format: ReportFormat): Promise<RenderedReport> {
  return deps.slots.run(() => made(deps, user, definition, of, range, format));
}

async function made(deps: ReportMakingDeps, user: User, definition: Definition, of: ReportRecords, range: HistoryRange, format: ReportFormat): Promise<RenderedReport> {
  const { devices } = of;
  const type = findReportType(definition.type)!;
  const spec = TYPES[type.type];
  if (!spec) throw new Error(`report type ${type.type} cannot be made`);
  const clock = clockOf(user);
  const units = userUnits(user);
  const ctx: ReportContext = {
    units,
    time: localTimes(clock),
    duration: (ms) => ({ durationMs: ms, text: formatDuration(ms) }),
    speedLimitKmh: definition.speedLimit === null ? null : units.distanceUnit === "mi" ? definition.speedLimit * KM_PER_MILE : definition.speedLimit,
    localInstant: (date, time) => clock.toInstant(date, time),
  };
  const heading: ReportHeading = { title: definition.title, typeName: type.name, fromMs: range.fromMs, toMs: range.toMs };
  const combined = spec.combined === true;
  // A type without the stops field (18) cuts drives and stops as the others do by default, not
  // with every standing second a stop: stored as 0, it made type 18 disagree with type 3.
  const stopsMinutes = type.fields.includes("stops") ? definition.stops : defaultReportStopMinutes;
  const geofences = geofencesOf(of.geofences, spec.allGeofences ? undefined : definition.geofences);
  const names = placeNamer(deps, definition, of.geofences);

  const trackOf = async ({ device, sensors }: LiveRecord): Promise<DeviceTrack> => {
    const rows = await deps.history.queryRows({ deviceId: device.id, fromMs: range.fromMs, toMs: range.toMs });
    const fuel = sensors.find(isFuelLevel);
    return {
      device: reportDevice(device),
      track: segmentTrack(rows, segmentOptions(device, sensors, stopsMinutes * 60, rows)),
      fuelUnit: fuel ? fuel.unitOfMeasurement : null,
      readings: readingsOf(sensors),
      ...(spec.events ? { events: await eventsOf(deps.db, user.id, device.id, range) } : {}),
      ...(spec.rows ? { rows } : {}),
    };
  };

  /** Reads each device as `read` does and lays the devices out with `build`, together or one at a time. */
  async function lay<T>(build: Builder<T>, read: (r: LiveRecord) => Promise<T>, driversOf?: (items: readonly T[]) => Promise<(card: string) => string>): Promise<RenderedReport> {
    /** These devices laid out; with places, laid out once to learn which positions it shows, then again with their names. */
    const layOut = async (items: readonly T[]): Promise<ReportDocument> => {
      const base = driversOf ? { ...ctx, driverName: await driversOf(items) } : ctx;
      const once = (c: ReportContext) => build(heading, items, c, geofences, definition.parameters);
      if (!names) return once(base);
      const shown: { latitude: number; longitude: number }[] = [];
      once({ ...base, place: (p) => void shown.push(p) });
      return once({ ...base, place: await names(shown) });
    };
    if (combined) {
      const items: T[] = [];
      for (const d of devices) items.push(await read(d));
      return renderReport(await layOut(items), format);
    }
    const doc = await layOut([]);
    const sections = [];
    for (const d of devices) sections.push(...(await layOut([await read(d)])).sections);
    return renderReport({ ...doc, sections: [...doc.sections, ...sections] }, format);
  }

  if (spec.reads === "track") return lay(spec.build, trackOf);
  // The drivers' types need each group's card, which only a track cut here carries.
  const byEngine = (r: LiveRecord) => !spec.drivers && cutByEngine(r);
  const asked = { range, stopsMinutes, speedLimitKmh: ctx.speedLimitKmh, groups: spec.reads === "groups" };
  const cuts = await engineCuts(deps, devices.filter(byEngine), asked);
  if (spec.reads === "figures") {
    return lay(spec.build, async (r) => (byEngine(r) ? { device: reportDevice(r.device), figures: engineFigures(cuts.get(r.device.id), ctx.speedLimitKmh) } : deviceFigures(await trackOf(r), ctx.speedLimitKmh)));
  }
  const drivers = spec.drivers ? (items: readonly DeviceGroups[]) => driverNames(deps.db, user.id, items) : undefined;
  return lay(spec.build, async (r) => (byEngine(r) ? engineGroups(reportDevice(r.device), cuts.get(r.device.id), ctx.speedLimitKmh) : deviceGroups(await trackOf(r), ctx.speedLimitKmh)), drivers);
}

import { KM_PER_MILE, findReportType, userClock, userUnits, type HistoryRange, type ReportFormat } from "@fleet/contracts";
import { findUserDriversByRfid, listUserDeviceEvents, listUserGeofences, type Db, type ReportInput, type Sensor, type User } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import * as types from "@fleet/reports";
import { renderReport, type DeviceTrack, type RenderedReport, type ReportContext, type ReportDocument, type ReportGeofence, type ReportHeading } from "@fleet/reports";
import { segmentTrack } from "@fleet/trips";
import { formatDuration } from "../lib/live-item.js";
import type { LiveRecord } from "../lib/live-records.js";
import { localTimes } from "../lib/local-times.js";
import { placesFor, type PlaceDeps } from "./report-places.js";
import { isFuelLevel, numberAt, segmentOptions } from "./track-cut.js";

/*
 * Making a report's file from a definition and a period: what generate_report and the
 * scheduled emails share. Each type names the builder that lays it out and what it reads
 * besides the devices' tracks.
 */

export interface ReportMakingDeps extends PlaceDeps {
  history: Pick<HistoryStore, "queryWithFields">;
}

type Builder = (heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext, geofences: readonly ReportGeofence[], parameters: Record<string, number | string>) => ReportDocument;

interface TypeSpec {
  build: Builder;
  /** It lists the devices' events. */
  events?: boolean;
  /** It names stops by every geofence of the user, not the report's (type 18 has no geofences field). */
  allGeofences?: boolean;
}

/** Every type of the catalogue but the two customer-specific ones (24, 27), by id (docs/decisions.md, "Reports that run"). */
const TYPES: Partial<Record<number, TypeSpec>> = {
  1: { build: types.generalInformation },
  2: { build: types.generalInformationMerged },
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
  16: { build: types.generalInformationMergedCustom },
  18: { build: types.drivesAndStopsGeofences, allGeofences: true },
  19: { build: types.drivesAndStopsDrivers },
  20: { build: types.geofenceInOutIgnition },
  21: { build: types.drivesAndStopsDriversBusiness },
  22: { build: types.drivesAndStopsDriversPrivate },
  23: { build: types.ragSeatbelt },
  25: { build: types.objectHistory },
  28: { build: types.geofenceInOutShift },
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
async function geofencesOf(db: Db, userId: number, ids: readonly number[] | undefined): Promise<ReportGeofence[]> {
  if (ids?.length === 0) return [];
  const wanted = ids && new Set(ids);
  return (await listUserGeofences(db, userId))
    .filter((g) => !wanted || wanted.has(g.id))
    .map((g) => ({ id: g.id, name: g.name, shape: { type: g.type, coordinates: g.coordinates, center: g.center ?? null, radius: g.radius } }));
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

type Definition = Pick<ReportInput, "title" | "type" | "stops" | "speedLimit" | "geofences" | "showAddresses" | "zonesInstead" | "parameters">;

/** The report's file: its devices' tracks over the period (one device at a time: a month of a fleet's positions does not fit in memory at once), laid out by its type, rendered in `format`. */
export async function makeReport(deps: ReportMakingDeps, user: User, definition: Definition, devices: readonly LiveRecord[], range: HistoryRange, format: ReportFormat): Promise<RenderedReport> {
  const type = findReportType(definition.type)!;
  const spec = TYPES[type.type];
  if (!spec) throw new Error(`report type ${type.type} cannot be made`);
  const clock = userClock(user);
  const units = userUnits(user);
  const tracks: DeviceTrack[] = [];
  for (const { device, sensors } of devices) {
    const rows = await deps.history.queryWithFields({ deviceId: device.id, fromMs: range.fromMs, toMs: range.toMs });
    const fuel = sensors.find(isFuelLevel);
    tracks.push({
      device: { id: device.id, name: device.name, plateNumber: device.plateNumber, minFuelFillings: Number(device.minFuelFillings), minFuelThefts: Number(device.minFuelThefts) },
      track: segmentTrack(rows, segmentOptions(device, sensors, definition.stops * 60, rows)),
      fuelUnit: fuel ? fuel.unitOfMeasurement : null,
      readings: readingsOf(sensors),
      ...(spec.events ? { events: await eventsOf(deps.db, user.id, device.id, range) } : {}),
    });
  }
  const ctx: ReportContext = {
    units,
    time: localTimes(clock),
    duration: formatDuration,
    speedLimitKmh: definition.speedLimit === null ? null : units.distanceUnit === "mi" ? definition.speedLimit * KM_PER_MILE : definition.speedLimit,
    localInstant: (date, time) => clock.toInstant(date, time),
    driverName: await driverNames(deps.db, user.id, tracks),
  };
  const heading: ReportHeading = { title: definition.title, typeName: type.name, fromMs: range.fromMs, toMs: range.toMs };
  const geofences = await geofencesOf(deps.db, user.id, spec.allGeofences ? undefined : definition.geofences);
  const layOut = (place?: ReportContext["place"]) => spec.build(heading, tracks, place ? { ...ctx, place } : ctx, geofences, definition.parameters);
  // Laid out once to learn which positions it shows, then again with their places.
  const shown: { latitude: number; longitude: number }[] = [];
  const places = await placesFor(deps, user, definition, definition.showAddresses || definition.zonesInstead ? (layOut((p) => void shown.push(p)), shown) : []);
  return renderReport(places ? layOut(places) : layOut(), format);
}

import { KM_PER_MILE, findReportType, userClock, userUnits, type HistoryRange, type ReportFormat } from "@fleet/contracts";
import { listUserDeviceEvents, listUserGeofences, type Db, type ReportInput, type User } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import {
  deviceEvents,
  drivesAndStops,
  generalInformation,
  generalInformationMerged,
  generalInformationMergedCustom,
  geofenceInOut,
  objectHistory,
  overspeeds,
  renderReport,
  travelSheet,
  underspeeds,
  type DeviceTrack, type RenderedReport, type ReportContext, type ReportDocument, type ReportGeofence, type ReportHeading } from "@fleet/reports";
import { segmentTrack } from "@fleet/trips";
import { formatDuration } from "../lib/live-item.js";
import type { LiveRecord } from "../lib/live-records.js";
import { localTimes } from "../lib/local-times.js";
import { isFuelLevel, segmentOptions } from "./track-cut.js";

/*
 * Making a report's file from a definition and a period: what generate_report and the
 * scheduled emails share. Each type names the builder that lays it out and what it reads
 * besides the devices' tracks.
 */

export interface ReportMakingDeps {
  db: Db;
  history: Pick<HistoryStore, "queryWithFields">;
}

type Builder = (heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext, geofences: readonly ReportGeofence[]) => ReportDocument;

interface TypeSpec {
  build: Builder;
  /** It lists the devices' events. */
  events?: boolean;
}

/** The types that can be made so far (docs/decisions.md, "Reports that run"). */
const TYPES: Partial<Record<number, TypeSpec>> = {
  1: { build: generalInformation },
  2: { build: generalInformationMerged },
  3: { build: drivesAndStops },
  4: { build: travelSheet },
  5: { build: overspeeds },
  6: { build: underspeeds },
  7: { build: geofenceInOut },
  8: { build: deviceEvents, events: true },
  16: { build: generalInformationMergedCustom },
  25: { build: objectHistory },
};

/** Whether a type can be made yet. */
export const canMake = (type: number): boolean => TYPES[type] !== undefined;

/** A stored event as a report lists it. */
async function eventsOf(db: Db, userId: number, deviceId: number, range: HistoryRange): Promise<DeviceTrack["events"]> {
  // The range's `to` is inclusive, the events store's exclusive.
  const rows = await listUserDeviceEvents(db, userId, deviceId, { fromMs: range.fromMs, toMs: range.toMs + 1 });
  return rows.map((e) => ({ time: e.time.getTime(), type: e.type, message: e.message, latitude: e.latitude, longitude: e.longitude, speedKmh: e.speedKmh }));
}

/** The definition's geofences, as the geofence types read them. */
async function geofencesOf(db: Db, userId: number, ids: readonly number[]): Promise<ReportGeofence[]> {
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  return (await listUserGeofences(db, userId))
    .filter((g) => wanted.has(g.id))
    .map((g) => ({ id: g.id, name: g.name, shape: { type: g.type, coordinates: g.coordinates, center: g.center ?? null, radius: g.radius } }));
}

/** The report's file: its devices' tracks over the period (one device at a time: a month of a fleet's positions does not fit in memory at once), laid out by its type, rendered in `format`. */
export async function makeReport(deps: ReportMakingDeps, user: User, definition: Pick<ReportInput, "title" | "type" | "stops" | "speedLimit" | "geofences">, devices: readonly LiveRecord[], range: HistoryRange, format: ReportFormat): Promise<RenderedReport> {
  const type = findReportType(definition.type)!;
  const spec = TYPES[type.type];
  if (!spec) throw new Error(`report type ${type.type} cannot be made`);
  const clock = userClock(user);
  const units = userUnits(user);
  const ctx: ReportContext = {
    units,
    time: localTimes(clock),
    duration: formatDuration,
    speedLimitKmh: definition.speedLimit === null ? null : units.distanceUnit === "mi" ? definition.speedLimit * KM_PER_MILE : definition.speedLimit,
  };
  const tracks: DeviceTrack[] = [];
  for (const { device, sensors } of devices) {
    const rows = await deps.history.queryWithFields({ deviceId: device.id, fromMs: range.fromMs, toMs: range.toMs });
    const fuel = sensors.find(isFuelLevel);
    tracks.push({
      device: { id: device.id, name: device.name, plateNumber: device.plateNumber },
      track: segmentTrack(rows, segmentOptions(device, sensors, definition.stops * 60, rows)),
      fuelUnit: fuel ? fuel.unitOfMeasurement : null,
      ...(spec.events ? { events: await eventsOf(deps.db, user.id, device.id, range) } : {}),
    });
  }
  const heading: ReportHeading = { title: definition.title, typeName: type.name, fromMs: range.fromMs, toMs: range.toMs };
  return renderReport(spec.build(heading, tracks, ctx, await geofencesOf(deps.db, user.id, definition.geofences)), format);
}

import { parseRange, routeMarkerPath, userUnits, type GetHistoryQuery, type GetHistoryResponse, type HistoryRange, type RouteStatusName } from "@fleet/contracts";
import { findUserDriversByRfid, listUserDeviceEvents, type Db, type User } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import { formatNumber } from "@fleet/sensors";
import { GroupStatus, segmentTrack, type Group } from "@fleet/trips";
import { clockOf } from "../lib/clock.js";
import { eventGroup, trackGroup, writeGroupJson, withEvents, type GroupContext, type HistoryEvent } from "../lib/history-groups.js";
import { historyItemTail, type HistoryItemContext } from "../lib/history-items.js";
import { asJsonWrite, type JsonOut, type JsonWrite } from "../lib/json-write.js";
import { deviceData, formatDuration } from "../lib/live-item.js";
import type { LiveRecordCache } from "../lib/live-records.js";
import { localTimes } from "../lib/local-times.js";
import { driverRecord } from "./drivers.js";
import { found } from "./found.js";
import { isFuelLevel, segmentOptions } from "./track-cut.js";

/*
 * get_history: a device's positions in a period on the user's clock, cut into the vendor's
 * groups by @fleet/trips (the same cut reports will make), with the device's events among
 * them, in the user's units.
 */

/** The device's events in the period, for the status-5 groups. */
export type EventsInRange = (userId: number, deviceId: number, range: HistoryRange) => Promise<HistoryEvent[]>;

/** The events the rules service recorded, from the events store. */
export function storedEvents(db: Db): EventsInRange {
  return async (userId, deviceId, range) =>
    // The range's `to` is inclusive, the store's exclusive.
    (await listUserDeviceEvents(db, userId, deviceId, { fromMs: range.fromMs, toMs: range.toMs + 1 })).map((e) => ({
      positionId: e.positionId,
      time: e.time.getTime(),
      message: e.message,
      latitude: e.latitude,
      longitude: e.longitude,
      speedKmh: e.speedKmh,
      altitudeM: e.altitudeM,
      course: e.course,
      power: e.power,
    }));
}

export interface HistoryDeps {
  db: Db;
  records: LiveRecordCache;
  history: Pick<HistoryStore, "queryWithFields">;
  events: EventsInRange;
}

/** The vendor's status names (`item_class`) and the marker images its clients draw (`images`). */
const STATUS_NAMES = [
  [GroupStatus.drive, "drive"],
  [GroupStatus.stop, "stop"],
  [GroupStatus.start, "start"],
  [GroupStatus.end, "end"],
  [GroupStatus.event, "event"],
] as const satisfies readonly (readonly [number, RouteStatusName])[];
const ITEM_CLASS = STATUS_NAMES.map(([id, value]) => ({ id, value }));
const IMAGES = STATUS_NAMES.map(([id, value]) => ({ id, value: routeMarkerPath(value) }));

/** The Driver records of the cards the groups name. */
async function groupDrivers(db: Db, user: User, groups: readonly Group[]) {
  const cards = [...new Set(groups.map((g) => g.driverKey).filter((k): k is string => k !== null))];
  const byCard = await findUserDriversByRfid(db, user.id, cards);
  return new Map([...byCard].map(([card, d]) => [card, driverRecord(d, clockOf(user))]));
}

/**
 * The answer is written as JSON by hand, straight into the answer's buffer: a device-day is
 * ~8,600 positions, ~5 MB, and building them as objects to stringify took most of the
 * request's time. Each position's stored fields come from the history store as JSON bytes;
 * what depends on the user and the track is written here; the rest is stringified as usual.
 */
export async function getHistory(deps: HistoryDeps, user: User, query: GetHistoryQuery): Promise<JsonWrite<GetHistoryResponse>> {
  const clock = clockOf(user);
  const range = parseRange(clock, query);
  // Read together: the positions are not looked at, nor answered, unless the device is the user's.
  // The device and its sensors from the live list's cache of records, kept up to date through
  // the live store's record index, rather than two more database queries per request.
  const [{ device, sensors }, rows, events] = await Promise.all([
    found(
      deps.records.of(user.id).then((records) => records.get(query.device_id)),
      "Device",
    ),
    deps.history.queryWithFields({ deviceId: query.device_id, fromMs: range.fromMs, toMs: range.toMs }),
    deps.events(user.id, query.device_id, range),
  ]);
  const seg = segmentTrack(rows, segmentOptions(device, sensors, query.stops, rows));
  // Asked before the items are written, so the database answers while they are.
  const drivers = groupDrivers(deps.db, user, seg.groups);

  const units = userUnits(user);
  const time = localTimes(clock);
  const itemCtx: HistoryItemContext = { units, time, sensors };
  const tailOf = (i: number) => historyItemTail(itemCtx, seg.points[i]!, seg.stepKm[i]!);
  const groupCtx: GroupContext = { units, time, deviceId: device.id, drivers: await drivers };
  const groups = withEvents<(out: JsonOut) => void>(
    seg.groups.map((g) => ({ status: g.status, startMs: g.startMs, value: (out) => writeGroupJson(out, trackGroup(groupCtx, g), seg.points, tailOf, g.first, g.last) })),
    events.map((e) => ({ time: e.time, value: (out) => out.text(JSON.stringify(eventGroup(groupCtx, e))) })),
  );

  const fuel = sensors.find(isFuelLevel);
  const { totals } = seg;
  const rest: Omit<GetHistoryResponse, "items"> = {
    distance_sum: `${formatNumber(units.distance(totals.distanceKm))} ${units.distanceUnit}`,
    top_speed: `${Math.round(units.speed(totals.topSpeedKmh))} ${units.speedUnit}`,
    move_duration: formatDuration(totals.driveMs),
    stop_duration: formatDuration(totals.stopMs),
    fuel_consumption: fuel ? `${formatNumber(totals.fuelConsumed)} ${fuel.unitOfMeasurement}`.trim() : "0",
    device: deviceData(device, user),
    sensors: [
      { id: "speed", name: "Speed", sufix: units.speedUnit },
      { id: "altitude", name: "Altitude", sufix: units.altitudeUnit },
      ...sensors.map((s) => ({ id: `sensor_${s.id}`, name: s.name, sufix: s.unitOfMeasurement })),
    ],
    item_class: ITEM_CLASS,
    images: IMAGES,
    sensors_values: [],
    fuel_consumption_arr: [],
    status: 1,
  };
  return asJsonWrite((out) => {
    out.text('{"items":[');
    groups.forEach((write, i) => {
      if (i > 0) out.text(",");
      write(out);
    });
    out.text(`],${JSON.stringify(rest).slice(1)}`);
  });
}

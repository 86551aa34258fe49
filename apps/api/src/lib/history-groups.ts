import { GroupStatus, type Group } from "@fleet/trips";
import { round, type DriverRecord, type HistoryGroup, type UserUnits } from "@fleet/contracts";
import type { PositionWithFields } from "@fleet/history";
import type { JsonOut } from "./json-write.js";
import { formatDuration } from "./live-item.js";

/*
 * The vendor's group records out of @fleet/trips' groups (km, km/h, ms) and the device's
 * events, in the user's units and on the user's clock.
 */

/** An event of the device in the range, as a status-5 group shows it. */
export interface HistoryEvent {
  positionId: number | null;
  /** Epoch ms of the event's fix. */
  time: number;
  message: string;
  latitude: number;
  longitude: number;
  speedKmh: number;
  altitudeM: number;
  course: number | null;
  power: number | null;
}

export interface GroupContext {
  units: UserUnits;
  time: (ms: number) => string;
  deviceId: number;
  /** The user's drivers by card, as `driverKey` names them. */
  drivers: ReadonlyMap<string, DriverRecord>;
}

/** A group record of the track, but its items (see groupJson). */
export type TrackGroup = Omit<HistoryGroup, "items">;

/** A group of the track, without its positions (a drive and a stop share the one where they meet). */
export function trackGroup(ctx: GroupContext, g: Group): TrackGroup {
  const { units } = ctx;
  const show = ctx.time(g.startMs);
  const marker = g.status === GroupStatus.start || g.status === GroupStatus.end;
  const driver = g.driverKey === null ? undefined : ctx.drivers.get(g.driverKey);
  return {
    status: g.status,
    time: marker ? null : formatDuration(g.durationMs),
    show,
    left: ctx.time(g.endMs),
    raw_time: show,
    time_seconds: Math.floor(g.durationMs / 1000),
    distance: round(units.distance(g.distanceKm), 2),
    top_speed: Math.round(units.speed(g.topSpeedKmh)),
    average_speed: Math.round(units.speed(g.averageSpeedKmh)),
    engine_work: Math.floor(g.engineWorkMs / 1000),
    engine_idle: Math.floor(g.engineIdleMs / 1000),
    engine_hours: Math.floor(g.engineHoursMs / 1000),
    fuel_consumption: round(g.fuelConsumed, 2),
    ...(marker || !driver ? {} : { driver }),
  };
}

/** A track group's JSON, with its positions first..last as `items`: each its stored fields, then its tail (history-items.ts). */
export function writeGroupJson(out: JsonOut, group: TrackGroup, points: readonly PositionWithFields[], tailOf: (i: number) => string, first: number, last: number): void {
  const head = JSON.stringify(group);
  out.text(`${head.slice(0, -1)},"items":[`);
  for (let i = first; i <= last; i++) {
    out.bytes(points[i]!.fields);
    out.text(i < last ? tailOf(i) + "," : tailOf(i));
  }
  out.text("]}");
}

/** An event as a status-5 group of no duration, its one item the event's position. */
export function eventGroup(ctx: GroupContext, e: HistoryEvent): HistoryGroup {
  const { units } = ctx;
  const time = ctx.time(e.time);
  const speed = Math.round(units.speed(e.speedKmh));
  const altitude = Math.round(units.altitude(e.altitudeM));
  const id = e.positionId ?? 0;
  return {
    status: GroupStatus.event,
    time: null,
    show: time,
    left: time,
    raw_time: time,
    time_seconds: 0,
    distance: 0,
    top_speed: speed,
    average_speed: 0,
    engine_work: 0,
    engine_idle: 0,
    engine_hours: 0,
    fuel_consumption: 0,
    message: e.message,
    items: [
      {
        id,
        device_id: ctx.deviceId,
        item_id: `i${id}`,
        time,
        raw_time: time,
        server_time: time,
        sort: Math.floor(e.time / 1000),
        latitude: e.latitude,
        longitude: e.longitude,
        lat: e.latitude,
        lng: e.longitude,
        altitude,
        course: e.course ?? 0,
        speed,
        distance: 0,
        power: e.power,
        valid: "1",
        protocol: "",
        other: "",
        other_arr: [],
        sensors_data: [
          { id: "speed", value: speed },
          { id: "altitude", value: altitude },
        ],
      },
    ],
  };
}

/**
 * Events placed among the track's groups by time: each after the groups that start at or
 * before it, between the start and end markers (an event before the first position still
 * follows start; one after the last precedes end).
 */
export function withEvents<T>(track: readonly { status: number; startMs: number; value: T }[], events: readonly { time: number; value: T }[]): T[] {
  const out: T[] = [];
  const sorted = [...events].sort((a, b) => a.time - b.time);
  let e = 0;
  for (const { status, startMs, value } of track) {
    if (status !== GroupStatus.start) {
      const isEnd = status === GroupStatus.end;
      while (e < sorted.length && (isEnd || sorted[e]!.time < startMs)) out.push(sorted[e++]!.value);
    }
    out.push(value);
  }
  while (e < sorted.length) out.push(sorted[e++]!.value);
  return out;
}

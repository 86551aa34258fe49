import { pino } from "pino";
import type { BusProducer } from "@fleet/bus";
import type { EnrichedPosition } from "@fleet/contracts";
import { NO_NOTIFICATIONS, type AlertValues } from "@fleet/db";

/** The integration tests' shared parts: a silent logger, alert values and enriched positions. */

export const silent = pino({ level: "silent" });

/** A Monday, 08:00 UTC. */
export const T0 = Date.UTC(2026, 10, 23, 8, 0, 0);

/** What add_alert stores, with everything a test does not name off or empty. */
export const alertValues = (over: Partial<AlertValues> & Pick<AlertValues, "type" | "devices">): AlertValues => ({
  name: over.type,
  active: true,
  attributes: {},
  zone: 0,
  zones: [],
  geofences: [],
  drivers: [],
  eventsCustom: [],
  pois: [],
  schedule: false,
  schedules: {},
  notifications: NO_NOTIFICATIONS,
  ...over,
});

let nextId = 1;

/** The i-th position of a device's track, 10 s apart from T0, moving at 40 km/h with the engine on unless told otherwise. */
export function enrichedAt(i: number, over: Partial<EnrichedPosition> & Pick<EnrichedPosition, "deviceId" | "uniqueId" | "userIds">): EnrichedPosition {
  return {
    id: nextId++,
    protocol: "osmand",
    latitude: 54.5,
    longitude: 25.0,
    altitude: 100,
    course: 0,
    fixTime: T0 + i * 10_000,
    serverTime: T0 + i * 10_000 + 300,
    attributes: {},
    speedKmh: 40,
    distanceKm: 0.1,
    latest: true,
    engineOn: true,
    moving: true,
    ...over,
  };
}

/** Puts positions on the enriched topic, keyed by device as the tracker keys them. */
export const sendPositions = (producer: BusProducer, topic: string, positions: readonly EnrichedPosition[]) => producer.send(topic, positions.map((p) => ({ key: p.uniqueId, value: JSON.stringify(p) })));

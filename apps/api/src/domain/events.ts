import { EVENTS_PER_PAGE, userUnits, type EventItem, type GetEventsQuery, type LiveEvent, type UserClock } from "@fleet/contracts";
import { destroyUserEvents, findUserDevice, listCustomEventsByProtocol, listUserEventsByIds, pageUserEvents, type Db, type EventRow, type User } from "@fleet/db";
import type { Geocoder } from "@fleet/geocoder";
import type { LiveStore } from "@fleet/live";
import { clockOf } from "../lib/clock.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { readPeriod } from "../lib/user-dates.js";
import { found } from "./found.js";
import { addressesOf, placeKey } from "./point-addresses.js";

/*
 * Events: what the rules service recorded for the user (through @fleet/db's recordEvents),
 * listed by get_events, in get_devices_latest's `events` as they arrive, and deleted all at
 * once by destroy_events. Times are on the account's clock (timezone and DST).
 */

/** How one answer shows events: the account's clock and units (speeds come in km/h, altitudes in m), worked out once. */
interface Shown {
  clock: UserClock;
  speed(kmh: number): number;
  altitude(m: number): number;
}

function shownFor(user: User): Shown {
  const units = userUnits(user);
  return { clock: clockOf(user), speed: (kmh) => Math.round(units.speed(kmh)), altitude: (m) => Math.round(units.altitude(m)) };
}

/**
 * The spec's Event record; links the event lacks are 0. Its address is the stored one, else the
 * geocoder's for its position (`addresses`, by placeKey), else "-" as in the live list.
 */
function eventItem(e: EventRow, { clock, speed, altitude }: Shown, addresses: ReadonlyMap<string, string> = NO_ADDRESSES): EventItem {
  return {
    id: e.id,
    user_id: e.userId,
    device_id: e.deviceId,
    geofence_id: e.geofenceId ?? 0,
    position_id: e.positionId ?? 0,
    alert_id: e.alertId ?? 0,
    type: e.type,
    message: e.message,
    address: e.address || addresses.get(placeKey(e)) || "-",
    time: clock.format(e.time.getTime()),
    created_at: clock.format(e.createdAt.getTime()),
    updated_at: clock.format(e.updatedAt.getTime()),
    speed: speed(e.speedKmh),
    altitude: altitude(e.altitudeM),
    latitude: e.latitude,
    longitude: e.longitude,
    course: e.course,
    power: e.power,
    deleted: 0,
    sound: e.sound ? 1 : 0,
    push: e.push ? 1 : 0,
  };
}

const NO_ADDRESSES: ReadonlyMap<string, string> = new Map();
/** How long a page of events may wait for the addresses of its positions. */
const ADDRESS_BUDGET_MS = 3000;

/**
 * get_events: a page of the user's events, newest first, each without a stored address named
 * through the geocoder (which caches them; a slow one leaves "-"); `url` is the request's, for
 * the page links.
 */
export async function list(db: Db, geocoder: Pick<Geocoder, "reverse">, user: User, query: GetEventsQuery, url: string) {
  const shown = shownFor(user);
  const { fromMs, toMs } = readPeriod(shown.clock, query);
  // Another user's device answers as a missing one, whether or not it has events.
  if (query.device_id !== undefined) await found(findUserDevice(db, user.id, query.device_id), "Device");
  const page = pageRequest(query, EVENTS_PER_PAGE);
  const search = query.search?.trim();
  const { total, rows } = await pageUserEvents(db, user.id, { deviceId: query.device_id, type: query.type || undefined, fromMs, toMs, search: search || undefined }, pageWindow(page));
  const addresses = await addressesOf(geocoder, rows.filter((e) => e.address === ""), ADDRESS_BUDGET_MS);
  return { status: 1 as const, items: paginate({ url }, page, total, rows.map((e) => eventItem(e, shown, addresses))) };
}

/** destroy_events: every event of the user goes, nobody else's. */
export async function destroyAll(db: Db, user: User): Promise<void> {
  await destroyUserEvents(db, user.id);
}

/**
 * get_events_by_protocol: the events an alert can watch for a protocol, keyed by position
 * as the vendor's Swagger shapes them. Type 1 is the user's custom events of the protocol;
 * type 2 (system events) has none defined per protocol here, as get_protocols says.
 */
export async function byProtocol(db: Db, user: User, query: { protocol: string; type: number }) {
  const custom = query.type === 1 ? await listCustomEventsByProtocol(db, user.id, [query.protocol]) : [];
  const entries = custom.map((e, i) => {
    const option = { id: e.id, value: e.message, title: e.message };
    return [String(i), { id: i, value: option, title: option }] as const;
  });
  return { ...Object.fromEntries(entries), status: 1 as const };
}

/** How long a poll may wait for its new events' addresses: a poll answers in milliseconds. */
const POLL_ADDRESS_BUDGET_MS = 250;

/**
 * get_devices_latest's `events`: those marked in the live store within [sinceMs, untilMs),
 * oldest first, each with its device and geofence and, as get_events names it, its address.
 * The poll asks from its `time` to the second its answer's `time` names, where the next poll
 * starts: each event is listed once. Reads the events store only when something was marked.
 */
export async function polled(db: Db, live: LiveStore, geocoder: Pick<Geocoder, "reverse">, user: User, sinceMs: number, untilMs: number): Promise<LiveEvent[]> {
  const ids = await live.eventsMarked(user.id, sinceMs, untilMs);
  if (ids.length === 0) return [];
  const shown = shownFor(user);
  const rows = await listUserEventsByIds(db, user.id, ids);
  const addresses = await addressesOf(geocoder, rows.filter((e) => e.address === ""), POLL_ADDRESS_BUDGET_MS);
  return rows.map((e) => ({
    ...eventItem(e, shown, addresses),
    geofence: e.geofenceName === null ? { id: 0, name: "" } : { id: e.geofenceId ?? 0, name: e.geofenceName },
    device: { id: e.deviceId, name: e.deviceName },
  }));
}

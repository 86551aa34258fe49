import type { EventTypeName } from "@fleet/contracts";
import { and, asc, count, desc, eq, exists, gte, ilike, inArray, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db, Queryable } from "../client.js";
import { announceEvents, type RecordedEvents } from "../device-changes.js";
import type { Page } from "../owned.js";
import { queueNotifications, type EventNotification } from "./notifications.js";
import { devices, events, geofences, userDevices, type EventRow } from "../schema/index.js";
import { containing } from "../like.js";

/** One event as the rules service hands it over: what, where, when, and the writer's key for it. */
export interface EventInput {
  userId: number;
  deviceId: number;
  type: EventTypeName;
  message: string;
  /** The position's fix time. */
  time: Date;
  latitude: number;
  longitude: number;
  speedKmh?: number;
  altitudeM?: number;
  course?: number | null;
  power?: number | null;
  address?: string;
  alertId?: number | null;
  geofenceId?: number | null;
  /** A maintenance service's reminder: the service it is about (no alert). */
  serviceId?: number | null;
  positionId?: number | null;
  /** The alert's sound / push channel is on: the event tells clients that poll events to play a sound / push. */
  sound?: boolean;
  push?: boolean;
  /**
   * Names the event for its user: the same key again records nothing (a replayed
   * position, a retried batch). Say what made it, e.g. `<alert>:<type>:<position>`.
   */
  dedupeKey: string;
}

/**
 * The columns an event is written with, each with how it is read from an EventInput and its
 * SQL type: the insert's column list, the rows' JSON and json_to_recordset's record type all
 * come from this one list.
 */
const WRITTEN: [column: string, sqlType: string, of: (e: EventInput) => unknown][] = [
  ["user_id", "int", (e) => e.userId],
  ["device_id", "int", (e) => e.deviceId],
  ["type", "text", (e) => e.type],
  ["message", "text", (e) => e.message],
  ["time", "timestamptz", (e) => e.time.toISOString()],
  ["latitude", "float8", (e) => e.latitude],
  ["longitude", "float8", (e) => e.longitude],
  ["speed", "float8", (e) => e.speedKmh ?? 0],
  ["altitude", "float8", (e) => e.altitudeM ?? 0],
  ["course", "float8", (e) => e.course ?? null],
  ["power", "float8", (e) => e.power ?? null],
  ["address", "text", (e) => e.address ?? ""],
  ["sound", "bool", (e) => e.sound ?? false],
  ["push", "bool", (e) => e.push ?? false],
  ["alert_id", "int", (e) => e.alertId ?? null],
  ["geofence_id", "int", (e) => e.geofenceId ?? null],
  ["service_id", "int", (e) => e.serviceId ?? null],
  ["position_id", "int8", (e) => e.positionId ?? null],
  ["dedupe_key", "text", (e) => e.dedupeKey],
];
const NAMES = sql.raw(WRITTEN.map(([c]) => `"${c}"`).join(", "));
/** Each column read from its place in a row's array. */
const FROM_ARRAY = sql.raw(WRITTEN.map(([c, type], i) => `(r->>${i})::${type} as "${c}"`).join(", "));

/** The events as a JSON array of arrays, in WRITTEN's order: a fraction of the cost of objects by name. */
const asJson = (input: readonly EventInput[]) => JSON.stringify(input.map((e) => WRITTEN.map(([, , of]) => of(e))));

/**
 * Inserts the events whose (user, key) is new and whose device the user sees (any more: events
 * are the user's view of the user's own devices), in one statement; returns them as stored.
 * The rows go as one JSON parameter rather than eighteen parameters each: building a statement
 * of thousands of parameters cost the rules service more CPU than finding the events did.
 * Only what the database made (id, created) comes back: the rest is what was sent.
 */
async function insertNew(q: Queryable, input: readonly EventInput[]): Promise<EventRow[]> {
  const result = await q.execute(sql`
    insert into ${events} (${NAMES})
    select x.* from (select ${FROM_ARRAY} from json_array_elements(${asJson(input)}::json) as r) as x
    where exists (select 1 from ${userDevices} s where s.user_id = x.user_id and s.device_id = x.device_id)
    on conflict ("user_id", "dedupe_key") do nothing
    returning id, user_id, dedupe_key, created_at`);
  const sent = new Map(input.map((e) => [`${e.userId}:${e.dedupeKey}`, e]));
  // Both drivers answer with `rows` by column name; a bigserial may come back as text.
  return (result as unknown as { rows: { id: number | string; user_id: number; dedupe_key: string; created_at: Date | string }[] }).rows.map((raw) => {
    const createdAt = events.createdAt.mapFromDriverValue(raw.created_at) as Date;
    return rowOf(sent.get(`${raw.user_id}:${raw.dedupe_key}`)!, Number(raw.id), createdAt);
  });
}

/**
 * Records events, each once per (user, dedupe key), and returns the rows it inserted (keys
 * seen before insert nothing and return nothing). An event on a device the user does not see
 * (any more) is dropped: events are the user's view of the user's own devices. With
 * `notificationsOf`, each inserted event's notifications (one per channel) are queued in the
 * same transaction (notifications.ts): an event is never recorded without them, nor notified
 * twice; one with `silentMinutes` is left out when the event repeats another within that many
 * minutes (the alert's silence). Once committed, the new events are announced (see
 * onEventsRecorded) so the next get_devices_latest poll lists them and their devices; a
 * process that records events registers that listener, as the API does.
 */
export async function recordEvents(db: Db, input: readonly EventInput[], notificationsOf?: (event: EventInput) => readonly EventNotification[]): Promise<EventRow[]> {
  if (input.length === 0) return [];
  // One statement is all or nothing: a transaction only when notifications go with the events.
  const notified = notificationsOf !== undefined && input.some((e) => notificationsOf(e).length > 0);
  const inserted = notified
    ? await db.transaction(async (tx) => {
        const out = await insertNew(tx, input);
        await queueNotifications(tx, out, input, notificationsOf);
        return out;
      })
    : await insertNew(db, input);
  await announceEvents(db, byUserDevice(inserted));
  return inserted;
}

/** An event row as stored, from what was sent and what the database made. */
function rowOf(e: EventInput, id: number, createdAt: Date): EventRow {
  return {
    id,
    userId: e.userId,
    deviceId: e.deviceId,
    type: e.type,
    message: e.message,
    time: e.time,
    latitude: e.latitude,
    longitude: e.longitude,
    speedKmh: e.speedKmh ?? 0,
    altitudeM: e.altitudeM ?? 0,
    course: e.course ?? null,
    power: e.power ?? null,
    address: e.address ?? "",
    sound: e.sound ?? false,
    push: e.push ?? false,
    alertId: e.alertId ?? null,
    geofenceId: e.geofenceId ?? null,
    serviceId: e.serviceId ?? null,
    positionId: e.positionId ?? null,
    dedupeKey: e.dedupeKey,
    createdAt,
    updatedAt: createdAt,
  };
}

const pair = (userId: number, deviceId: number) => `${userId}:${deviceId}`;

function byUserDevice(rows: readonly EventRow[]): RecordedEvents[] {
  const out = new Map<string, RecordedEvents>();
  for (const r of rows) {
    const key = pair(r.userId, r.deviceId);
    const entry = out.get(key) ?? { userId: r.userId, deviceId: r.deviceId, eventIds: [] };
    entry.eventIds.push(r.id);
    out.set(key, entry);
  }
  return [...out.values()];
}

/** get_events' filters; times are instants, `toMs` exclusive. */
export interface EventFilter {
  deviceId?: number;
  type?: string;
  fromMs?: number;
  toMs?: number;
  /** Text found in the message, the device's name or the address, case-insensitively. */
  search?: string;
}

/**
 * Whose events the user sees: of the devices it sees now, and of deleted ones (its record of a
 * device it deleted stays). A device taken from the user that lives on, another account's now,
 * takes its events with it, as its other records.
 */
const shownDevices = (q: Queryable, userId: number) =>
  or(
    inArray(events.deviceId, q.select({ id: userDevices.deviceId }).from(userDevices).where(eq(userDevices.userId, userId))),
    // Looked up per event (by primary key) only when the first test fails: no scan of devices.
    exists(q.select({ one: sql`1` }).from(devices).where(and(eq(devices.id, events.deviceId), eq(devices.deleted, true)))),
  );

function filtered(q: Queryable, userId: number, f: EventFilter): SQL {
  const like = f.search ? containing(f.search) : undefined;
  // The user's devices of that name, rather than a join: only the search needs devices.
  const named = like === undefined ? undefined : q.select({ id: userDevices.deviceId }).from(userDevices).innerJoin(devices, eq(devices.id, userDevices.deviceId)).where(and(eq(userDevices.userId, userId), ilike(devices.name, like)));
  return and(
    eq(events.userId, userId),
    shownDevices(q, userId),
    f.deviceId === undefined ? undefined : eq(events.deviceId, f.deviceId),
    f.type === undefined ? undefined : eq(events.type, f.type),
    f.fromMs === undefined ? undefined : gte(events.time, new Date(f.fromMs)),
    f.toMs === undefined ? undefined : lt(events.time, new Date(f.toMs)),
    like === undefined || named === undefined ? undefined : or(ilike(events.message, like), ilike(events.address, like), inArray(events.deviceId, named)),
  )!;
}

/** One page of the user's events, newest first (by fix time, then id), and how many match in all. */
export async function pageUserEvents(db: Queryable, userId: number, filter: EventFilter, page: Page): Promise<{ total: number; rows: EventRow[] }> {
  const where = filtered(db, userId, filter);
  const [rows, [counted]] = await Promise.all([
    db.select().from(events).where(where).orderBy(desc(events.time), desc(events.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(events).where(where),
  ]);
  return { total: counted?.n ?? 0, rows };
}

/**
 * How many events each of the user's alerts recorded with fix times in [fromMs, toMs) (no
 * bound where left out), by alert id; alerts without events are absent, and events whose
 * alert was deleted are not counted.
 */
export async function countUserEventsByAlert(db: Queryable, userId: number, period: { fromMs?: number; toMs?: number }): Promise<Map<number, number>> {
  const rows = await db
    .select({ alertId: events.alertId, n: count() })
    .from(events)
    .where(and(filtered(db, userId, period), isNotNull(events.alertId)))
    .groupBy(events.alertId);
  return new Map(rows.map((r) => [r.alertId!, r.n]));
}

/** An event with the names a live poll shows beside it: its device's and, when it has one, its geofence's. */
export interface NamedEvent extends EventRow {
  deviceName: string;
  geofenceName: string | null;
}

/** The user's events of these ids (others' and missing ones left out), oldest first. */
export async function listUserEventsByIds(db: Queryable, userId: number, ids: readonly number[]): Promise<NamedEvent[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ e: events, deviceName: devices.name, geofenceName: geofences.name })
    .from(events)
    .innerJoin(devices, eq(devices.id, events.deviceId))
    // The geofence's name only when it is the event's user's.
    .leftJoin(geofences, and(eq(geofences.id, events.geofenceId), eq(geofences.userId, events.userId)))
    .where(and(eq(events.userId, userId), inArray(events.id, [...ids]), shownDevices(db, userId)))
    .orderBy(events.time, events.id);
  return rows.map((r) => ({ ...r.e, deviceName: r.deviceName, geofenceName: r.geofenceName }));
}

/** Deletes every event of the user (nobody else's); how many went. */
export async function destroyUserEvents(db: Queryable, userId: number): Promise<number> {
  return (await db.delete(events).where(eq(events.userId, userId)).returning({ id: events.id })).length;
}

/** How many events of one device get_history shows in a period, at most. */
export const DEVICE_EVENTS_LIMIT = 10_000;

/** The user's events of one device with fix times in [fromMs, toMs), oldest first, at most `limit`: get_history's status-5 groups. */
export async function listUserDeviceEvents(db: Queryable, userId: number, deviceId: number, range: { fromMs: number; toMs: number }, limit = DEVICE_EVENTS_LIMIT): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .where(filtered(db, userId, { deviceId, fromMs: range.fromMs, toMs: range.toMs }))
    .orderBy(asc(events.time), asc(events.id))
    .limit(limit);
}

import { asc, eq, inArray } from "drizzle-orm";
import type { Db, Queryable } from "./client.js";
import { userDevices } from "./schema/index.js";

/** A changed device and every user who sees it, for the live store's change index. */
export interface DeviceOwners {
  deviceId: number;
  userIds: number[];
}

export type DeviceChangeListener = (changed: readonly DeviceOwners[]) => Promise<void>;

/** One listener per database for a kind of committed write, and the call that tells it what is worth telling. */
function announcer<T>(worth: (item: T) => boolean) {
  const listeners = new WeakMap<Db, (items: readonly T[]) => Promise<void>>();
  return {
    on: (db: Db, listener: (items: readonly T[]) => Promise<void>) => void listeners.set(db, listener),
    async announce(db: Db, items: readonly T[]): Promise<void> {
      const listener = listeners.get(db);
      const told = items.filter(worth);
      if (listener && told.length > 0) await listener(told);
    },
  };
}

/*
 * "A device changed" is announced by the write that changed it, not by its caller: a
 * write function that alters what the live list shows for a device (the device, its
 * sensors, services, driver, group, the owner's units and timezone) announces the
 * device's owners once its transaction has committed, and the one listener a process
 * registers (the API marks the live store's change index) hears it. A route cannot
 * forget, and a poll after the write's answer sees the mark. See docs/decisions.md.
 */
const deviceChanges = announcer<DeviceOwners>((c) => c.userIds.length > 0);

/** The one listener for `db`'s committed device changes; registering again replaces it. */
export function onDevicesChanged(db: Db, listener: DeviceChangeListener): void {
  deviceChanges.on(db, listener);
}

/**
 * Tells `db`'s listener that these devices changed. Called with the database, after the
 * transaction that changed them committed: a mark before commit could be read by a poll
 * that still sees the old rows, and the change would then never be listed.
 */
export function announceChanged(db: Db, changed: readonly DeviceOwners[]): Promise<void> {
  return deviceChanges.announce(db, changed);
}

/** Events a write just recorded for a user on one device, by id. */
export interface RecordedEvents {
  userId: number;
  deviceId: number;
  eventIds: number[];
}

export type EventsListener = (recorded: readonly RecordedEvents[]) => Promise<void>;

const recordedEvents = announcer<RecordedEvents>((r) => r.eventIds.length > 0);

/**
 * The one listener for `db`'s committed events (the API marks the live store's event index
 * with it, so the next get_devices_latest poll lists them; so must any process that records
 * events); registering again replaces it. Apart from device changes: an event does not
 * change the device's record, so a cache of records must not be refreshed for it.
 */
export function onEventsRecorded(db: Db, listener: EventsListener): void {
  recordedEvents.on(db, listener);
}

/** Tells `db`'s listener that these events were recorded: after their transaction committed, as announceChanged. */
export function announceEvents(db: Db, recorded: readonly RecordedEvents[]): Promise<void> {
  return recordedEvents.announce(db, recorded);
}

/** Every user who sees each device (owners and shares), in device order. */
export async function ownersOf(q: Queryable, deviceIds: readonly number[]): Promise<DeviceOwners[]> {
  const ids = [...new Set(deviceIds)];
  if (ids.length === 0) return [];
  const rows = await q
    .select({ deviceId: userDevices.deviceId, userId: userDevices.userId })
    .from(userDevices)
    .where(inArray(userDevices.deviceId, ids))
    .orderBy(asc(userDevices.deviceId), asc(userDevices.userId));
  const byDevice = new Map<number, number[]>(ids.sort((a, b) => a - b).map((id) => [id, []]));
  for (const r of rows) byDevice.get(r.deviceId)?.push(r.userId);
  return [...byDevice].map(([deviceId, userIds]) => ({ deviceId, userIds }));
}

/** Each device the user sees, as that user's change only: for edits of the user's own view (units, timezone, groups). */
export async function devicesSeenBy(q: Queryable, userId: number): Promise<DeviceOwners[]> {
  const rows = await q.select({ deviceId: userDevices.deviceId }).from(userDevices).where(eq(userDevices.userId, userId)).orderBy(asc(userDevices.deviceId));
  return rows.map((r) => ({ deviceId: r.deviceId, userIds: [userId] }));
}

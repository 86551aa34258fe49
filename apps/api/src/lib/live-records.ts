import {
  currentDriverNames, groupByDevice, listSensorsOfDevices, listServicesOfDevices, listUserDevices, listUserDevicesByIds,
  type Db, type Sensor, type Service, type UserDeviceRecord,
} from "@fleet/db";
import { indexCovers, type LiveStore } from "@fleet/live";
import type { ShownRecord } from "./live-item.js";

/** What the live list shows of a device that only an edit changes: its record, sensors, services and driver. */
export interface LiveRecord extends ShownRecord {
  device: UserDeviceRecord;
  sensors: Sensor[];
  services: Service[];
  /** The current driver's name. */
  driver: string | undefined;
}

/** A user's live records, as fresh as the record index said when they were handed out. */
export interface UserRecords {
  get(deviceId: number): LiveRecord | undefined;
  /** Every record, by device id. */
  all(): readonly LiveRecord[];
}

/** The user's live records of these devices (all of them without `ids`), by device id: one query per kind, whatever the count. */
export async function loadLiveRecords(db: Db, userId: number, ids?: readonly number[]): Promise<LiveRecord[]> {
  const devices = ids ? await listUserDevicesByIds(db, userId, ids) : await listUserDevices(db, userId);
  if (devices.length === 0) return [];
  const deviceIds = devices.map((d) => d.id);
  const [sensors, services, drivers] = await Promise.all([
    listSensorsOfDevices(db, deviceIds),
    listServicesOfDevices(db, userId, deviceIds),
    // The pivots in hand already say whether any device has a driver.
    devices.some((d) => d.pivot.currentDriverId !== null) ? currentDriverNames(db, userId) : new Map<number, string>(),
  ]);
  const sensorsOf = groupByDevice(sensors);
  const servicesOf = groupByDevice(services);
  return devices.map((device) => ({ device, sensors: sensorsOf.get(device.id) ?? [], services: servicesOf.get(device.id) ?? [], driver: drivers.get(device.id) }));
}

/** One user's cached records, with the store-clock time up to which every record change is in them. */
class Entry implements UserRecords {
  private sorted: LiveRecord[] | undefined;
  /** A refresh under way, and one queued behind it that later callers join. */
  running: Promise<void> | undefined;
  queued: Promise<void> | undefined;
  /** How many records the cache's total counts for this entry. */
  counted = 0;
  constructor(
    public asOf: number,
    readonly byId: Map<number, LiveRecord>,
  ) {}
  get(deviceId: number) {
    return this.byId.get(deviceId);
  }
  all() {
    return (this.sorted ??= [...this.byId.values()].sort((a, b) => a.device.id - b.device.id));
  }
  replace(deviceIds: readonly number[], fresh: readonly LiveRecord[]) {
    // An id that did not come back is no longer the user's (removed, deleted).
    for (const id of deviceIds) this.byId.delete(id);
    for (const r of fresh) this.byId.set(r.device.id, r);
    this.sorted = undefined;
  }
}

export interface LiveRecordCache {
  /**
   * The user's records, holding every record change the live store had indexed when
   * this was called: a caller that read the change index first and then calls this gets
   * records at least as new as the changes it read.
   */
  of(userId: number): Promise<UserRecords>;
}

/**
 * The live list's device records, cached per user and brought up to date on every read
 * from the live store's record index (which every write that changes a record marks
 * after it commits, see @fleet/db's device-changes). The index lives in the shared store
 * (Redis), so any number of api processes keep their caches correct without telling each
 * other anything, and an edit answered by one is in the next poll answered by another:
 * reading the index is part of the poll, not a message that may arrive later. A poll whose
 * devices only moved reads no record from the database.
 *
 * Bounded by `maxDevices` records in all: the least recently read users are dropped.
 */
export function liveRecordCache(db: Db, live: LiveStore, opts: { maxDevices: number }): LiveRecordCache {
  // Insertion order is recency: a read moves its user to the end.
  const entries = new Map<number, Entry>();
  let cached = 0;

  async function load(userId: number): Promise<Entry> {
    // The clock first: a change stamped after it is read again by the next refresh.
    const { now } = await live.recordsChangedSince(userId, Number.MAX_SAFE_INTEGER);
    const records = await loadLiveRecords(db, userId);
    return new Entry(now, new Map(records.map((r) => [r.device.id, r])));
  }

  async function refresh(userId: number, entry: Entry): Promise<void> {
    const { deviceIds, now } = await live.recordsChangedSince(userId, entry.asOf);
    if (!indexCovers(entry.asOf, now)) {
      // The index forgets after a day: a cache older than that reloads whole.
      const fresh = await load(userId);
      entry.replace([...entry.byId.keys()], [...fresh.byId.values()]);
      entry.asOf = fresh.asOf;
      return;
    }
    if (deviceIds.length > 0) entry.replace(deviceIds, await loadLiveRecords(db, userId, deviceIds));
    entry.asOf = now;
  }

  /** A refresh that starts after this call: the running one may have read the index too early. */
  function refreshed(userId: number, entry: Entry): Promise<void> {
    if (entry.queued) return entry.queued;
    const start = () => {
      entry.queued = undefined;
      entry.running = refresh(userId, entry).finally(() => (entry.running = undefined));
      return entry.running;
    };
    if (!entry.running) return start();
    entry.queued = entry.running.catch(() => undefined).then(start);
    return entry.queued;
  }

  function keep(userId: number, entry: Entry) {
    entries.delete(userId);
    entries.set(userId, entry);
    cached += entry.byId.size - entry.counted;
    entry.counted = entry.byId.size;
    for (const [id, other] of entries) {
      if (cached <= opts.maxDevices || other === entry) break;
      entries.delete(id);
      cached -= other.counted;
    }
  }

  const loading = new Map<number, Promise<Entry>>();
  return {
    async of(userId) {
      const entry = entries.get(userId);
      if (entry) {
        await refreshed(userId, entry);
        keep(userId, entry);
        return entry;
      }
      const pending = loading.get(userId);
      if (pending) {
        // That load may have read the clock before this caller read its changes.
        const joined = await pending;
        await refreshed(userId, joined);
        keep(userId, joined);
        return joined;
      }
      const started = load(userId)
        .then((loaded) => (keep(userId, loaded), loaded))
        .finally(() => loading.delete(userId));
      loading.set(userId, started);
      return started;
    },
  };
}

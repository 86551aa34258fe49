import { describe, expect, it } from "vitest";
import type { Alert, DeviceRuleRecords, User, UserRuleRecords } from "@fleet/db";
import { ruleBook, type RuleLoaders } from "./rule-book.js";

/** User 7 watches devices 1 and 3 with an sos alert; device 2 has no alert. */
const WATCHED = new Set([1, 3]);
const sosAlert = { id: 1, userId: 7, name: "sos", type: "sos", active: true, attributes: {}, zone: 0, zones: [], geofences: [], drivers: [], eventsCustom: [], pois: [], schedule: false, schedules: {}, notifications: {} } as unknown as Alert;
const user7 = { id: 7, timezoneId: 0, dst: null, unitOfDistance: "km", unitOfAltitude: "mt", lang: "en" } as unknown as User;

function devices(ids: readonly number[]): DeviceRuleRecords {
  const watched = ids.filter((id) => WATCHED.has(id));
  return {
    devices: watched.map((id) => ({ id, name: `Truck ${id}` }) as DeviceRuleRecords["devices"][number]),
    sensors: [],
    watches: watched.map((deviceId) => ({ alertId: 1, userId: 7, deviceId, activeFrom: null, activeTo: null })),
  };
}

function users(ids: readonly number[]): UserRuleRecords {
  const usable = ids.includes(7);
  return { users: usable ? [user7] : [], alerts: usable ? [sosAlert] : [], geofences: [], customEvents: [], drivers: [], pois: [], geofenceNames: [] };
}

/** Loaders that record what each read asked for; `hold(part)` makes that part's next reads wait until released. */
function countingLoaders() {
  const reads = { devices: [] as number[][], users: [] as number[][] };
  const gates: { devices?: Promise<void>; users?: Promise<void> } = {};
  let open: () => void = () => undefined;
  const loaders: RuleLoaders = {
    async devices(ids) {
      reads.devices.push([...ids]);
      await gates.devices;
      return devices(ids);
    },
    async users(ids) {
      reads.users.push([...ids]);
      await gates.users;
      return users(ids);
    },
  };
  return {
    reads,
    loaders,
    hold(part: "devices" | "users") {
      gates[part] = new Promise<void>((r) => (open = r));
    },
    release() {
      gates.devices = gates.users = undefined;
      open();
    },
  };
}

const seen = (deviceId: number, userIds = [7]) => ({ deviceId, userIds });
const ids = (m: Map<number, unknown>) => [...m.keys()].sort();

describe("the rule book", () => {
  it("reads the devices it does not keep in one read, and keeps devices without alerts too, so their positions cost no query", async () => {
    const { reads, loaders } = countingLoaders();
    const book = ruleBook(loaders);
    expect(ids(await book.of([seen(1), seen(2)]))).toEqual([1]);
    expect(ids(await book.of([seen(1), seen(2)]))).toEqual([1]);
    expect(reads.devices).toEqual([[1, 2]]);
  });

  it("reads a user's records once for all the devices their alerts watch, batch after batch", async () => {
    const { reads, loaders } = countingLoaders();
    const book = ruleBook(loaders);
    await book.of([seen(1)]);
    await book.of([seen(3)]);
    expect(reads.devices).toEqual([[1], [3]]);
    expect(reads.users).toEqual([[7]]);
    // Both devices hold the same owner's records: one geofence index, not one per device.
    const both = await book.of([seen(1), seen(3)]);
    expect(both.get(1)!.geofenceIndex.get(7)).toBe(both.get(3)!.geofenceIndex.get(7));
  });

  it("stops firing an owner's alerts when the account expires, with no notice, and reads again only then", async () => {
    let t = 1_000_000;
    const expiresAt = t + 60_000;
    const expiring = { ...user7, expirationDate: new Date(expiresAt) } as User;
    const reads: number[][] = [];
    const book = ruleBook(
      {
        devices: async (ids) => devices(ids),
        // As loadUserRuleRecords reads it: an expired account is not a usable user.
        users: async (ids) => (reads.push([...ids]), t < expiresAt ? { ...users(ids), users: [expiring] } : users([])),
      },
      { now: () => t },
    );
    expect(ids(await book.of([seen(1)]))).toEqual([1]);
    t = expiresAt - 1;
    expect(ids(await book.of([seen(1)]))).toEqual([1]);
    expect(reads).toHaveLength(1);
    t = expiresAt;
    expect(ids(await book.of([seen(1)]))).toEqual([]);
    expect(reads).toHaveLength(2);
  });

  it("reads a user once when batches of several partitions ask at the same time", async () => {
    const { reads, loaders, hold, release } = countingLoaders();
    const book = ruleBook(loaders);
    hold("users");
    const a = book.of([seen(1)]);
    const b = book.of([seen(3)]);
    await new Promise((r) => setImmediate(r));
    release();
    expect([ids(await a), ids(await b)]).toEqual([[1], [3]]);
    expect(reads.users).toEqual([[7]]);
  });

  it("drops the devices a notice names, and a user it names with every device that user sees, alerts or not", async () => {
    const { reads, loaders } = countingLoaders();
    const book = ruleBook(loaders);
    await book.of([seen(1), seen(2), seen(3, [8])]);
    book.changed({ userIds: [], deviceIds: [3] });
    await book.of([seen(3, [8])]);
    // A device notice leaves the user's records kept.
    expect(reads.users).toEqual([[7]]);
    // A new alert of user 7 may watch device 2, which had none: the notice names only the user.
    book.changed({ userIds: [7], deviceIds: [] });
    await book.of([seen(1), seen(2), seen(3, [8])]);
    expect(reads.devices).toEqual([[1, 2, 3], [3], [1, 2, 3]]);
    expect(reads.users).toEqual([[7], [7]]);
  });

  it("does not keep a read that a notice overtook, and reads again what is older than its age limit", async () => {
    const { reads, loaders, hold, release } = countingLoaders();
    let now = 0;
    const book = ruleBook(loaders, { maxAgeMs: 1000, now: () => now });
    hold("users");
    const first = book.of([seen(1)]);
    while (reads.users.length === 0) await new Promise((r) => setImmediate(r));
    // The notice comes while both the device's and its owner's records are being read.
    book.changed({ userIds: [7], deviceIds: [] });
    release();
    expect(ids(await first)).toEqual([1]);
    await book.of([seen(1)]);
    await book.of([seen(1)]);
    now = 1500;
    await book.of([seen(1)]);
    expect(reads.devices).toEqual([[1], [1], [1]]);
    expect(reads.users).toEqual([[7], [7], [7]]);
  });

  it("reads an owner again when a device is watched by an alert the owner's kept records lack", async () => {
    const reads: number[][] = [];
    let stored = [sosAlert];
    const overspeed = { ...sosAlert, id: 2, name: "overspeed", type: "overspeed", attributes: { overspeed: 90 } } as unknown as Alert;
    const book = ruleBook({
      async devices(ids) {
        const records = devices(ids);
        return ids.includes(3) && stored.length > 1 ? { ...records, watches: [...records.watches, { alertId: 2, userId: 7, deviceId: 3, activeFrom: null, activeTo: null }] } : records;
      },
      async users(ids) {
        reads.push([...ids]);
        return { ...users(ids), alerts: stored };
      },
    });
    await book.of([seen(1)]);
    // Alert 2 is made and watches device 3; its notice has not come yet.
    stored = [sosAlert, overspeed];
    const rules = await book.of([seen(3)]);
    expect(rules.get(3)!.alerts.map((a) => a.id)).toEqual([1, 2]);
    expect(reads).toEqual([[7], [7]]);
  });

  it("fires nothing for an alert whose owner cannot sign in", async () => {
    const { loaders } = countingLoaders();
    const book = ruleBook({ ...loaders, users: async () => users([]) });
    expect(ids(await book.of([seen(1)]))).toEqual([]);
  });
});

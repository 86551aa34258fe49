import type { RulesChanged } from "@fleet/contracts";
import type { DeviceRuleRecords, UserRuleRecords } from "@fleet/db";
import { buildUserRules, rulesOfDevice, type DeviceRules, type UserRules } from "./model.js";

/** A device a batch holds positions of, with every user who sees it (the enriched position's userIds). */
export interface SeenDevice {
  deviceId: number;
  userIds: readonly number[];
}

export interface RuleBook {
  /** The rules of these devices, for those some alert watches; reads what it does not keep, each part once. */
  of(devices: readonly SeenDevice[]): Promise<Map<number, DeviceRules>>;
  /** A rules.changed notice: drops what is kept of its devices, its users, and every device its users see. */
  changed(notice: RulesChanged): void;
}

export interface RuleLoaders {
  devices(deviceIds: readonly number[]): Promise<DeviceRuleRecords>;
  users(userIds: readonly number[]): Promise<UserRuleRecords>;
}

export interface RuleBookOptions {
  /** Reloads what is older than this even without a notice: the net under a lost notice. Default 5 min. */
  maxAgeMs?: number;
  /** Devices kept at most; past it the book starts over. Default 200,000. */
  maxDevices?: number;
  now?: () => number;
}

interface UserEntry {
  userId: number;
  /** Null: not a usable user (its alerts fire nothing). */
  rules: UserRules | null;
  loadedAt: number;
  /** When the account expires (Infinity: never, or not usable already): the entry holds until then. */
  expiresAt: number;
}

interface DeviceEntry {
  /** Null: no alert watches the device (most devices), kept so their positions cost no query. */
  rules: DeviceRules | null;
  /** The users the entry depends on: who saw the device, and the owners of the alerts watching it. */
  users: ReadonlySet<number>;
  /** The owners' entries it was built from: it holds only while they are still the kept ones. */
  from: readonly UserEntry[];
  loadedAt: number;
  /** The first of its owners' expiries: their alerts stop firing then, without a notice. */
  expiresAt: number;
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const list = out.get(key(item));
    if (list) list.push(item);
    else out.set(key(item), [item]);
  }
  return out;
}

/**
 * The rules service's cache of what each device is checked against, in two parts: per user
 * (settings, alerts, the geofences with their index, custom events, drivers) and per device
 * (the alerts watching it and when, its fuel sensor). Each is read from the database once and
 * kept until a rules.changed notice names its user or device, its owner's account expires, or
 * it grows old; a fleet's
 * thousand geofences are read and indexed once, not once per batch of its devices. A load
 * that a notice overtook is used for the batch that asked but not kept: its rows may predate
 * the change.
 */
export function ruleBook(load: RuleLoaders, options: RuleBookOptions = {}): RuleBook {
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  const maxDevices = options.maxDevices ?? 200_000;
  const now = options.now ?? Date.now;
  const deviceEntries = new Map<number, DeviceEntry>();
  const userEntries = new Map<number, UserEntry>();
  /** Counts notices: a load keeps its answer only if none came while it ran. */
  let notices = 0;
  /** User loads under way, so batches of several partitions at once read each user once. */
  const loading = new Map<number, Promise<UserEntry>>();

  const fresh = (entry: { loadedAt: number; expiresAt: number }, t: number) => t - entry.loadedAt < maxAgeMs && t < entry.expiresAt;
  const holds = (entry: DeviceEntry, t: number) => fresh(entry, t) && entry.from.every((u) => userEntries.get(u.userId) === u);

  /** The entries of these users, kept or read now (one read for those not kept or under way, or `stale`). */
  async function usersOf(ids: readonly number[], t: number, stale: ReadonlySet<number> = new Set()): Promise<Map<number, UserEntry>> {
    const out = new Map<number, UserEntry>();
    const waits: Promise<void>[] = [];
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const kept = userEntries.get(id);
      const pending = loading.get(id);
      if (kept && fresh(kept, t) && !stale.has(id)) out.set(id, kept);
      else if (pending) waits.push(pending.then((e) => void out.set(id, e)));
      else missing.push(id);
    }
    if (missing.length > 0) {
      const startedAt = notices;
      const read = load.users(missing).then((records) => {
        const built = buildUserRules(records);
        const keep = startedAt === notices;
        const entries = new Map(missing.map((id) => [id, { userId: id, rules: built.get(id) ?? null, loadedAt: t, expiresAt: built.get(id)?.expiresAt ?? Infinity }]));
        if (keep) for (const [id, e] of entries) userEntries.set(id, e);
        return entries;
      });
      for (const id of missing) loading.set(id, read.then((entries) => entries.get(id)!));
      try {
        for (const [id, e] of await read) out.set(id, e);
      } finally {
        for (const id of missing) loading.delete(id);
      }
    }
    await Promise.all(waits);
    return out;
  }

  return {
    async of(devices) {
      const out = new Map<number, DeviceRules>();
      const missing: SeenDevice[] = [];
      const t = now();
      for (const d of devices) {
        const entry = deviceEntries.get(d.deviceId);
        if (entry && holds(entry, t)) {
          if (entry.rules) out.set(d.deviceId, entry.rules);
        } else missing.push(d);
      }
      if (missing.length === 0) return out;

      const startedAt = notices;
      const records = await load.devices(missing.map((d) => d.deviceId));
      let owners = await usersOf(
        records.watches.map((w) => w.userId),
        t,
      );
      // A watch of an alert its owner's kept records lack: they predate the alert (its notice is
      // still on its way, or was lost). Those owners are read again rather than the alert missed.
      const behind = new Set(records.watches.filter((w) => owners.get(w.userId)?.rules?.alerts.has(w.alertId) === false).map((w) => w.userId));
      if (behind.size > 0) owners = new Map([...owners, ...(await usersOf([...behind], t, behind))]);
      const devicesById = new Map(records.devices.map((r) => [r.id, r]));
      const watchesOf = groupBy(records.watches, (w) => w.deviceId);
      const sensorsOf = groupBy(records.sensors, (s) => s.deviceId);
      const ownerRules = new Map([...owners].flatMap(([id, e]) => (e.rules ? [[id, e.rules] as const] : [])));
      const keep = startedAt === notices;
      if (keep && deviceEntries.size + missing.length > maxDevices) deviceEntries.clear();
      for (const d of missing) {
        const device = devicesById.get(d.deviceId);
        const watches = watchesOf.get(d.deviceId) ?? [];
        const rules = device ? rulesOfDevice(device, watches, sensorsOf.get(d.deviceId) ?? [], ownerRules) : null;
        if (rules) out.set(d.deviceId, rules);
        const ownerIds = [...new Set(watches.map((w) => w.userId))];
        if (keep) {
          const from = ownerIds.flatMap((id) => owners.get(id) ?? []);
          deviceEntries.set(d.deviceId, { rules, users: new Set([...d.userIds, ...ownerIds]), from, loadedAt: t, expiresAt: Math.min(Infinity, ...from.map((u) => u.expiresAt)) });
        }
      }
      return out;
    },
    changed(notice) {
      notices++;
      for (const id of notice.deviceIds) deviceEntries.delete(id);
      if (notice.userIds.length === 0) return;
      const users = new Set(notice.userIds);
      for (const id of users) userEntries.delete(id);
      for (const [id, entry] of deviceEntries) if ([...entry.users].some((u) => users.has(u))) deviceEntries.delete(id);
    },
  };
}

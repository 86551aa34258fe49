import type { RulesChanged } from "@fleet/contracts";
import type { RuleRecords } from "@fleet/db";
import { buildDeviceRules, type DeviceRules } from "./model.js";

/** A device a batch holds positions of, with every user who sees it (the enriched position's userIds). */
export interface SeenDevice {
  deviceId: number;
  userIds: readonly number[];
}

export interface RuleBook {
  /** The rules of these devices, for those some alert watches; loads the ones not kept in one read. */
  of(devices: readonly SeenDevice[]): Promise<Map<number, DeviceRules>>;
  /** A rules.changed notice: drops what is kept of its devices and of every device its users see. */
  changed(notice: RulesChanged): void;
}

export interface RuleBookOptions {
  /** Reloads a device's rules older than this even without a notice: the net under a lost notice. Default 5 min. */
  maxAgeMs?: number;
  /** Devices kept at most; past it the book starts over. Default 200,000. */
  maxDevices?: number;
  now?: () => number;
}

interface Entry {
  /** Null: no alert watches the device (most devices), kept so their positions cost no query. */
  rules: DeviceRules | null;
  /** The users the entry depends on: who saw the device, and the alerts' owners. */
  users: ReadonlySet<number>;
  loadedAt: number;
}

/**
 * The rules service's cache of what each device is checked against, read from the database
 * once and kept until a rules.changed notice names one of its users or the device (or it
 * grows old). A load that a notice overtook is used for the batch that asked but not kept:
 * its rows may predate the change.
 */
export function ruleBook(load: (deviceIds: readonly number[]) => Promise<RuleRecords>, options: RuleBookOptions = {}): RuleBook {
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  const maxDevices = options.maxDevices ?? 200_000;
  const now = options.now ?? Date.now;
  const kept = new Map<number, Entry>();
  /** Counts notices: a load keeps its answer only if none came while it ran. */
  let notices = 0;

  return {
    async of(devices) {
      const out = new Map<number, DeviceRules>();
      const missing: SeenDevice[] = [];
      const t = now();
      for (const d of devices) {
        const entry = kept.get(d.deviceId);
        if (entry && t - entry.loadedAt < maxAgeMs) {
          if (entry.rules) out.set(d.deviceId, entry.rules);
        } else missing.push(d);
      }
      if (missing.length === 0) return out;

      const startedAt = notices;
      const ids = missing.map((d) => d.deviceId);
      const loaded = buildDeviceRules(await load(ids), ids);
      const keep = startedAt === notices;
      if (keep && kept.size + missing.length > maxDevices) kept.clear();
      for (const d of missing) {
        const rules = loaded.get(d.deviceId) ?? null;
        if (rules) out.set(d.deviceId, rules);
        if (keep) kept.set(d.deviceId, { rules, users: new Set([...d.userIds, ...(rules?.alerts.map((a) => a.userId) ?? [])]), loadedAt: t });
      }
      return out;
    },
    changed(notice) {
      notices++;
      for (const id of notice.deviceIds) kept.delete(id);
      if (notice.userIds.length === 0) return;
      const users = new Set(notice.userIds);
      for (const [id, entry] of kept) if ([...entry.users].some((u) => users.has(u))) kept.delete(id);
    },
  };
}

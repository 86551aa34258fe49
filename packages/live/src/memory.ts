import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import type { LiveState } from "@fleet/contracts";
import { CHANGE_RETENTION_MS, offlineWindow, withTailMax, type ChangedIds, type LiveStore, type RuleState } from "./port.js";
import { isRuleState, memberWrites, parseMember } from "./rule-state.js";
import { stateJson } from "./state-json.js";

export interface MemoryLiveOptions {
  /**
   * Where the embedded setup keeps the states and the indexes across restarts: read at
   * start, written every `snapshotEveryMs` while something changed, and at close. With the
   * indexes kept, a client polling with a `time` from before a restart still gets the devices
   * that changed between its poll and the restart.
   */
  snapshotPath?: string;
  snapshotEveryMs?: number;
}

/** userId → [deviceId, time ms][] */
type IndexEntries = [number, [number, number][]][];

/**
 * What live.json holds. Written before the indexes were kept, it was the `states` array
 * alone; before states were written as JSON values, each was a string of JSON.
 */
interface Snapshot {
  states: [number, string | object][];
  changes: IndexEntries;
  records?: IndexEntries;
  seen?: IndexEntries;
  /** userId → [eventId, time ms][]: the event index. */
  events?: IndexEntries;
  /** deviceId → its rules-service state; absent from snapshots written before the rules service kept state. */
  rules?: [number, unknown][];
  /** The store's clock at the save: a restarted store never stamps earlier. */
  clock: number;
}

function loadSnapshot(path: string): Snapshot {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Snapshot | [number, string][];
    return Array.isArray(parsed) ? { states: parsed, changes: [], clock: 0 } : parsed;
  } catch {
    return { states: [], changes: [], clock: 0 };
  }
}

/** The snapshot's rule states as their members' JSON, skipping any entry that is not a device id and a non-empty object. */
function loadRules(entries: unknown): [number, Map<string, string>][] {
  if (!Array.isArray(entries)) return [];
  const out: [number, Map<string, string>][] = [];
  for (const entry of entries as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== "number" || !isRuleState(entry[1])) continue;
    const { set } = memberWrites({ deviceId: entry[0], set: entry[1] });
    if (set.length > 0) out.push([entry[0], new Map(set)]);
  }
  return out;
}

/** A rule state's members' JSON as the JSON of the object they make. */
const membersJson = (members: Map<string, string>) => `{${[...members].map(([k, json]) => `${JSON.stringify(k)}:${json}`).join(",")}}`;

/** userId → (deviceId or, for the event index, eventId → time ms): one of the store's per-user indexes. */
class UserIndex {
  readonly byUser: Map<number, Map<number, number>>;
  constructor(entries: IndexEntries = []) {
    this.byUser = new Map(entries.map(([userId, list]) => [userId, new Map(list)]));
  }
  set(deviceId: number, userIds: readonly number[], at: number) {
    for (const userId of userIds) {
      let index = this.byUser.get(userId);
      if (!index) this.byUser.set(userId, (index = new Map()));
      index.set(deviceId, at);
    }
  }
  /** The user's devices stamped within [from, to]; entries before `dropBefore` are trimmed on the way. */
  between(userId: number, from: number, to: number, dropBefore: number, out: Set<number>) {
    const index = this.byUser.get(userId);
    for (const [deviceId, at] of index ?? []) {
      // Trimmed here rather than on write: this loop visits every entry anyway.
      if (at < dropBefore) index?.delete(deviceId);
      else if (at >= from && at <= to) out.add(deviceId);
    }
  }
  entries(): IndexEntries {
    return [...this.byUser].map(([userId, index]) => [userId, [...index]]);
  }
}

/**
 * In-process live store for the embedded (single-process) setup.
 *
 * States and rule states are kept as JSON text, exactly as Redis keeps them, so both
 * adapters return fresh copies with the same serialisation quirks (callers can mutate
 * what they get, and `undefined` or NaN behave the same on either). A query walks the
 * user's index (a fleet of 10,000 is a fraction of a millisecond); Redis keeps sorted sets.
 */
export function createMemoryLive(options: MemoryLiveOptions = {}): LiveStore {
  const { snapshotPath } = options;
  const loaded = snapshotPath ? loadSnapshot(snapshotPath) : undefined;
  const states = new Map<number, string>(loaded?.states.map(([id, state]) => [id, typeof state === "string" ? state : JSON.stringify(state)]));
  const changes = new UserIndex(loaded?.changes);
  const records = new UserIndex(loaded?.records);
  const seen = new UserIndex(loaded?.seen);
  const events = new UserIndex(loaded?.events);
  /** deviceId → its rules-service state, member → that member's JSON. */
  const rules = new Map<number, Map<string, string>>(loadRules(loaded?.rules));
  /** Lease name → when it ends (epoch ms). Not in the snapshot: a lease outlives no process here. */
  const leases = new Map<string, number>();
  let last = loaded?.clock ?? 0;
  let dirty = false;
  /**
   * The snapshot's text. The states and rule states are kept as JSON text already, so they
   * are spliced in as they are: stringifying them again would escape every one of them, on
   * the event loop.
   */
  const snapshotText = () => {
    const spliced = <V>(map: Map<number, V>, json: (value: V) => string) => {
      const parts: string[] = [];
      for (const [id, value] of map) parts.push(`[${id},${json(value)}]`);
      return parts.join(",");
    };
    const indexes = JSON.stringify({ changes: changes.entries(), records: records.entries(), seen: seen.entries(), events: events.entries(), clock: last });
    return `{"states":[${spliced(states, (json) => json)}],"rules":[${spliced(rules, membersJson)}],${indexes.slice(1)}`;
  };
  // Write then rename, so a crash mid-write leaves the previous snapshot whole: states and indexes together.
  let saving: Promise<void> | undefined;
  const save = () => {
    if (!snapshotPath || !dirty || saving) return;
    dirty = false;
    // The file is written off the event loop; a save due meanwhile waits for the next tick of the timer.
    saving = writeFile(`${snapshotPath}.tmp`, snapshotText())
      .then(() => rename(`${snapshotPath}.tmp`, snapshotPath))
      .catch(() => void (dirty = true))
      .finally(() => (saving = undefined));
  };
  const saveNow = async () => {
    await saving;
    if (!snapshotPath || !dirty) return;
    dirty = false;
    writeFileSync(`${snapshotPath}.tmp`, snapshotText());
    renameSync(`${snapshotPath}.tmp`, snapshotPath);
  };
  const timer = snapshotPath ? setInterval(save, options.snapshotEveryMs ?? 10_000) : undefined;
  timer?.unref();

  // Date.now(), but never backwards (an NTP step must not hide a change from a
  // reader whose `since` came from an earlier, later-looking clock reading).
  const clock = () => (last = Math.max(last, Date.now()));

  function read(index: UserIndex, userId: number, sinceMs: number): ChangedIds {
    const now = clock();
    const ids = new Set<number>();
    index.between(userId, sinceMs, Infinity, now - CHANGE_RETENTION_MS, ids);
    return { deviceIds: [...ids], now };
  }

  return {
    kind: "memory",
    async getStates(deviceIds, tailMax) {
      const out = new Map<number, LiveState>();
      for (const id of deviceIds) {
        const json = states.get(id);
        if (json !== undefined) out.set(id, withTailMax(JSON.parse(json) as LiveState, tailMax));
      }
      return out;
    },
    async putStates(entries) {
      const now = clock();
      for (const { state, userIds } of entries) {
        states.set(state.deviceId, stateJson(state));
        dirty = true;
        changes.set(state.deviceId, userIds, now);
        seen.set(state.deviceId, userIds, state.serverTime);
      }
    },
    async restoreStates(entries) {
      for (const { state, userIds } of entries) {
        if (states.has(state.deviceId)) continue;
        states.set(state.deviceId, stateJson(state));
        seen.set(state.deviceId, userIds, state.serverTime);
        dirty = true;
      }
    },
    async markChanged(entries) {
      const now = clock();
      for (const { deviceId, userIds } of entries) {
        if (userIds.length > 0) dirty = true;
        changes.set(deviceId, userIds, now);
        records.set(deviceId, userIds, now);
      }
    },
    async changedSince(userId, sinceMs, offlineAfterMs) {
      const result = read(changes, userId, sinceMs);
      if (offlineAfterMs !== undefined) {
        const { from, to } = offlineWindow(sinceMs, result.now, offlineAfterMs);
        const ids = new Set(result.deviceIds);
        // Seen entries are not trimmed: one per device, the newest serverTime.
        seen.between(userId, from, to, -Infinity, ids);
        result.deviceIds = [...ids];
      }
      return result;
    },
    async recordsChangedSince(userId, sinceMs) {
      return read(records, userId, sinceMs);
    },
    async markEvents(entries) {
      const now = clock();
      for (const { userId, deviceId, eventIds } of entries) {
        dirty = true;
        changes.set(deviceId, [userId], now);
        for (const id of eventIds) events.set(id, [userId], now);
      }
    },
    async eventsMarked(userId, fromMs, toMs) {
      const ids = new Set<number>();
      events.between(userId, fromMs, toMs - 1, clock() - CHANGE_RETENTION_MS, ids);
      return [...ids];
    },
    async getRuleStates(deviceIds) {
      const out = new Map<number, RuleState>();
      for (const id of deviceIds) {
        const members = rules.get(id);
        if (!members) continue;
        // Parsed per read: the caller gets its own copy, as from Redis.
        const state: RuleState = {};
        for (const [member, json] of members) state[member] = parseMember(json);
        out.set(id, state);
      }
      return out;
    },
    async getRuleStateMember(deviceIds, member) {
      const out = new Map<number, unknown>();
      for (const id of deviceIds) {
        const json = rules.get(id)?.get(member);
        if (json !== undefined) out.set(id, parseMember(json));
      }
      return out;
    },
    async changeRuleStates(changes) {
      // All serialised before any is applied: a member JSON cannot hold fails the call whole, as in Redis.
      const writes = changes.map((c) => [c.deviceId, memberWrites(c)] as const);
      for (const [deviceId, { set, unset }] of writes) {
        const members = rules.get(deviceId) ?? new Map<string, string>();
        for (const [member, json] of set) members.set(member, json);
        for (const member of unset) members.delete(member);
        if (members.size === 0) rules.delete(deviceId);
        else rules.set(deviceId, members);
        dirty = true;
      }
    },
    async claim(name, ttlMs) {
      const now = Date.now();
      if ((leases.get(name) ?? 0) > now) return false;
      leases.set(name, now + ttlMs);
      return true;
    },
    async deleteStates(deviceIds) {
      // Index entries stay, as in Redis; readers skip ids without a state.
      for (const id of deviceIds) {
        states.delete(id);
        rules.delete(id);
      }
      dirty = true;
    },
    async close() {
      clearInterval(timer);
      await saveNow();
    },
  };
}

import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { LiveState } from "@fleet/contracts";
import { CHANGE_RETENTION_MS, type LiveStore } from "./port.js";

export interface MemoryLiveOptions {
  /**
   * Where the embedded setup keeps the states and the change index across restarts: read at
   * start, written every `snapshotEveryMs` while something changed, and at close. With the
   * index kept, a client polling with a `time` from before a restart still gets the devices
   * that changed between its poll and the restart.
   */
  snapshotPath?: string;
  snapshotEveryMs?: number;
}

/** What live.json holds. Written before the index was kept, it was the `states` array alone. */
interface Snapshot {
  states: [number, string][];
  /** userId → [deviceId, change time ms][] */
  changes: [number, [number, number][]][];
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

/**
 * In-process live store for the embedded (single-process) setup.
 *
 * States are kept as JSON text, exactly as Redis keeps them, so both adapters
 * return fresh copies with the same serialisation quirks (callers can mutate what
 * they get, and `undefined` or NaN behave the same on either).
 */
export function createMemoryLive(options: MemoryLiveOptions = {}): LiveStore {
  const { snapshotPath } = options;
  const loaded = snapshotPath ? loadSnapshot(snapshotPath) : undefined;
  const states = new Map<number, string>(loaded?.states);
  // userId -> (deviceId -> change time ms). Bounded by the user's device count.
  const changes = new Map<number, Map<number, number>>((loaded?.changes ?? []).map(([userId, entries]) => [userId, new Map(entries)]));
  let last = loaded?.clock ?? 0;
  let dirty = false;
  const save = () => {
    if (!snapshotPath || !dirty) return;
    dirty = false;
    const snapshot: Snapshot = { states: [...states], changes: [...changes].map(([userId, index]) => [userId, [...index]]), clock: last };
    // Write then rename, so a crash mid-write leaves the previous snapshot whole: states and index together.
    writeFileSync(`${snapshotPath}.tmp`, JSON.stringify(snapshot));
    renameSync(`${snapshotPath}.tmp`, snapshotPath);
  };
  const timer = snapshotPath ? setInterval(save, options.snapshotEveryMs ?? 10_000) : undefined;
  timer?.unref();

  // Date.now(), but never backwards (an NTP step must not hide a change from a
  // reader whose `since` came from an earlier, later-looking clock reading).
  const clock = () => (last = Math.max(last, Date.now()));

  function mark(deviceId: number, userIds: readonly number[], at: number) {
    if (userIds.length > 0) dirty = true;
    for (const userId of userIds) {
      let index = changes.get(userId);
      if (!index) changes.set(userId, (index = new Map()));
      index.set(deviceId, at);
    }
  }

  return {
    kind: "memory",
    async getStates(deviceIds) {
      const out = new Map<number, LiveState>();
      for (const id of deviceIds) {
        const json = states.get(id);
        if (json !== undefined) out.set(id, JSON.parse(json) as LiveState);
      }
      return out;
    },
    async putStates(entries) {
      const now = clock();
      for (const { state, userIds } of entries) {
        states.set(state.deviceId, JSON.stringify(state));
        dirty = true;
        mark(state.deviceId, userIds, now);
      }
    },
    async restoreStates(list) {
      for (const state of list) {
        if (states.has(state.deviceId)) continue;
        states.set(state.deviceId, JSON.stringify(state));
        dirty = true;
      }
    },
    async markChanged(entries) {
      const now = clock();
      for (const { deviceId, userIds } of entries) mark(deviceId, userIds, now);
    },
    async changedSince(userId, sinceMs) {
      const now = clock();
      const deviceIds: number[] = [];
      const index = changes.get(userId);
      for (const [deviceId, at] of index ?? []) {
        // Trim here rather than on write: this loop visits every entry anyway.
        if (at < now - CHANGE_RETENTION_MS) index?.delete(deviceId);
        else if (at >= sinceMs) deviceIds.push(deviceId);
      }
      return { deviceIds, now };
    },
    async deleteStates(deviceIds) {
      // Index entries stay, as in Redis; readers skip ids without a state.
      for (const id of deviceIds) states.delete(id);
      dirty = true;
    },
    async close() {
      clearInterval(timer);
      save();
    },
  };
}

import type { LiveState } from "@fleet/contracts";

/**
 * The live-state port: the latest state of each device and, per user, an index of
 * when each device last changed. Redis in production, memory when REDIS_URL is unset.
 */
export interface LiveStore {
  readonly kind: "redis" | "memory";
  getStates(deviceIds: readonly number[]): Promise<Map<number, LiveState>>;
  /**
   * Writes each state and marks its device changed for each of `userIds`, stamped
   * with the store's own clock (so every writer and reader shares one clock).
   */
  putStates(entries: readonly { state: LiveState; userIds: readonly number[] }[]): Promise<void>;
  /**
   * Writes each state only where its device has none: for states rebuilt from history,
   * which must not overwrite a newer one a tracker wrote meanwhile. Marks nothing changed
   * (the device did not move; clients that listed it before saw the same position).
   */
  restoreStates(states: readonly LiveState[]): Promise<void>;
  /** Marks devices changed without a new state (a record edit, say). */
  markChanged(entries: readonly { deviceId: number; userIds: readonly number[] }[]): Promise<void>;
  /**
   * Devices of `userId` changed at or after `sinceMs`, and the store's clock at the
   * moment of the read: a change after the read is stamped at or after `now`.
   *
   * The ids may include devices that have no state (marked without one, or deleted
   * since): callers look states up with `getStates` and skip the missing ones.
   * Changes older than `CHANGE_RETENTION_MS` are dropped from the index, so a caller
   * whose `sinceMs` is older than that must reload everything instead.
   */
  changedSince(userId: number, sinceMs: number): Promise<{ deviceIds: number[]; now: number }>;
  deleteStates(deviceIds: readonly number[]): Promise<void>;
  close(): Promise<void>;
}

/** How long the per-user change index remembers a change (24 h). */
export const CHANGE_RETENTION_MS = 24 * 60 * 60 * 1000;

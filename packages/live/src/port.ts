import type { LiveState } from "@fleet/contracts";

/** A device's new or restored state and every user who sees the device. */
export interface StateEntry {
  state: LiveState;
  userIds: readonly number[];
}

/** A device and every user who sees it. */
export interface DeviceUsers {
  deviceId: number;
  userIds: readonly number[];
}

/** Events just recorded for a user on one device, by id. */
export interface DeviceEvents {
  userId: number;
  deviceId: number;
  eventIds: readonly number[];
}

/**
 * A device's rules-service memory: each detector's state per alert, by keys the rules
 * service chooses; JSON-serialisable. Kept as JSON by either adapter, so what a read
 * returns is what JSON.parse gives back (undefined members dropped, NaN as null, a Date as
 * its string) and is the caller's own copy.
 */
export type RuleState = Record<string, unknown>;

/**
 * A change to a device's rules-service state: members set (each replaced whole) and members
 * removed, applied to the device's state together or not at all.
 */
export interface RuleStateChange {
  deviceId: number;
  set: RuleState;
  unset?: readonly string[];
}

/** Device ids and the store's clock at the moment of the read. */
export interface ChangedIds {
  deviceIds: number[];
  /** A change after the read is stamped at or after `now`. */
  now: number;
}

/**
 * The live-state port: the latest state of each device and, per user, three indexes that
 * let a reader ask "what changed since" at a cost that depends on what changed:
 *
 * - the change index: when each device last changed in any way a client sees;
 * - the record index: when each device's record (or sensors, services, driver, the
 *   user's view of it) last changed, so a cache of records stays correct across processes;
 * - the seen index: each device's last `serverTime`, an index by the time it goes offline;
 * - the event index: the ids of the user's newly recorded events, by when they were marked,
 *   so a poll lists each event once and reads the events store only when there are some.
 *
 * Redis in production, memory when REDIS_URL is unset. Every stamp comes from the store's
 * own clock, so every writer and reader shares one.
 */
export interface LiveStore {
  readonly kind: "redis" | "memory";
  /**
   * The devices' states (those that have one). With `tailMax`, each tail holds at most its
   * newest `tailMax` points: a list shows a device's last tail_length points, and reading
   * the thirty a state keeps was most of a poll's parsing.
   */
  getStates(deviceIds: readonly number[], tailMax?: number): Promise<Map<number, LiveState>>;
  /** Writes each state and marks its device changed (and seen at its serverTime) for each of its users. */
  putStates(entries: readonly StateEntry[]): Promise<void>;
  /**
   * Writes each state only where its device has none: for states rebuilt from history,
   * which must not overwrite a newer one a tracker wrote meanwhile. Indexes it as seen
   * (so it still goes offline on time) but not as changed: the device did not move, and
   * clients that listed it before saw the same position.
   */
  restoreStates(entries: readonly StateEntry[]): Promise<void>;
  /** Marks devices' records changed (an edit, a new driver): in the change and record indexes. */
  markChanged(entries: readonly DeviceUsers[]): Promise<void>;
  /**
   * Devices of `userId` changed at or after `sinceMs`. With `offlineAfterMs`, also the
   * devices that went offline in that time (their last serverTime + offlineAfterMs falls
   * between `sinceMs` and `now`): nothing is written when a device falls silent, so the
   * index by serverTime is what makes that change visible.
   *
   * The ids may include devices that have no state (marked without one, or deleted
   * since) or that the user no longer sees: callers look them up and skip the missing.
   * Changes older than `CHANGE_RETENTION_MS` are dropped from the index, so a caller
   * whose `sinceMs` is older than that must reload everything instead.
   */
  changedSince(userId: number, sinceMs: number, offlineAfterMs?: number): Promise<ChangedIds>;
  /** Devices of `userId` whose records were marked changed at or after `sinceMs` (same retention). */
  recordsChangedSince(userId: number, sinceMs: number): Promise<ChangedIds>;
  /**
   * Marks events recorded (after their rows committed): each device changed for the
   * event's user (in the change index only: its record did not change) and each event id
   * in the user's event index.
   */
  markEvents(entries: readonly DeviceEvents[]): Promise<void>;
  /**
   * Ids of `userId`'s events marked within [fromMs, toMs), same retention. A reader that
   * asks from where its previous read ended gets each event once; marks land after their
   * rows committed, so an id read here is in the events store.
   */
  eventsMarked(userId: number, fromMs: number, toMs: number): Promise<number[]>;
  /**
   * The rules-service states of these devices (those that have one). A stored value that
   * is not a JSON object reads as no state, so one bad key does not fail the batch.
   */
  getRuleStates(deviceIds: readonly number[]): Promise<Map<number, RuleState>>;
  /**
   * One member of each device's rules-service state, for the devices whose state has it: a
   * small read by which a caller that keeps states in memory tells whether its copy is still
   * the stored one.
   */
  getRuleStateMember(deviceIds: readonly number[], member: string): Promise<Map<number, unknown>>;
  /**
   * Applies each change to its device's rules-service state (a state left with no member is
   * gone). Rule states are not indexed as changes: no client sees them. A member JSON cannot
   * hold (a BigInt, a cycle) fails the call before anything is written.
   */
  changeRuleStates(changes: readonly RuleStateChange[]): Promise<void>;
  /** Deletes the devices' states and their rules-service states (the devices were deleted). */
  deleteStates(deviceIds: readonly number[]): Promise<void>;
  /**
   * Takes the lease `name` for `ttlMs` unless a caller holds it: true when this call took it.
   * A lease is never released early: it ends with its time, so a holder that dies frees it
   * too. For work one instance of a service does for all of them in each period.
   */
  claim(name: string, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** `state` with at most its newest `tailMax` tail points (the same object when it has no more). */
export function withTailMax(state: LiveState, tailMax: number | undefined): LiveState {
  if (tailMax === undefined || state.tail.length <= tailMax) return state;
  state.tail = tailMax === 0 ? [] : state.tail.slice(-tailMax);
  return state;
}

/** How long the per-user change indexes remember a change (24 h). */
export const CHANGE_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Whether an index read at `now` still holds every change since `sinceMs`: it forgets after CHANGE_RETENTION_MS. */
export function indexCovers(sinceMs: number, now: number): boolean {
  return sinceMs >= now - CHANGE_RETENTION_MS;
}

/**
 * The serverTimes whose device goes offline within [sinceMs, now]: a device is online
 * while now - serverTime <= offlineAfterMs, so it is first offline at serverTime + offlineAfterMs + 1.
 */
export function offlineWindow(sinceMs: number, now: number, offlineAfterMs: number): { from: number; to: number } {
  return { from: sinceMs - offlineAfterMs - 1, to: now - offlineAfterMs - 1 };
}

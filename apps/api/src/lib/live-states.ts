import type { LiveState } from "@fleet/contracts";
import { indexCovers, type LiveStore } from "@fleet/live";

/** Devices' latest states for the whole-fleet lists, read from the live store only where they changed. */
export interface LiveStateCache {
  /**
   * The states of these devices of `userId` (those that have one), as new as the live
   * store's at the call, each with at least its newest `tailMax` tail points where it has them.
   */
  ofUser(userId: number, deviceIds: readonly number[], tailMax: number): Promise<Map<number, LiveState>>;
}

/**
 * The full list (get_devices, get_devices_latest without `time`) shows every device's
 * state; reading and parsing 10,000 of them from the live store was about half of such a
 * request's CPU, though between two lists few usually change. States are kept over all
 * users (a shared device once) and each user's change index says which to read again: it
 * lists every device whose state was written since the user's last read, on the store's
 * clock, so what is kept is never older than what the store held at that read.
 *
 * A user met for the first time, or after longer than the index remembers, has no such
 * bound, so their devices are read again whatever is kept. Devices without a state are
 * read every time (the live store may restore them from history meanwhile). A read that
 * started before a device was found changed does not keep what it got for it: its answer
 * may predate the change. A state is kept with the tail its read asked for; a later list
 * that shows more of it (a device shared with a user whose devices show longer tails)
 * reads it again.
 */
export function liveStateCache(live: LiveStore, opts: { maxDevices: number }): LiveStateCache {
  /** Least recently written first, so the oldest go when there are more than maxDevices. */
  const states = new Map<number, { state: LiveState; tailMax: number }>();
  /** Per user, the store-clock time of their last read: every state change since is in their change index. */
  const asOf = new Map<number, number>();
  /** Counts drops; per device, the count at its last drop (kept after it is read again, for reads still under way). */
  let drops = 0;
  const droppedAt = new Map<number, number>();
  /** `drops` when `droppedAt` was last emptied: reads from before then keep nothing. */
  let clearedAt = 0;

  function drop(id: number) {
    states.delete(id);
    droppedAt.set(id, ++drops);
  }

  return {
    async ofUser(userId, deviceIds, tailMax) {
      const since = asOf.get(userId);
      const known = since !== undefined;
      // A `since` beyond the clock lists nothing and only reads the clock.
      const { deviceIds: changed, now } = await live.changedSince(userId, since ?? Number.MAX_SAFE_INTEGER);
      const complete = known && indexCovers(since, now);
      for (const id of complete ? changed : deviceIds) drop(id);
      asOf.set(userId, now);

      const out = new Map<number, LiveState>();
      const missing: number[] = [];
      for (const id of deviceIds) {
        const kept = states.get(id);
        if (kept && kept.tailMax >= tailMax) out.set(id, kept.state);
        else missing.push(id);
      }
      if (missing.length > 0) {
        const readAfter = drops;
        for (const [id, state] of await live.getStates(missing, tailMax)) {
          out.set(id, state);
          if ((droppedAt.get(id) ?? clearedAt) > readAfter) continue;
          states.delete(id);
          states.set(id, { state, tailMax });
        }
        for (const id of states.keys()) {
          if (states.size <= opts.maxDevices) break;
          states.delete(id);
        }
        // A mark matters only while a read from before it is under way: past the cap they all go at once.
        if (droppedAt.size > opts.maxDevices) {
          droppedAt.clear();
          clearedAt = drops;
        }
      }
      return out;
    },
  };
}

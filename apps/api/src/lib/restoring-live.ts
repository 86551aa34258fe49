import type { HistoryStore } from "@fleet/history";
import { withTailMax, type LiveStore } from "@fleet/live";

export interface RestoringLiveOptions {
  live: LiveStore;
  history: HistoryStore;
  /** Each existing device's moving speed threshold; a deleted one is absent. */
  movingSpeedsOf(deviceIds: readonly number[]): Promise<Map<number, number>>;
  /** Who sees each device, so a restored state goes offline in their lists on time. */
  ownersOf(deviceIds: readonly number[]): Promise<readonly { deviceId: number; userIds: readonly number[] }[]>;
  logger: { warn(obj: object, msg?: string): void };
  /** How long a device found without history is not asked about again. Default 10 s. */
  noHistoryTtlMs?: number;
}

/**
 * The live store as the API reads it: a device the store has no state for (a flushed Redis,
 * a lost live.json) gets the state history says it had, written back where the store still
 * has none, so the live list shows every device at its last stored position at once rather
 * than when it next reports. A device with no history at all (never reported) is remembered
 * for a few seconds, so a fleet of unused devices costs a history query per poll at most
 * every few seconds; seeing it with a state forgets that. When history cannot answer, the
 * list is served from what the live store has.
 */
export function restoringLive(opts: RestoringLiveOptions): LiveStore {
  const { live, history } = opts;
  const ttl = opts.noHistoryTtlMs ?? 10_000;
  const noHistoryUntil = new Map<number, number>();

  return {
    ...live,
    async getStates(deviceIds, tailMax) {
      const states = await live.getStates(deviceIds, tailMax);
      // A device seen with a state has reported: if the store loses it, history has it.
      if (noHistoryUntil.size > 0) for (const id of states.keys()) noHistoryUntil.delete(id);
      const now = Date.now();
      const missing = [...new Set(deviceIds)].filter((id) => !states.has(id) && (noHistoryUntil.get(id) ?? 0) <= now);
      if (missing.length === 0) return states;
      try {
        const speeds = await opts.movingSpeedsOf(missing);
        const restored = await history.lastStates([...speeds].map(([id, minMovingSpeed]) => ({ id, minMovingSpeed })));
        if (restored.size > 0) {
          const owners = await opts.ownersOf([...restored.keys()]);
          await live.restoreStates(owners.flatMap(({ deviceId, userIds }) => {
            const state = restored.get(deviceId);
            return state ? [{ state, userIds }] : [];
          }));
        }
        for (const id of missing) {
          const state = restored.get(id);
          if (state) {
            states.set(id, withTailMax(state, tailMax));
            noHistoryUntil.delete(id);
          } else noHistoryUntil.set(id, now + ttl);
        }
        // One entry per device never seen reporting; a crude cap keeps a huge fleet from growing it without end.
        if (noHistoryUntil.size > 100_000) noHistoryUntil.clear();
      } catch (err) {
        opts.logger.warn({ err, devices: missing.length }, "could not restore live states from history; listing without them");
      }
      return states;
    },
  };
}

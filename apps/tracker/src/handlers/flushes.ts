import { createBatcher } from "@fleet/batcher";
import type { HistoryRow } from "@fleet/contracts";
import type { HistoryStore } from "@fleet/history";
import type { LiveStore, StateEntry } from "@fleet/live";

/** Where a batch's history rows and live states go, and the signal that it has added both. */
export interface Writers {
  history(rows: HistoryRow[]): Promise<void>;
  states(entries: StateEntry[]): Promise<void>;
  added(): void;
}

export interface FlushOptions {
  history: Pick<HistoryStore, "insert">;
  live: Pick<LiveStore, "putStates">;
  flushRows: number;
  flushMs: number;
  /** How long live states wait for other partitions' batches at most; min(flushMs, 10 ms) when absent. */
  liveLingerMs?: number;
}

export interface Flushes {
  /** Runs one batch's work with writers whose rows and states go out in the flushes other partitions' batches share. */
  shared<T>(work: (write: Writers) => Promise<T>): Promise<T>;
  /** Writers of one batch's rows and states on their own, so a failure is that batch's. */
  readonly alone: Writers;
  /** Writes what waits for a flush. */
  drain(): Promise<void>;
}

/**
 * The longest live states wait for other partitions' batches by default: a client sees a
 * position when its state is written, so states do not wait as long as history rows do
 * for a big insert.
 */
const LIVE_LINGER_MS = 10;

/**
 * History rows and live states from every partition share flushes, so the history store
 * sees few large inserts and the live store few scripts (each user's indexes are stamped
 * once per script): a flush goes out when every batch in hand has added its rows and
 * states (the bus fetches again only once they are all handled, so waiting longer would
 * only stall it), at flushRows, or after the linger at the latest. Partitions never share
 * a device, so one flush never holds two states of one.
 */
export function createFlushes(opts: FlushOptions): Flushes {
  const historyBatcher = createBatcher<HistoryRow>({
    maxItems: opts.flushRows,
    lingerMs: opts.flushMs,
    maxConcurrent: 2,
    flush: (rows) => opts.history.insert(rows),
  });
  const liveBatcher = createBatcher<StateEntry>({
    maxItems: opts.flushRows,
    lingerMs: opts.liveLingerMs ?? Math.min(opts.flushMs, LIVE_LINGER_MS),
    maxConcurrent: 2,
    flush: (entries) => opts.live.putStates(entries),
  });
  let preparing = 0;

  return {
    async shared(work) {
      preparing++;
      let done = false;
      const added = () => {
        if (done) return;
        done = true;
        if (--preparing > 0) return;
        historyBatcher.flush();
        liveBatcher.flush();
      };
      try {
        return await work({ history: (rows) => historyBatcher.add(rows), states: (entries) => liveBatcher.add(entries), added });
      } finally {
        added();
      }
    },
    alone: { history: (rows) => opts.history.insert(rows), states: (entries) => opts.live.putStates(entries), added: () => undefined },
    drain: async () => {
      await Promise.all([historyBatcher.drain(), liveBatcher.drain()]);
    },
  };
}

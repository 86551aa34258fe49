import type { HistoryRow } from "@fleet/contracts";
import type { PositionRange } from "./pages.js";
import type { HistoryStore } from "./port.js";

/*
 * Pages of a device's history by offset (the vendor's page numbers) that stay fast deep into
 * millions of rows. A range's rows-per-minute index is built once (one FINAL pass over the
 * range) and kept while the range's stored count says nothing changed there; a page then
 * reads from the minute holding its first row, skipping at most that minute's earlier rows,
 * by the primary key. `total` comes from the same index, so no page counts the range again.
 */

export interface HistoryPage {
  /** Rows in the range (each once). */
  total: number;
  rows: HistoryRow[];
}

export interface HistoryPager {
  /** Rows `offset` to `offset + limit - 1` of the range in time order (by fixTime, then id). */
  page(range: PositionRange, offset: number, limit: number): Promise<HistoryPage>;
  /** Drops what is kept about a device's ranges (after deleting its rows, say). */
  forget(deviceId: number): void;
}

export interface HistoryPagerOptions {
  /** Minutes kept over all indexes; the least recently used ranges go first. Default 2,000,000 (~32 MB). */
  maxMinutes?: number;
}

interface RangeIndex {
  deviceId: number;
  /** storedCount of the range when the index was read. */
  stamp: number;
  /** Start of each non-empty minute, ascending. */
  minutes: Float64Array;
  /** Rows before each minute. */
  before: Float64Array;
  total: number;
}

type Store = Pick<HistoryStore, "minuteCounts" | "storedCount" | "query">;

/** The last index whose value is at most `x` (the minute holding row `x`); `before[0]` is 0. */
function minuteOf(before: Float64Array, x: number): number {
  let [lo, hi] = [0, before.length - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (before[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function historyPager(store: Store, options: HistoryPagerOptions = {}): HistoryPager {
  const maxMinutes = options.maxMinutes ?? 2_000_000;
  const kept = new Map<string, RangeIndex>();
  const building = new Map<string, Promise<RangeIndex>>();
  let keptMinutes = 0;

  const drop = (key: string) => {
    const idx = kept.get(key);
    if (!idx) return;
    kept.delete(key);
    keptMinutes -= idx.minutes.length;
  };

  const keep = (key: string, idx: RangeIndex) => {
    drop(key);
    kept.set(key, idx);
    keptMinutes += idx.minutes.length;
    // Map order is insertion order: the first keys are the least recently used.
    for (const oldest of kept.keys()) {
      if (keptMinutes <= maxMinutes || oldest === key) break;
      drop(oldest);
    }
  };

  async function build(range: PositionRange, stamp: number): Promise<RangeIndex> {
    const counts = await store.minuteCounts(range);
    const minutes = new Float64Array(counts.length);
    const before = new Float64Array(counts.length);
    let total = 0;
    counts.forEach(([minute, n], i) => {
      minutes[i] = minute;
      before[i] = total;
      total += n;
    });
    return { deviceId: range.deviceId, stamp, minutes, before, total };
  }

  async function indexOf(range: PositionRange): Promise<RangeIndex> {
    const key = `${range.deviceId}:${range.fromMs}:${range.toMs}`;
    // Read before the index: a write landing in between leaves a stamp older than the
    // index, so the next page builds it again rather than keeping a stale one.
    const stamp = await store.storedCount(range);
    const known = kept.get(key);
    if (known?.stamp === stamp) {
      keep(key, known);
      return known;
    }
    const flightKey = `${key}:${stamp}`;
    let pending = building.get(flightKey);
    if (!pending) {
      pending = build(range, stamp).finally(() => building.delete(flightKey));
      building.set(flightKey, pending);
    }
    const idx = await pending;
    keep(key, idx);
    return idx;
  }

  return {
    async page(range, offset, limit) {
      const idx = await indexOf(range);
      if (offset >= idx.total || limit <= 0) return { total: idx.total, rows: [] };
      const i = minuteOf(idx.before, offset);
      // The minute of the page's last row bounds the read too: FINAL then merges only the
      // page's minutes, not the rest of the range.
      const last = minuteOf(idx.before, Math.min(offset + limit, idx.total) - 1);
      const rows = await store.query({
        deviceId: range.deviceId,
        fromMs: Math.max(range.fromMs, idx.minutes[i]!),
        toMs: Math.min(range.toMs, idx.minutes[last]! + 59_999),
        offset: offset - idx.before[i]!,
        limit,
      });
      return { total: idx.total, rows };
    },
    forget(deviceId) {
      for (const [key, idx] of kept) if (idx.deviceId === deviceId) drop(key);
    },
  };
}

import type { HistoryBenchEnv } from "./settings.js";

const DAY_MS = 86_400_000;
const MONTH_DAYS = 30;

export interface TimeRange {
  fromMs: number;
  /** Inclusive, as the history store's ranges are. */
  toMs: number;
}

/** One device's share of the seed: how many positions it sends, from when. */
export interface DeviceShare {
  index: number;
  count: number;
  startTime: number;
}

/** Where the seeded positions lie in time, and the ranges the measures read. */
export interface Layout {
  intervalMs: number;
  /** Midnight UTC that every track ends before: the seed is history, all of it in the past. */
  end: number;
  devices: DeviceShare[];
  /** The measured device (index 0): a month-long range of it, for the pages, and one whole day, for get_history. */
  month: TimeRange;
  day: TimeRange;
}

/**
 * The measured device reports every interval for BENCH_HISTORY_DEEP_DAYS up to `end` (≈ 1M
 * positions at the defaults: a device deep enough that paging a month of it is a real
 * test); the other devices share the rest, each a stretch of its own within the last month.
 * The device-day is ten days before `end`, the month the last 30 days (both within the
 * measured device's history when it is shorter).
 */
export function layoutOf(s: HistoryBenchEnv, now = Date.now()): Layout {
  const intervalMs = s.BENCH_HISTORY_INTERVAL_S * 1000;
  const end = Math.floor(now / DAY_MS) * DAY_MS;
  const others = s.BENCH_HISTORY_DEVICES - 1;
  const deepCount = Math.min(Math.floor((s.BENCH_HISTORY_DEEP_DAYS * DAY_MS) / intervalMs), others > 0 ? Math.floor(s.BENCH_HISTORY_POSITIONS / 2) : s.BENCH_HISTORY_POSITIONS);
  const deepStart = end - deepCount * intervalMs;
  const devices: DeviceShare[] = [{ index: 0, count: deepCount, startTime: deepStart }];
  const rest = s.BENCH_HISTORY_POSITIONS - deepCount;
  for (let i = 1; i <= others; i++) {
    const count = Math.floor(rest / others) + (i <= rest % others ? 1 : 0);
    const span = count * intervalMs;
    // Spread over the month by a fixed stride, so each device's stretch ends at a different time.
    const slack = Math.max(0, MONTH_DAYS * DAY_MS - span);
    const offset = Math.floor(((i * 0.6180339887) % 1) * slack / intervalMs) * intervalMs;
    devices.push({ index: i, count, startTime: end - Math.max(span, MONTH_DAYS * DAY_MS) + offset });
  }
  const month = { fromMs: Math.max(deepStart, end - MONTH_DAYS * DAY_MS), toMs: end - 1 };
  const dayStart = Math.max(Math.ceil(deepStart / DAY_MS) * DAY_MS, end - 10 * DAY_MS);
  const day = { fromMs: dayStart, toMs: Math.min(dayStart + DAY_MS, end) - 1 };
  return { intervalMs, end, devices, month, day };
}

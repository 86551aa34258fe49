import { Type, type Static } from "@sinclair/typebox";
import { loadConfigOrExit } from "@fleet/config";
import type { HistoryBenchEnv } from "../history/settings.js";

/** `pnpm bench:reports`' knobs, validated like an app's config. */
export const ReportsBenchEnvSchema = Type.Object({
  BENCH_REPORTS_DEVICES: Type.Integer({ minimum: 1, maximum: 10_000, default: 100 }),
  /** Days of positions of each device, every BENCH_REPORTS_INTERVAL_S (7 days at 10 s: 60,480 a device, ≈ 6M in all). */
  BENCH_REPORTS_DAYS: Type.Integer({ minimum: 1, maximum: 31, default: 7 }),
  BENCH_REPORTS_INTERVAL_S: Type.Integer({ minimum: 1, maximum: 3600, default: 10 }),
  /** Rounds of each measure, interleaved; each figure is the median. */
  BENCH_REPORTS_ROUNDS: Type.Integer({ minimum: 1, maximum: 20, default: 3 }),
  /** Seed into this directory and keep it for the next run (same settings), rather than a temp one. */
  BENCH_REPORTS_DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
});
export type ReportsBenchEnv = Static<typeof ReportsBenchEnvSchema>;

export const loadReportsSettings = (): ReportsBenchEnv => loadConfigOrExit(ReportsBenchEnvSchema);

/**
 * The history bench's seeding settings that give every device the same number of days: the
 * history bench's seed (its track model, written straight into chDB) is reused as it is.
 */
export function historySeed(s: ReportsBenchEnv): HistoryBenchEnv {
  const perDevice = Math.floor((s.BENCH_REPORTS_DAYS * 86_400) / s.BENCH_REPORTS_INTERVAL_S);
  return {
    BENCH_HISTORY_POSITIONS: perDevice * s.BENCH_REPORTS_DEVICES,
    BENCH_HISTORY_DEVICES: s.BENCH_REPORTS_DEVICES,
    BENCH_HISTORY_DEEP_DAYS: s.BENCH_REPORTS_DAYS,
    BENCH_HISTORY_INTERVAL_S: s.BENCH_REPORTS_INTERVAL_S,
    BENCH_HISTORY_BATCH: 250_000,
    BENCH_HISTORY_SEED: 1,
    BENCH_HISTORY_ROUNDS: s.BENCH_REPORTS_ROUNDS,
    BENCH_HISTORY_SAMPLES: 1,
    BENCH_HISTORY_MEASURE_MAX_S: 600,
    ...(s.BENCH_REPORTS_DATA_DIR ? { BENCH_HISTORY_DATA_DIR: s.BENCH_REPORTS_DATA_DIR } : {}),
  };
}

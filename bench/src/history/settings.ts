import { Type, type Static } from "@sinclair/typebox";
import { loadConfigOrExit } from "@fleet/config";

/**
 * `pnpm bench:history`'s knobs, validated like an app's config. The standalone app's own
 * tunables pass through to it from the environment.
 */
export const HistoryBenchEnvSchema = Type.Object({
  /** Positions seeded in all, over BENCH_HISTORY_DEVICES devices of one user. */
  BENCH_HISTORY_POSITIONS: Type.Integer({ minimum: 1000, maximum: 100_000_000, default: 10_000_000 }),
  BENCH_HISTORY_DEVICES: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
  /**
   * Days of history of the measured device (the first), reporting every interval throughout:
   * the deep page and the device-day are read from it. The other devices share the rest.
   */
  BENCH_HISTORY_DEEP_DAYS: Type.Integer({ minimum: 2, maximum: 3650, default: 120 }),
  /** Seconds between a device's fixes (≈ 8,640 a day at 10 s). */
  BENCH_HISTORY_INTERVAL_S: Type.Integer({ minimum: 1, maximum: 3600, default: 10 }),
  /** Rows per insert into the history store. */
  BENCH_HISTORY_BATCH: Type.Integer({ minimum: 1000, maximum: 2_000_000, default: 250_000 }),
  BENCH_HISTORY_SEED: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 1 }),
  /** Rounds of every measure, interleaved; each figure is the median of the rounds'. */
  BENCH_HISTORY_ROUNDS: Type.Integer({ minimum: 1, maximum: 20, default: 5 }),
  /** Requests per measure and round (after a few warm-up ones), each measure capped at BENCH_HISTORY_MEASURE_MAX_S. */
  BENCH_HISTORY_SAMPLES: Type.Integer({ minimum: 1, maximum: 100_000, default: 100 }),
  BENCH_HISTORY_MEASURE_MAX_S: Type.Integer({ minimum: 1, maximum: 600, default: 15 }),
  /**
   * Seed into this directory and keep it, rather than a temp one removed at the end: a later
   * run with the same seeding settings finds it seeded and goes straight to the measures.
   */
  BENCH_HISTORY_DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
});
export type HistoryBenchEnv = Static<typeof HistoryBenchEnvSchema>;

export const loadHistorySettings = (): HistoryBenchEnv => loadConfigOrExit(HistoryBenchEnvSchema);

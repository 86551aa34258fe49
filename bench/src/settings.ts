import { Type, type Static } from "@sinclair/typebox";
import { loadConfigOrExit } from "@fleet/config";

/**
 * The bench's own knobs, validated like an app's config. The apps' tunables
 * (INGEST_BATCH_MAX, TRACKER_FLUSH_ROWS, ...) come from their own schemas, so the
 * bench runs with the same defaults and overrides as the apps.
 */
export const BenchEnvSchema = Type.Object({
  BENCH_PARTS: Type.String({ default: "bare,get,batch,tracker", pattern: "^(bare|get|batch|tracker)(,(bare|get|batch|tracker))*$" }),
  BENCH_DURATION_S: Type.Integer({ minimum: 1, maximum: 120, default: 10 }),
  /** Rounds of bare and ingest GET, alternating; the ratio is the median of the rounds'. */
  BENCH_ROUNDS: Type.Integer({ minimum: 1, maximum: 20, default: 5 }),
  BENCH_WARMUP_S: Type.Integer({ minimum: 0, maximum: 30, default: 3 }),
  /** Load through ingest before the first measured Kafka phase, so the broker is measured warm (see warmBroker). */
  BENCH_BROKER_WARMUP_S: Type.Integer({ minimum: 0, maximum: 600, default: 60 }),
  BENCH_CONNECTIONS: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  BENCH_BATCH_CONNECTIONS: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  BENCH_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 10_000, default: 500 }),
  BENCH_DEVICES: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
  BENCH_TRACKER_POSITIONS: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 1_000_000 }),
  BENCH_TRACKER_TIMEOUT_S: Type.Integer({ minimum: 10, maximum: 600, default: 150 }),
  /** Messages per send of the raw producer that pre-fills the tracker's topic. */
  BENCH_PREFILL_BATCH: Type.Integer({ minimum: 1, maximum: 100_000, default: 10_000 }),
});
export type BenchEnv = Static<typeof BenchEnvSchema>;

export const loadBenchSettings = (): BenchEnv => loadConfigOrExit(BenchEnvSchema);

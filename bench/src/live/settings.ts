import { Type, type Static } from "@sinclair/typebox";
import { loadConfigOrExit } from "@fleet/config";

/**
 * `pnpm bench:live`'s knobs, validated like an app's config. The standalone app's own
 * tunables (TRACKER_FLUSH_MS, INGEST_LINGER_MS, ...) pass through to it from the environment.
 */
export const LiveBenchEnvSchema = Type.Object({
  /** Which stores, in order: the embedded ones (PGlite, chDB, memory) and/or Postgres + Redis. */
  BENCH_LIVE_STORES: Type.String({ default: "embedded,postgres", pattern: "^(embedded|postgres)(,(embedded|postgres))*$" }),
  /** Devices of the measured account. */
  BENCH_LIVE_DEVICES: Type.Integer({ minimum: 10, maximum: 100_000, default: 10_000 }),
  /** Devices changed before each "changed" poll (capped at BENCH_LIVE_DEVICES). */
  BENCH_LIVE_CHANGED: Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 }),
  /** Client users: they own the devices the load goes to, and each polls every BENCH_LIVE_POLL_MS. */
  BENCH_LIVE_CLIENTS: Type.Integer({ minimum: 1, maximum: 2000, default: 200 }),
  BENCH_LIVE_DEVICES_PER_CLIENT: Type.Integer({ minimum: 1, maximum: 10_000, default: 50 }),
  /** Positions per second sent to the clients' devices during the load phase. */
  BENCH_LIVE_RATE: Type.Integer({ minimum: 1, maximum: 200_000, default: 10_000 }),
  /** One POST /insert batch per tick, sized to keep the rate. */
  BENCH_LIVE_TICK_MS: Type.Integer({ minimum: 5, maximum: 1000, default: 50 }),
  BENCH_LIVE_LOAD_S: Type.Integer({ minimum: 1, maximum: 600, default: 60 }),
  /** The load rises linearly to BENCH_LIVE_RATE over this, unmeasured, before the measured BENCH_LIVE_LOAD_S. */
  BENCH_LIVE_RAMP_S: Type.Integer({ minimum: 0, maximum: 120, default: 10 }),
  BENCH_LIVE_POLL_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 2000 }),
  /** How often the insert → visible probe pushes a position for one of the measured account's devices. */
  BENCH_LIVE_PROBE_MS: Type.Integer({ minimum: 10, maximum: 10_000, default: 250 }),
  /** How often a probe polls until its position shows. */
  BENCH_LIVE_PROBE_POLL_MS: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** A probe still invisible after this counts as a timeout (at this value in the percentiles). */
  BENCH_LIVE_PROBE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000 }),
  /** Rounds of the quiet measures; the figures are the median of the rounds' p99s. */
  BENCH_LIVE_ROUNDS: Type.Integer({ minimum: 1, maximum: 20, default: 3 }),
  /** Samples per round (after a few warm-up requests), each measure capped at BENCH_LIVE_MEASURE_MAX_S. */
  BENCH_LIVE_EMPTY_POLLS: Type.Integer({ minimum: 1, maximum: 100_000, default: 200 }),
  BENCH_LIVE_CHANGED_POLLS: Type.Integer({ minimum: 1, maximum: 100_000, default: 100 }),
  BENCH_LIVE_FULL_REQUESTS: Type.Integer({ minimum: 1, maximum: 10_000, default: 30 }),
  BENCH_LIVE_MEASURE_MAX_S: Type.Integer({ minimum: 1, maximum: 600, default: 12 }),
  /** The Redis database index the Postgres + Redis run uses; FLUSHDB before and after. */
  BENCH_LIVE_REDIS_DB: Type.Integer({ minimum: 1, maximum: 15, default: 11 }),
  /** How long the standalone app may take to answer HTTP after its start. */
  BENCH_LIVE_START_TIMEOUT_S: Type.Integer({ minimum: 5, maximum: 600, default: 120 }),
  /** Devices go offline after this; long enough that none does during a run, so a quiet poll stays empty. */
  BENCH_LIVE_OFFLINE_AFTER_MINUTES: Type.Integer({ minimum: 1, maximum: 100_000, default: 60 }),
});
export type LiveBenchEnv = Static<typeof LiveBenchEnvSchema>;

export const loadLiveSettings = (): LiveBenchEnv => loadConfigOrExit(LiveBenchEnvSchema);

import { benchRunsSmall } from "./run-small.js";

benchRunsSmall("ingest", ["insert_vs_bare_ratio", "batch_positions_per_s", "tracker_positions_per_s"], {
  BENCH_DURATION_S: "1", BENCH_ROUNDS: "1", BENCH_WARMUP_S: "0", BENCH_BROKER_WARMUP_S: "0", BENCH_DEVICES: "10", BENCH_TRACKER_POSITIONS: "2000", BENCH_PREFILL_BATCH: "1000",
});

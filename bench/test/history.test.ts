import { benchRunsSmall } from "./run-small.js";

benchRunsSmall("history", ["history_day_vs_raw_ratio", "history_messages_deep_cpu_ms_per_op", "bars_met"], {
  BENCH_HISTORY_POSITIONS: "20000", BENCH_HISTORY_DEVICES: "10", BENCH_HISTORY_ROUNDS: "1", BENCH_HISTORY_SAMPLES: "5", BENCH_HISTORY_MEASURE_MAX_S: "2", BENCH_HISTORY_DEEP_DAYS: "2", BENCH_HISTORY_BATCH: "10000",
});

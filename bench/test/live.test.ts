import { benchRunsSmall } from "./run-small.js";

benchRunsSmall("live", ["latest_vs_bare_ratio", "embedded_latest_vs_bare_ratio", "poll_errors", "bars_met"], {
  BENCH_LIVE_DEVICES: "100", BENCH_LIVE_CHANGED: "10", BENCH_LIVE_CLIENTS: "2", BENCH_LIVE_DEVICES_PER_CLIENT: "5", BENCH_LIVE_RATE: "100",
  BENCH_LIVE_LOAD_S: "2", BENCH_LIVE_RAMP_S: "0", BENCH_LIVE_ROUNDS: "1", BENCH_LIVE_EMPTY_POLLS: "5", BENCH_LIVE_CHANGED_POLLS: "5",
  BENCH_LIVE_FULL_REQUESTS: "2", BENCH_LIVE_MEASURE_MAX_S: "2",
});

import { benchRunsSmall } from "./run-small.js";

benchRunsSmall("rules", ["rules_positions_per_s", "rules_cpu_us_per_position", "rules_vs_baseline_ratio"], {
  BENCH_RULES_USERS: "1", BENCH_RULES_DEVICES_PER_USER: "5", BENCH_RULES_GEOFENCES_PER_USER: "10", BENCH_RULES_ALERTS_PER_USER: "10", BENCH_RULES_POSITIONS: "2000", BENCH_RULES_ROUNDS: "1",
});

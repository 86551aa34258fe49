import { benchRunsSmall } from "./run-small.js";

benchRunsSmall("reports", ["report_general_vs_raw_ratio", "report_general_engine_s", "report_drives_xls_s"], { BENCH_REPORTS_DEVICES: "2", BENCH_REPORTS_DAYS: "1", BENCH_REPORTS_ROUNDS: "1" });

import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hasService } from "@fleet/testkit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Each `pnpm bench:<name>` as the README has a user run it, shrunk to a few seconds of work:
 * it must end with its machine-readable lines. What the figures say at this size is not
 * looked at (the benches' own runs are); that they come out at all is, since a bench that
 * throws before it measures prints nothing a reader or a check can use.
 */
const BENCHES: { name: string; lines: string[]; env: Record<string, string> }[] = [
  {
    name: "ingest",
    lines: ["insert_vs_bare_ratio", "batch_positions_per_s", "tracker_positions_per_s"],
    env: { BENCH_DURATION_S: "1", BENCH_ROUNDS: "1", BENCH_WARMUP_S: "0", BENCH_BROKER_WARMUP_S: "0", BENCH_DEVICES: "10", BENCH_TRACKER_POSITIONS: "2000", BENCH_PREFILL_BATCH: "1000" },
  },
  {
    name: "live",
    lines: ["latest_vs_bare_ratio", "embedded_latest_vs_bare_ratio", "poll_errors", "bars_met"],
    env: {
      BENCH_LIVE_DEVICES: "100", BENCH_LIVE_CHANGED: "10", BENCH_LIVE_CLIENTS: "2", BENCH_LIVE_DEVICES_PER_CLIENT: "5", BENCH_LIVE_RATE: "100",
      BENCH_LIVE_LOAD_S: "2", BENCH_LIVE_RAMP_S: "0", BENCH_LIVE_ROUNDS: "1", BENCH_LIVE_EMPTY_POLLS: "5", BENCH_LIVE_CHANGED_POLLS: "5",
      BENCH_LIVE_FULL_REQUESTS: "2", BENCH_LIVE_MEASURE_MAX_S: "2",
    },
  },
  {
    name: "history",
    lines: ["history_day_vs_raw_ratio", "history_messages_deep_cpu_ms_per_op", "bars_met"],
    env: { BENCH_HISTORY_POSITIONS: "20000", BENCH_HISTORY_DEVICES: "10", BENCH_HISTORY_ROUNDS: "1", BENCH_HISTORY_SAMPLES: "5", BENCH_HISTORY_MEASURE_MAX_S: "2", BENCH_HISTORY_DEEP_DAYS: "2", BENCH_HISTORY_BATCH: "10000" },
  },
  {
    name: "rules",
    lines: ["rules_positions_per_s", "rules_cpu_us_per_position", "rules_vs_baseline_ratio"],
    env: { BENCH_RULES_USERS: "1", BENCH_RULES_DEVICES_PER_USER: "5", BENCH_RULES_GEOFENCES_PER_USER: "10", BENCH_RULES_ALERTS_PER_USER: "10", BENCH_RULES_POSITIONS: "2000", BENCH_RULES_ROUNDS: "1" },
  },
  {
    name: "reports",
    lines: ["report_general_vs_raw_ratio", "report_general_engine_s", "report_drives_xls_s"],
    env: { BENCH_REPORTS_DEVICES: "2", BENCH_REPORTS_DAYS: "1", BENCH_REPORTS_ROUNDS: "1" },
  },
];

/** This process's environment without vitest's marks: the bench runs as from a shell. */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("VITEST")) env[k] = v;
  return { ...env, ...extra };
}

function runBench(name: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("pnpm", ["-s", `bench:${name}`], { cwd: root, env: shellEnv(env), maxBuffer: 16 * 1024 * 1024, timeout: 150_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** The `name=value` lines a bench ends with, by name. */
function figures(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const m = /^([a-z][a-z0-9_]*)=(\S+)$/.exec(line.trim());
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("the benchmarks, run small as a user runs them", () => {
  it.each(BENCHES)("pnpm bench:$name ends with its figures", async ({ name, lines, env }) => {
    const run = await runBench(name, env);
    expect(run.code, `bench:${name} failed:\n${run.stderr.slice(-4000)}\n${run.stdout.slice(-2000)}`).toBe(0);
    // Progress lines while it runs, as a long command should print.
    expect(run.stdout + run.stderr).toMatch(/\[bench\s+[\d.]+s\]/);
    const got = figures(run.stdout);
    for (const line of lines) {
      expect(got.has(line), `bench:${name} printed no ${line}=`).toBe(true);
      expect(got.get(line)).toMatch(/^-?\d+(\.\d+)?(\/\d+)?$/);
    }
  }, 180_000);
});

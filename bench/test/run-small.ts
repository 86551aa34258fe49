import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hasService } from "@fleet/testkit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

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

/**
 * `pnpm bench:<name>` as the README has a user run it, shrunk by `env` to a few seconds of
 * work: it must print progress lines and end with its machine-readable `lines`. What the
 * figures say at this size is not looked at (the benches' own runs are); that they come out
 * at all is, since a bench that throws before it measures prints nothing a reader or a check
 * can use. One file a bench, so that their waits on Kafka's groups overlap other files.
 */
export function benchRunsSmall(name: string, lines: readonly string[], env: Record<string, string>): void {
  describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("the benchmarks, run small as a user runs them", () => {
    it(`pnpm bench:${name} ends with its figures`, async () => {
      const run = await runBench(name, env);
      expect(run.code, `bench:${name} failed:\n${run.stderr.slice(-4000)}\n${run.stdout.slice(-2000)}`).toBe(0);
      expect(run.stdout + run.stderr).toMatch(/\[bench\s+[\d.]+s\]/);
      const got = figures(run.stdout);
      for (const line of lines) {
        expect(got.has(line), `bench:${name} printed no ${line}=`).toBe(true);
        expect(got.get(line)).toMatch(/^-?\d+(\.\d+)?(\/\d+)?$/);
      }
    }, 180_000);
  });
}

/**
 * The tracker's entry point as an operator starts it (README, distributed mode): without a
 * ClickHouse server a second tracker used to die on chDB's directory lock with a stack trace.
 * Its /health (HEALTH_PORT) answers 503 while it starts.
 */
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { freePort, silentServer, waitForHealth } from "@fleet/testkit";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const server = fileURLToPath(new URL("../src/server.ts", import.meta.url));

it("refuses to start in a process of its own without CLICKHOUSE_URL, in one line, exit code 1", () => {
  const env = { ...process.env, KAFKA_BROKERS: "127.0.0.1:1", DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", REDIS_URL: "redis://127.0.0.1:1", CLICKHOUSE_URL: "" };
  const run = spawnSync(process.execPath, ["--conditions=@fleet/source", "--import", "tsx", server], { cwd: repoRoot, env, encoding: "utf8", timeout: 30_000 });
  expect(run.status).toBe(1);
  const lines = run.stderr.trim().split("\n");
  expect(lines).toEqual(["the tracker in a process of its own needs CLICKHOUSE_URL (chDB opens its directory in one process only); `pnpm start` runs everything in one process on the embedded stores"]);
});

it("answers GET /health on HEALTH_PORT with 503 while it starts (here: a database that never answers)", async () => {
  const db = await silentServer();
  const port = await freePort();
  const env = { ...process.env, KAFKA_BROKERS: "127.0.0.1:1", DATABASE_URL: `postgres://nobody@${db.hostPort}/none`, REDIS_URL: "redis://127.0.0.1:1", CLICKHOUSE_URL: "http://127.0.0.1:1", HEALTH_PORT: String(port), LOG_LEVEL: "silent" };
  const child = spawn(process.execPath, ["--conditions=@fleet/source", "--import", "tsx", server], { cwd: repoRoot, env, stdio: "ignore" });
  try {
    expect(await waitForHealth(`http://127.0.0.1:${port}/health`, 503, { exited: () => child.exitCode !== null })).toEqual({ status: 0, error: "The tracker is starting." });
  } finally {
    child.kill("SIGKILL");
    await db.close();
  }
}, 90_000);

/**
 * The tracker's entry point as an operator starts it (README, distributed mode): without a
 * ClickHouse server a second tracker used to die on chDB's directory lock with a stack trace.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const server = fileURLToPath(new URL("../src/server.ts", import.meta.url));

it("refuses to start in a process of its own without CLICKHOUSE_URL, in one line, exit code 1", () => {
  const env = { ...process.env, KAFKA_BROKERS: "127.0.0.1:1", DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", REDIS_URL: "redis://127.0.0.1:1", CLICKHOUSE_URL: "" };
  const run = spawnSync(process.execPath, ["--conditions=@fleet/source", "--import", "tsx", server], { cwd: repoRoot, env, encoding: "utf8", timeout: 30_000 });
  expect(run.status).toBe(1);
  const lines = run.stderr.trim().split("\n");
  expect(lines).toEqual(["the tracker in a process of its own needs CLICKHOUSE_URL (chDB opens its directory in one process only); `pnpm start` runs everything in one process on the embedded stores"]);
});

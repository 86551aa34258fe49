/**
 * The rules service's /health (HEALTH_PORT), on its entry point as an operator starts it:
 * 503 while it starts, 200 once it consumes, and a clean exit on SIGTERM. It serves no
 * other HTTP, so this is what a container's health check asks.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "@fleet/db";
import { freePort, hasService, serviceUrls, silentServer, tempPostgresDb, waitForHealth } from "@fleet/testkit";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const server = fileURLToPath(new URL("../src/server.ts", import.meta.url));

let child: ChildProcess | undefined;
let pg: Awaited<ReturnType<typeof tempPostgresDb>> | undefined;
beforeAll(async () => {
  if (!hasService("postgres")) return;
  pg = await tempPostgresDb();
  // Migrated here, once: a child killed mid-migration must not leave the next one a half-made schema.
  const db = await openDb({ databaseUrl: pg.url, dataDir: tmpdir() });
  await db.migrate();
  await db.close();
});
afterAll(async () => {
  await pg?.cleanup();
});
afterEach(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

async function start(kafkaBrokers: string): Promise<string> {
  const port = await freePort();
  child = spawn(process.execPath, ["--conditions=@fleet/source", "--import", "tsx", server], {
    cwd: repoRoot,
    env: { ...process.env, KAFKA_BROKERS: kafkaBrokers, DATABASE_URL: pg?.url ?? "", REDIS_URL: serviceUrls.redis, HEALTH_PORT: String(port), LOG_LEVEL: "silent" },
    stdio: "ignore",
  });
  return `http://127.0.0.1:${port}/health`;
}

describe.runIf(hasService("postgres"))("the rules service's /health", () => {
  it("answers 503 while the service cannot reach its broker yet", async () => {
    const broker = await silentServer();
    try {
      const url = await start(broker.hostPort);
      expect(await waitForHealth(url, 503, { exited: () => child?.exitCode !== null })).toEqual({ status: 0, error: "The rules service is starting." });
    } finally {
      await broker.close();
    }
  }, 90_000);

  it("says in one line that HEALTH_PORT is taken, and exits 1", async () => {
    const other = createServer();
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
    const port = (other.address() as AddressInfo).port;
    try {
      const run = spawn(process.execPath, ["--conditions=@fleet/source", "--import", "tsx", server], {
        cwd: repoRoot,
        env: { ...process.env, KAFKA_BROKERS: "127.0.0.1:9", DATABASE_URL: pg?.url ?? "", REDIS_URL: serviceUrls.redis, HEALTH_PORT: String(port), LOG_LEVEL: "info" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = run;
      let output = "";
      for (const s of [run.stdout, run.stderr]) s.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => run.once("exit", resolve));
      expect(code).toBe(1);
      expect(output).toContain(`127.0.0.1:${port} is already in use by another program: stop it, or choose another HEALTH_PORT.`);
      expect(output).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      other.close();
    }
  }, 90_000);

  it.runIf(hasService("kafka"))("answers 200 once it consumes, and the process ends on SIGTERM", async () => {
    const url = await start(serviceUrls.kafka);
    expect(await waitForHealth(url, 200, { exited: () => child?.exitCode !== null })).toEqual({ status: 1 });
    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    child!.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 90_000);
});

/**
 * A consumer app whose consumer stops for good must not stay up consuming nothing: it logs
 * why and exits non-zero, so its supervisor starts a fresh process. Shown on the rules
 * service's own entry point, as an operator runs it, against a broker of the test's own
 * that goes away: with KAFKA_CONSUMER_RESTARTS=0 the first crash is the last.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus } from "@fleet/bus";
import { ConsumerGroups, Topics } from "@fleet/contracts";
import { PrivateBroker, hasService, serviceUrls, tempPostgresDb } from "@fleet/testkit";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const server = fileURLToPath(new URL("../src/server.ts", import.meta.url));

interface LogLine {
  level: number;
  msg?: string;
  groupId?: string;
  topic?: string;
  err?: { message?: string };
}

describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("the rules service when its consumer stops for good", () => {
  let broker: PrivateBroker | undefined;
  let pg: Awaited<ReturnType<typeof tempPostgresDb>> | undefined;

  beforeAll(async () => {
    pg = await tempPostgresDb();
    broker = await PrivateBroker.create();
    await broker.run("start");
    const bus = createKafkaBus({ brokers: broker.brokers, clientId: "fatal-test" });
    await bus.ensureTopics([Topics.positionsEnriched, Topics.rulesChanged], 2);
    await bus.close();
  }, 120_000);

  afterAll(async () => {
    await broker?.destroy();
    await pg?.cleanup();
  }, 60_000);

  it("logs why and exits non-zero", async () => {
    const lines: LogLine[] = [];
    let stderr = "";
    const child = spawn(process.execPath, ["--conditions=@fleet/source", "--import", "tsx", server], {
      cwd: repoRoot,
      env: { ...process.env, KAFKA_BROKERS: broker!.brokers.join(","), DATABASE_URL: pg!.url, REDIS_URL: serviceUrls.redis, KAFKA_CONSUMER_RESTARTS: "0", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (stderr = (stderr + chunk).slice(-32_000)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        stderr += `[stdout] ${line}\n`;
      }
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const started = Date.now();
      while (!lines.some((l) => l.msg === "rules consuming")) {
        if (child.exitCode !== null) throw new Error(`rules exited before consuming:\n${stderr}`);
        if (Date.now() - started > 60_000) throw new Error(`rules did not start consuming within 60 s:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }

      await broker!.run("stop");
      const stoppedAt = Date.now();
      const code = await Promise.race([exited, new Promise<"alive">((r) => setTimeout(() => r("alive"), 150_000))]);
      const fatal = lines.find((l) => l.level === 60);
      console.log(`[reliability] fatal_consumer exit_code=${String(code)} exit_s=${((Date.now() - stoppedAt) / 1000).toFixed(1)} reason=${JSON.stringify(fatal?.err?.message ?? null)}`);

      expect(code, `still running 150 s after its broker went away; stderr:\n${stderr}`).not.toBe("alive");
      expect(code).toBe(1);
      // Either of its consumers may be the first to give up: positions, or the rules.changed notices (a group of its own per instance).
      expect(fatal, `no fatal log line; stderr:\n${stderr}`).toMatchObject({ msg: "a bus consumer stopped for good; exiting so the supervisor restarts this process" });
      expect([Topics.positionsEnriched, Topics.rulesChanged]).toContain(fatal!.topic);
      expect(fatal!.groupId?.startsWith(ConsumerGroups.rules)).toBe(true);
      expect(fatal!.err?.message).toBeTruthy();
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 240_000);
});

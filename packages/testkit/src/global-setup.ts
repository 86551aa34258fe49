import type { TestProject } from "vitest/node";
import { oncePerRun } from "./once-per-run.js";
import { probeServices, serviceUrls, type ServiceName } from "./services.js";

/**
 * Probes the real services once per run. In CI a missing Kafka, Postgres or Redis
 * fails the run; on a developer machine without them the integration tests skip
 * with the reason printed here. ClickHouse server is optional everywhere (chDB stands
 * in for it), so its tests skip in CI too, but never silently: the reason is printed
 * here as well. (@fleet/db's setup makes the stores every temporary one copies.)
 */
export default async function setup(project: TestProject): Promise<void> {
  project.provide("services", await oncePerRun("services", probed));
}

async function probed(): Promise<Record<ServiceName, boolean>> {
  const services = await probeServices();
  const missing = (["kafka", "postgres", "redis"] as const).filter((s) => !services[s]);
  if (missing.length > 0) {
    const where = missing.map((s) => `${s} (${serviceUrls[s]})`).join(", ");
    if (process.env.CI === "true") {
      throw new Error(`CI needs every service, but these do not answer: ${where}. Start them with infra/up.sh.`);
    }
    console.warn(`\n[testkit] not reachable: ${where}; integration tests that need them are skipped. Run infra/up.sh to include them.\n`);
  }
  if (!services.clickhouse) {
    const why = serviceUrls.clickhouse === "" ? "CLICKHOUSE_URL is not set" : `not reachable: clickhouse (${serviceUrls.clickhouse})`;
    console.warn(
      `\n[testkit] ${why}; tests that need a ClickHouse server are skipped (the history contract's ClickHouse-server half; chDB runs the same contract). Set CLICKHOUSE_URL to a ClickHouse 24.x or newer server to include them.\n`,
    );
  }
  return services;
}

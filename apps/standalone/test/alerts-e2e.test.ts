/**
 * Alerts end to end (alerts-scenario.ts), on the deployed parts (ingest, tracker, rules and
 * API over Kafka, Postgres, Redis and chDB) and in embedded mode (`pnpm start`), each with a
 * real webhook server and a real SMTP server.
 */
import { rm } from "node:fs/promises";
import { pino } from "pino";
import { afterAll, beforeAll, describe, it } from "vitest";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { hasService, smtpTestServer, type SmtpTestServer, tempPglite } from "@fleet/testkit";
import { startStandalone, type Standalone } from "../src/main.js";
import { alertsScenario, hookServer, type HookServer } from "./alerts-scenario.js";
import { distributedStack, type DistributedStack } from "./distributed-stack.js";

const silent = pino({ level: "silent" });

describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("alerts end to end on Kafka, Postgres, Redis and chDB", () => {
  const admin = { email: "admin@alerts-dist.test", password: "alerts-dist-secret" };
  let smtp: SmtpTestServer;
  let hooks: HookServer;
  let stack: DistributedStack;

  beforeAll(async () => {
    [smtp, hooks] = await Promise.all([smtpTestServer(), hookServer()]);
    // The webhook server of this test listens on loopback.
    stack = await distributedStack({ label: "alerts-e2e", admin, smtpUrl: smtp.url, allowPrivate: true });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await Promise.all([smtp?.close(), hooks?.close()]);
  });

  it("fires one in-event and one out-event for a track through a geofence, listed and notified once each, and one move_start event", () => alertsScenario({ baseUrl: stack.url, admin, smtp, hooks }), 180_000);
});

describe("alerts end to end in embedded mode", () => {
  const admin = { email: "admin@alerts-e2e.test", password: "alerts-e2e-secret" };
  let dataDir: string;
  let fleet: Standalone;
  let smtp: SmtpTestServer;
  let hooks: HookServer;

  beforeAll(async () => {
    dataDir = (await tempPglite()).dataDir;
    [smtp, hooks] = await Promise.all([smtpTestServer(), hookServer()]);
    const config = loadConfig(StandaloneEnvSchema, {
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      FLEET_ADMIN_EMAIL: admin.email,
      FLEET_ADMIN_PASSWORD: admin.password,
      TRACKER_FLUSH_MS: "200",
      SMTP_URL: smtp.url,
      // The webhook server of this test listens on loopback.
      OUTBOUND_ALLOW_PRIVATE: "true",
    });
    fleet = await startStandalone(config, silent);
  }, 120_000);

  afterAll(async () => {
    await fleet?.close();
    await Promise.all([smtp?.close(), hooks?.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("fires one in-event and one out-event for a track through a geofence, listed and notified once each, and one move_start event", () => alertsScenario({ baseUrl: fleet.url, admin, smtp, hooks }), 180_000);
});

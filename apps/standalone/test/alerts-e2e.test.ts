/**
 * Alerts end to end (alerts-scenario.ts), on the deployed parts (ingest, tracker, rules and
 * API over Kafka, Postgres, Redis and chDB) and in embedded mode (`pnpm start`), each with a
 * real webhook server and a real SMTP server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { pino } from "pino";
import { afterAll, beforeAll, describe, it } from "vitest";
import { apiApp, apiServerOptions, busDeadLetters, busRulesNotices, createBusCommandQueue, ensureAdmin } from "@fleet/api";
import { createKafkaBus, type Bus, type BusProducer } from "@fleet/bus";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { openDb, type DbHandle } from "@fleet/db";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createPublisher, ingestApp, type Publisher } from "@fleet/ingest";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { createMailer, type Mailer } from "@fleet/mail";
import { startRules, type Rules } from "@fleet/rules";
import { hasService, kafkaTest, redisTest, smtpTestServer, tempChdbDir, tempPostgresDb, type SmtpTestServer } from "@fleet/testkit";
import { startTracker, type Tracker } from "@fleet/tracker";
import { startStandalone, type Standalone } from "../src/main.js";
import { alertsScenario, hookServer, type HookServer } from "./alerts-scenario.js";

const silent = pino({ level: "silent" });

describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("alerts end to end on Kafka, Postgres, Redis and chDB", () => {
  const admin = { email: "admin@alerts-dist.test", password: "alerts-dist-secret" };
  const kafka = kafkaTest("alerts-e2e");
  const redis = redisTest("alerts-e2e");
  let pg: Awaited<ReturnType<typeof tempPostgresDb>>;
  let chdb: Awaited<ReturnType<typeof tempChdbDir>>;
  let smtp: SmtpTestServer;
  let hooks: HookServer;
  let bus: Bus;
  let db: DbHandle;
  let history: HistoryStore;
  let live: LiveStore;
  let mailer: Mailer;
  let tracker: Tracker;
  let rules: Rules;
  let publisher: Publisher;
  let producer: BusProducer;
  let app: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    [pg, chdb, smtp, hooks] = await Promise.all([tempPostgresDb(), tempChdbDir(), smtpTestServer(), hookServer()]);
    db = await openDb({ databaseUrl: pg.url, dataDir: chdb.path });
    await db.migrate();
    await ensureAdmin(db.db, admin.email, admin.password);
    history = createChdbHistory({ path: chdb.path });
    await history.migrate();
    live = createRedisLive({ url: redis.url, keyPrefix: redis.keyPrefix });
    mailer = createMailer({ smtpUrl: smtp.url, from: "Fleet <alerts@fleet.test>", dataDir: chdb.path, logger: silent });
    bus = createKafkaBus({ brokers: kafka.brokers, clientId: "alerts-e2e", logger: silent });
    const topics = { raw: kafka.topic("raw"), enriched: kafka.topic("enriched"), notices: kafka.topic("notices"), commands: kafka.topic("commands") };
    await bus.ensureTopics(Object.values(topics), 4);
    // Each service on its own topics and groups; Kafka, Postgres and Redis sit between them as in production.
    tracker = await startTracker({ bus, db: db.db, history, live, logger: silent, flushRows: 5000, flushMs: 200, partitionsConcurrently: 4, deviceSyncMs: 500, topic: topics.raw, enrichedTopic: topics.enriched, deadTopic: kafka.topic("dead"), groupId: kafka.groupId("tracker") });
    // The webhook server of this test listens on loopback.
    rules = await startRules({ bus, db: db.db, live, logger: silent, mailer, allowPrivate: true, topic: topics.enriched, fromBeginning: true, noticesTopic: topics.notices, commandsTopic: topics.commands, deadTopic: kafka.topic("dead"), groupId: kafka.groupId("rules") });
    producer = await bus.producer();
    publisher = createPublisher({ producer: await bus.producer(), batchMax: 500, lingerMs: 2, sendTimeoutMs: 10_000, topic: topics.raw });
    app = Fastify(apiServerOptions());
    await app.register(ingestApp, { publisher });
    await app.register(apiApp, {
      prefix: "/api",
      db: db.db,
      live,
      history,
      mailer,
      commands: createBusCommandQueue({ producer, topic: topics.commands }),
      deadLetters: busDeadLetters(bus, producer),
      rulesNotices: busRulesNotices({ producer, topic: topics.notices }),
      settings: { offlineAfterMs: 300_000, version: "test", smsGatewayAllowPrivate: true },
    });
    baseUrl = await app.listen({ host: "127.0.0.1", port: 0 });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await publisher?.close();
    await producer?.close();
    await tracker?.close();
    await rules?.close();
    await bus?.close();
    await Promise.all([history?.close(), live?.close(), db?.close(), mailer?.close(), smtp?.close(), hooks?.close()]);
    await Promise.all([kafka.cleanup(), redis.cleanup(), pg?.cleanup(), chdb?.cleanup()]);
  });

  it("fires one in-event and one out-event for a track through a geofence, listed and notified once each", () => alertsScenario({ baseUrl, admin, smtp, hooks }), 180_000);
});

describe("alerts end to end in embedded mode", () => {
  const admin = { email: "admin@alerts-e2e.test", password: "alerts-e2e-secret" };
  let dataDir: string;
  let fleet: Standalone;
  let smtp: SmtpTestServer;
  let hooks: HookServer;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "fleet-alerts-e2e-"));
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

  it("fires one in-event and one out-event for a track through a geofence, listed and notified once each", () => alertsScenario({ baseUrl: fleet.url, admin, smtp, hooks }), 180_000);
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiApp, apiServerOptions, busDeadLetters, createBusCommandQueue, ensureAdmin } from "@fleet/api";
import { createKafkaBus, type Bus } from "@fleet/bus";
import { loadConfig, StandaloneEnvSchema } from "@fleet/config";
import { openDb, type DbHandle } from "@fleet/db";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createPublisher, ingestApp, type Publisher } from "@fleet/ingest";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { startRules, type Rules } from "@fleet/rules";
import { hasService, kafkaTest, redisTest, tempChdbDir, tempPostgresDb } from "@fleet/testkit";
import { startTracker, type Tracker } from "@fleet/tracker";
import { startStandalone, type Standalone } from "../src/main.js";
import { fleetScenario, type Client } from "./scenario.js";

const admin = { email: "admin@e2e.test", password: "e2e-secret" };
const silent = pino({ level: "silent" });

// Needs the real services; without them (a machine with no infra/ running) it is skipped,
// and in CI global setup has already failed the run.
describe.runIf(hasService("kafka") && hasService("postgres") && hasService("redis"))("end to end on Kafka, Postgres, Redis and chDB", () => {
  const kafka = kafkaTest("e2e");
  const redis = redisTest("e2e");
  let pg: Awaited<ReturnType<typeof tempPostgresDb>>;
  let chdb: Awaited<ReturnType<typeof tempChdbDir>>;
  let bus: Bus;
  let db: DbHandle;
  let history: HistoryStore;
  let live: LiveStore;
  let tracker: Tracker;
  let tracker2: Tracker;
  let rules: Rules;
  let publisher: Publisher;
  let app: FastifyInstance;

  beforeAll(async () => {
    pg = await tempPostgresDb();
    chdb = await tempChdbDir();
    db = await openDb({ databaseUrl: pg.url, dataDir: chdb.path });
    await db.migrate();
    await ensureAdmin(db.db, admin.email, admin.password);
    history = createChdbHistory({ path: chdb.path });
    await history.migrate();
    live = createRedisLive({ url: redis.url, keyPrefix: redis.keyPrefix });
    bus = createKafkaBus({ brokers: kafka.brokers, clientId: "e2e", logger: silent });
    const raw = kafka.topic("raw");
    const enriched = kafka.topic("enriched");
    await bus.ensureTopics([raw, enriched, kafka.topic("notices")], 12);
    // Ingest, tracker, rules and API share this process around one chDB session; Kafka,
    // Postgres and Redis sit between them as in production.
    // Two trackers in one consumer group: they split the partitions and together store each position once.
    const trackerOptions = { bus, db: db.db, history, live, logger: silent, flushRows: 5000, flushMs: 200, partitionsConcurrently: 12, deviceSyncMs: 500, topic: raw, enrichedTopic: enriched, deadTopic: kafka.topic("dead"), groupId: kafka.groupId("tracker") };
    tracker = await startTracker(trackerOptions);
    tracker2 = await startTracker(trackerOptions);
    rules = await startRules({ bus, db: db.db, live, logger: silent, topic: enriched, noticesTopic: kafka.topic("notices"), groupId: kafka.groupId("rules") });
    publisher = createPublisher({ producer: await bus.producer(), batchMax: 500, lingerMs: 2, sendTimeoutMs: 10_000, topic: raw });
    app = Fastify(apiServerOptions());
    await app.register(ingestApp, { publisher });
    const producer = await bus.producer();
    const commands = createBusCommandQueue({ producer, topic: kafka.topic("commands") });
    await app.register(apiApp, { prefix: "/api", db: db.db, live, history, commands, deadLetters: busDeadLetters(bus, producer), settings: { offlineAfterMs: 300_000, version: "test" } });
  });

  afterAll(async () => {
    await app?.close();
    await publisher?.close();
    await tracker?.close();
    await tracker2?.close();
    await rules?.close();
    await bus?.close();
    await Promise.all([history?.close(), live?.close(), db?.close()]);
    await Promise.all([kafka.cleanup(), redis.cleanup(), pg?.cleanup(), chdb?.cleanup()]);
  });

  it("stores every acknowledged position once and serves the live list and the changed-since poll", async () => {
    const client: Client = {
      async request(method, url, body) {
        const res = await app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
        return { status: res.statusCode, json: res.json() };
      },
      historyCount: () => history.count(),
    };
    await fleetScenario(client, admin);
    // Both group members took part; the scenario already proved each position is stored once.
    expect(tracker.pipeline.stats().positions).toBeGreaterThan(0);
    expect(tracker2.pipeline.stats().positions).toBeGreaterThan(0);
    expect(tracker.pipeline.stats().positions + tracker2.pipeline.stats().positions).toBeGreaterThanOrEqual(2005);
  }, 180_000);
});

describe("end to end in embedded mode (pnpm start: PGlite, chDB, in-process bus, memory live store)", () => {
  let dataDir: string;
  let fleet: Standalone;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "fleet-embedded-"));
    const config = loadConfig(StandaloneEnvSchema, { DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", FLEET_ADMIN_EMAIL: admin.email, FLEET_ADMIN_PASSWORD: admin.password, TRACKER_FLUSH_MS: "200" });
    fleet = await startStandalone(config, silent);
  });

  afterAll(async () => {
    await fleet?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("runs the same scenario over real HTTP", async () => {
    const client: Client = {
      async request(method, url, body) {
        const res = await fetch(new URL(url, fleet.url), {
          method,
          headers: body === undefined ? {} : { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, json: await res.json() };
      },
      historyCount: () => fleet.history.count(),
    };
    await fleetScenario(client, admin);
  }, 180_000);
});

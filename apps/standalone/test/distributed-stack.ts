import Fastify, { type FastifyInstance } from "fastify";
import { pino } from "pino";
import { apiApp, apiServerOptions, busDeadLetters, busRulesNotices, createBusCommandQueue, ensureAdmin } from "@fleet/api";
import { createKafkaBus, type Bus, type BusProducer } from "@fleet/bus";
import { openDb, type DbHandle } from "@fleet/db";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createPublisher, ingestApp, type Publisher } from "@fleet/ingest";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { createMailer, type Mailer } from "@fleet/mail";
import { startRules, type Rules } from "@fleet/rules";
import { kafkaTest, redisTest, tempChdbDir, tempPostgresDb } from "@fleet/testkit";
import { startTracker, type Tracker } from "@fleet/tracker";

export interface DistributedStackOptions {
  /** Names the run's topics, groups, keys and databases. */
  label: string;
  admin: { email: string; password: string };
  /** Partitions of each topic. Default 4. */
  partitions?: number;
  /** Tracker instances in one consumer group. Default 1. */
  trackers?: number;
  /** Notification mail goes to this server; without it the rules service sends none. */
  smtpUrl?: string;
  /** Webhooks and SMS gateways may be at private addresses (a test's own servers on loopback). */
  allowPrivate?: boolean;
}

/** The deployed parts in one process, with Kafka, Postgres and Redis between them as in production. */
export interface DistributedStack {
  app: FastifyInstance;
  /** Where the app listens (ingest and API on one port). */
  url: string;
  history: HistoryStore;
  trackers: Tracker[];
  rules: Rules;
  close(): Promise<void>;
}

const silent = pino({ level: "silent" });

/**
 * Ingest, tracker(s), rules and the API around one chDB session and a database of their own,
 * each service on its own topics and consumer groups: what the distributed end-to-end tests
 * drive over HTTP. `close` stops them and removes what the run made.
 */
export async function distributedStack(opts: DistributedStackOptions): Promise<DistributedStack> {
  const kafka = kafkaTest(opts.label);
  const redis = redisTest(opts.label);
  const [pg, chdb] = await Promise.all([tempPostgresDb(), tempChdbDir()]);
  let db: DbHandle | undefined;
  let history: HistoryStore | undefined;
  let live: LiveStore | undefined;
  let mailer: Mailer | undefined;
  let bus: Bus | undefined;
  let producer: BusProducer | undefined;
  let publisher: Publisher | undefined;
  let app: FastifyInstance | undefined;
  const trackers: Tracker[] = [];
  let rules: Rules | undefined;

  async function close(): Promise<void> {
    await app?.close();
    await publisher?.close();
    await producer?.close();
    for (const t of trackers) await t.close();
    await rules?.close();
    await bus?.close();
    await Promise.all([history?.close(), live?.close(), db?.close(), mailer?.close()]);
    await Promise.all([kafka.cleanup(), redis.cleanup(), pg.cleanup(), chdb.cleanup()]);
  }

  try {
    db = await openDb({ databaseUrl: pg.url, dataDir: chdb.path });
    await db.migrate();
    await ensureAdmin(db.db, opts.admin.email, opts.admin.password);
    history = createChdbHistory({ path: chdb.path });
    await history.migrate();
    live = createRedisLive({ url: redis.url, keyPrefix: redis.keyPrefix });
    if (opts.smtpUrl) mailer = createMailer({ smtpUrl: opts.smtpUrl, from: "Fleet <alerts@fleet.test>", dataDir: chdb.path, logger: silent });
    bus = createKafkaBus({ brokers: kafka.brokers, clientId: opts.label, logger: silent });
    const topics = { raw: kafka.topic("raw"), enriched: kafka.topic("enriched"), notices: kafka.topic("notices"), commands: kafka.topic("commands"), dead: kafka.topic("dead") };
    await bus.ensureTopics(Object.values(topics), opts.partitions ?? 4);
    const partitionsConcurrently = opts.partitions ?? 4;
    const trackerOptions = { bus, db: db.db, history, live, logger: silent, flushRows: 5000, flushMs: 200, partitionsConcurrently, deviceSyncMs: 500, topic: topics.raw, enrichedTopic: topics.enriched, deadTopic: topics.dead, groupId: kafka.groupId("tracker") };
    for (let i = 0; i < (opts.trackers ?? 1); i++) trackers.push(await startTracker(trackerOptions));
    rules = await startRules({
      bus,
      db: db.db,
      live,
      logger: silent,
      mailer,
      allowPrivate: opts.allowPrivate ?? false,
      topic: topics.enriched,
      fromBeginning: true,
      noticesTopic: topics.notices,
      commandsTopic: topics.commands,
      deadTopic: topics.dead,
      groupId: kafka.groupId("rules"),
    });
    producer = await bus.producer();
    // The publisher closes the producer it is given: one of its own.
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
      settings: { offlineAfterMs: 300_000, version: "test", smsGatewayAllowPrivate: opts.allowPrivate ?? false },
    });
    const url = await app.listen({ host: "127.0.0.1", port: 0 });
    return { app, url, history, trackers, rules, close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}

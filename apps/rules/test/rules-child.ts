/**
 * One rules process for crash.test.ts: the production wiring of server.ts (Kafka bus,
 * Postgres rule records and events, Redis rule state) on the test's own topics, group and key
 * prefix, so the test can SIGKILL it and start another on the same group.
 *
 * stdout carries one JSON object per line and nothing else:
 *   {"event":"ready"}                                    joined the group
 *   {"event":"stored","devices":[id,...],"seen":n,"recorded":n}  after each rule state write succeeded
 *   {"event":"stats","seen":n,"recorded":n,...}          every CRASH_REPORT_MS
 *   {"event":"closed","seen":n,"recorded":n,...}         after a graceful close (SIGTERM)
 * `seen` is rules.seen() (positions fully handled: their events recorded and their devices'
 * rule state stored); `recorded` is rules.recorded() (events this process inserted, each once).
 * Logs go to stderr.
 */
import { Type } from "@sinclair/typebox";
import closeWithGrace from "close-with-grace";
import { pino } from "pino";
import { createKafkaBus, type KafkaBusOptions } from "@fleet/bus";
import { loadConfigOrExit, RulesEnvSchema } from "@fleet/config";
import { openDb } from "@fleet/db";
import { createRedisLive, type LiveStore } from "@fleet/live";
import { startRules } from "../src/service.js";

const ChildEnvSchema = Type.Composite([
  RulesEnvSchema,
  Type.Object({
    CRASH_TOPIC: Type.String({ minLength: 1 }),
    CRASH_GROUP_ID: Type.String({ minLength: 1 }),
    /** The test's own rules.changed topic (nothing is sent on it; every instance subscribes). */
    CRASH_NOTICES_TOPIC: Type.String({ minLength: 1 }),
    /** Where messages that are not enriched positions would go instead, so the shared topic stays clean. */
    CRASH_DEAD_TOPIC: Type.String({ minLength: 1 }),
    /** Where device commands of alert notifications would go (the test's alerts notify nothing). */
    CRASH_COMMANDS_TOPIC: Type.String({ minLength: 1 }),
    CRASH_REDIS_KEY_PREFIX: Type.String({ minLength: 1 }),
    /**
     * How long each rule state write is held back after it succeeded, before the service
     * learns of it. In production the window between "state is in Redis" and "offset
     * committed" is one commit round trip; widening it lets a kill land inside it.
     */
    CRASH_STATE_ACK_DELAY_MS: Type.Integer({ minimum: 0, maximum: 10_000, default: 0 }),
    /** Kafka's minimum by default: the killed member's partitions are handed on after this long. */
    CRASH_SESSION_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 6000 }),
    CRASH_REPORT_MS: Type.Integer({ minimum: 10, default: 250 }),
    /**
     * The most a fetch brings per partition (kafkajs' maxBytesPerPartition; its default is 1 MB).
     * A topic produced before the service starts would otherwise come a whole partition per
     * batch, so a kill could never land between two batches of one device.
     */
    CRASH_FETCH_BYTES_PER_PARTITION: Type.Optional(Type.Integer({ minimum: 1024 })),
  }),
]);

const config = loadConfigOrExit(ChildEnvSchema);
const logger = pino({ name: "rules-child", level: config.LOG_LEVEL }, pino.destination(2));
if (!config.KAFKA_BROKERS || !config.DATABASE_URL || !config.REDIS_URL) {
  logger.fatal("rules-child needs KAFKA_BROKERS, DATABASE_URL and REDIS_URL");
  process.exit(1);
}

// Pipes are synchronous on Linux, so a line is out before the test can react to it.
const report = (event: string, fields: object = {}) => process.stdout.write(`${JSON.stringify({ event, ...fields })}\n`);

const sessionTimeout = config.CRASH_SESSION_TIMEOUT_MS;
const consumer: KafkaBusOptions["consumer"] = { sessionTimeout, heartbeatInterval: Math.max(100, Math.floor(sessionTimeout / 6)) };
// Not among KafkaBusOptions' consumer settings: createKafkaBus hands them to kafkajs' consumer as they are.
if (config.CRASH_FETCH_BYTES_PER_PARTITION !== undefined) Object.assign(consumer, { maxBytesPerPartition: config.CRASH_FETCH_BYTES_PER_PARTITION });
const bus = createKafkaBus({ brokers: config.KAFKA_BROKERS.split(","), clientId: "rules-crash-child", logger, consumer });
const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
// The test migrated the database before seeding it; this is what server.ts does, and a no-op here.
await db.migrate();
const redisLive = createRedisLive({ url: config.REDIS_URL, keyPrefix: config.CRASH_REDIS_KEY_PREFIX });

let counts = () => ({ seen: 0, recorded: 0, deadLettered: 0 });
const ackDelayMs = config.CRASH_STATE_ACK_DELAY_MS;
const live: LiveStore = {
  ...redisLive,
  async changeRuleStates(entries) {
    await redisLive.changeRuleStates(entries);
    const { seen, recorded } = counts();
    report("stored", { devices: entries.map((e) => e.deviceId), seen, recorded });
    if (ackDelayMs > 0) await new Promise((r) => setTimeout(r, ackDelayMs));
  },
};

const rules = await startRules({
  bus,
  db: db.db,
  live,
  logger,
  topic: config.CRASH_TOPIC,
  groupId: config.CRASH_GROUP_ID,
  fromBeginning: true,
  noticesTopic: config.CRASH_NOTICES_TOPIC,
  deadTopic: config.CRASH_DEAD_TOPIC,
  commandsTopic: config.CRASH_COMMANDS_TOPIC,
  // No sweep while the test runs: its tracks are in the past, and the sweep reads the clock.
  sweepEveryMs: 3_600_000,
});
counts = () => ({ seen: rules.seen(), recorded: rules.recorded(), deadLettered: rules.deadLettered() });
report("ready");
const ticker = setInterval(() => report("stats", counts()), config.CRASH_REPORT_MS);

closeWithGrace({ delay: 20_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "rules-child shutting down after an error");
  clearInterval(ticker);
  await rules.close();
  await bus.close();
  await Promise.all([live.close(), db.close()]);
  report("closed", counts());
});

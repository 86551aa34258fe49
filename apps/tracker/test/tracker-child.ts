/**
 * One tracker process for crash.test.ts: the production wiring of server.ts (Kafka bus,
 * Postgres records, chDB history, Redis live state) on the test's own topic, group, key
 * prefix and chDB directory, so the test can SIGKILL it and start another on the same
 * directory (chDB binds its data directory to one process at a time).
 *
 * stdout carries one JSON object per line and nothing else:
 *   {"event":"ready"}                                    joined the group
 *   {"event":"flushed","rows":n,"inserted":n,"positions":n}  after each history insert succeeded
 *   {"event":"stats","inserted":n,"positions":n,...}      every CRASH_REPORT_MS
 *   {"event":"closed","inserted":n,"positions":n,...}     after a graceful close (SIGTERM)
 * `inserted` counts history rows this process wrote; `positions` is pipeline.stats()
 * (positions whose history, live and enriched writes all settled). Logs go to stderr.
 */
import { Type } from "@sinclair/typebox";
import closeWithGrace from "close-with-grace";
import { pino } from "pino";
import { createKafkaBus } from "@fleet/bus";
import { loadConfigOrExit, TrackerEnvSchema, trackerSettings } from "@fleet/config";
import { openDb } from "@fleet/db";
import { createChdbHistory, type HistoryStore } from "@fleet/history";
import { createRedisLive } from "@fleet/live";
import { startTracker } from "../src/index.js";

const ChildEnvSchema = Type.Composite([
  TrackerEnvSchema,
  Type.Object({
    CRASH_TOPIC: Type.String({ minLength: 1 }),
    CRASH_GROUP_ID: Type.String({ minLength: 1 }),
    /** Where the tracker's positions.enriched messages go instead, so the shared topic stays clean. */
    CRASH_ENRICHED_TOPIC: Type.String({ minLength: 1 }),
    CRASH_REDIS_KEY_PREFIX: Type.String({ minLength: 1 }),
    CRASH_CHDB_PATH: Type.String({ minLength: 1 }),
    /**
     * How long each history insert is held back after it succeeded, before the pipeline
     * learns of it. In production the window between "rows are in ClickHouse" and "offset
     * committed" is one commit round trip; widening it lets a kill land inside it every time.
     */
    CRASH_INSERT_ACK_DELAY_MS: Type.Integer({ minimum: 0, maximum: 10_000, default: 0 }),
    /** Kafka's minimum by default: the killed member's partitions are handed on after this long. */
    CRASH_SESSION_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 6000 }),
    CRASH_REPORT_MS: Type.Integer({ minimum: 10, default: 250 }),
  }),
]);

const config = loadConfigOrExit(ChildEnvSchema);
const logger = pino({ name: "tracker-child", level: config.LOG_LEVEL }, pino.destination(2));
if (!config.KAFKA_BROKERS || !config.DATABASE_URL || !config.REDIS_URL) {
  logger.fatal("tracker-child needs KAFKA_BROKERS, DATABASE_URL and REDIS_URL");
  process.exit(1);
}

// Pipes are synchronous on Linux, so a line is out before the test can react to it.
const report = (event: string, fields: object = {}) => process.stdout.write(`${JSON.stringify({ event, ...fields })}\n`);

const sessionTimeout = config.CRASH_SESSION_TIMEOUT_MS;
const bus = createKafkaBus({
  brokers: config.KAFKA_BROKERS.split(","),
  clientId: "tracker-crash-child",
  logger,
  consumer: { sessionTimeout, heartbeatInterval: Math.max(100, Math.floor(sessionTimeout / 6)) },
});
const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const chdb = createChdbHistory({ path: config.CRASH_CHDB_PATH });
await chdb.migrate();
const live = createRedisLive({ url: config.REDIS_URL, keyPrefix: config.CRASH_REDIS_KEY_PREFIX });

let inserted = 0;
let stats = () => ({ positions: 0, unregistered: 0, invalid: 0, restored: 0 });
const ackDelayMs = config.CRASH_INSERT_ACK_DELAY_MS;
const history: HistoryStore = {
  ...chdb,
  async insert(rows) {
    await chdb.insert(rows);
    inserted += rows.length;
    report("flushed", { rows: rows.length, inserted, positions: stats().positions });
    if (ackDelayMs > 0) await new Promise((r) => setTimeout(r, ackDelayMs));
  },
};

const tracker = await startTracker({
  bus,
  enrichedTopic: config.CRASH_ENRICHED_TOPIC,
  db: db.db,
  history,
  live,
  logger,
  ...trackerSettings(config),
  topic: config.CRASH_TOPIC,
  groupId: config.CRASH_GROUP_ID,
});
stats = () => tracker.pipeline.stats();
report("ready");
const ticker = setInterval(() => report("stats", { inserted, ...stats() }), config.CRASH_REPORT_MS);

closeWithGrace({ delay: 20_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "tracker-child shutting down after an error");
  clearInterval(ticker);
  await tracker.close();
  await bus.close();
  await Promise.all([history.close(), live.close(), db.close()]);
  report("closed", { inserted, ...stats() });
});

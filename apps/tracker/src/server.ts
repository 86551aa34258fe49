import closeWithGrace from "close-with-grace";
import { pino } from "pino";
import { createBus } from "@fleet/bus";
import { TrackerEnvSchema, historySettings, loadConfigOrExit, trackerSettings } from "@fleet/config";
import { openDb } from "@fleet/db";
import { createHistory } from "@fleet/history";
import { createLive } from "@fleet/live";
import { startTracker } from "./service.js";

const config = loadConfigOrExit(TrackerEnvSchema);
const logger = pino({ name: "tracker", level: config.LOG_LEVEL });
if (!config.KAFKA_BROKERS || !config.DATABASE_URL || !config.REDIS_URL) {
  logger.fatal("the tracker on its own needs KAFKA_BROKERS, DATABASE_URL and REDIS_URL (embedded stores live inside one process); `pnpm start` runs everything in one process");
  process.exit(1);
}

const bus = createBus({ kafkaBrokers: config.KAFKA_BROKERS, clientId: "fleet-tracker", logger, sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS });
const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await db.migrate();
const history = createHistory(historySettings(config));
await history.migrate();
const live = createLive({ redisUrl: config.REDIS_URL });

const tracker = await startTracker({
  bus,
  db: db.db,
  history,
  live,
  logger,
  ...trackerSettings(config),
});

closeWithGrace({ delay: 15_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await tracker.close();
  await bus.close();
  await Promise.all([history.close(), live.close(), db.close()]);
});

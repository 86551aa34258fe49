import closeWithGrace from "close-with-grace";
import { createLogger } from "@fleet/logging";
import { createBus, exitOnFatal } from "@fleet/bus";
import { TrackerEnvSchema, busSettings, historySettings, loadAppConfigOrExit, trackerSettings } from "@fleet/config";
import { openDb } from "@fleet/db";
import { createHistory } from "@fleet/history";
import { createLive } from "@fleet/live";
import { startTracker, type Tracker } from "./service.js";

const config = loadAppConfigOrExit(TrackerEnvSchema, "the tracker", ["KAFKA_BROKERS", "DATABASE_URL", "REDIS_URL", "CLICKHOUSE_URL"]);
const logger = createLogger({ name: "tracker", level: config.LOG_LEVEL });

const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await db.migrate();
const history = createHistory(historySettings(config));
await history.migrate();
const live = createLive({ redisUrl: config.REDIS_URL });

// What is running, for a shutdown that may come (a fatal consumer) before all of it started.
const running: { tracker?: Tracker } = {};
async function shutdown() {
  await running.tracker?.close();
  await bus.close();
  await Promise.all([history.close(), live.close(), db.close()]);
}
const bus = createBus({ ...busSettings(config), clientId: "fleet-tracker", logger, onFatal: exitOnFatal(logger, shutdown) });
running.tracker = await startTracker({
  bus,
  db: db.db,
  history,
  live,
  logger,
  ...trackerSettings(config),
});

closeWithGrace({ delay: 15_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await shutdown();
});

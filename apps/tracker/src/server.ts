import closeWithGrace from "close-with-grace";
import { createLogger } from "@fleet/logging";
import { createBus, exitOnFatal, serveHealth, type HealthState } from "@fleet/bus";
import { TrackerEnvSchema, busSettings, healthSettings, listenOrExit, historySettings, loadAppConfigOrExit, trackerSettings } from "@fleet/config";
import { openDb } from "@fleet/db";
import { createHistory } from "@fleet/history";
import { createLive } from "@fleet/live";
import { startTracker, type Tracker } from "./service.js";

const config = loadAppConfigOrExit(TrackerEnvSchema, "the tracker", ["KAFKA_BROKERS", "DATABASE_URL", "REDIS_URL", "CLICKHOUSE_URL"]);
const logger = createLogger({ name: "tracker", level: config.LOG_LEVEL });

// GET /health on HEALTH_PORT, for a container's health check: 503 until the tracker consumes, and once it stops.
let state: HealthState = "starting";
const health = healthSettings(config);
const healthServer =
  health &&
  (await listenOrExit({ ...health, setting: "HEALTH_PORT", hostSetting: "HEALTH_HOST" }, (at) => serveHealth({ name: "the tracker", ...at, state: () => state }), (message) => logger.fatal(message)));

const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await db.migrate();
const history = createHistory(historySettings(config));
await history.migrate();
const live = createLive({ redisUrl: config.REDIS_URL });

// What is running, for a shutdown that may come (a fatal consumer) before all of it started.
const running: { tracker?: Tracker } = {};
async function shutdown() {
  state = "stopping";
  await running.tracker?.close();
  await bus.close();
  await Promise.all([history.close(), live.close(), db.close(), healthServer?.close()]);
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
state = "up";

closeWithGrace({ delay: 15_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await shutdown();
});

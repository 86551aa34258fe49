import closeWithGrace from "close-with-grace";
import { createLogger } from "@fleet/logging";
import { createBus, exitOnFatal, serveHealth, type HealthState } from "@fleet/bus";
import { RulesEnvSchema, busSettings, geocoderSettings, healthSettings, listenOrExit, loadAppConfigOrExit, outboundAllowPrivate } from "@fleet/config";
import { openDb } from "@fleet/db";
import { createGeocoder } from "@fleet/geocoder";
import { createLive } from "@fleet/live";
import { createMailer } from "@fleet/mail";
import { startRules, type Rules } from "./service.js";

const config = loadAppConfigOrExit(RulesEnvSchema, "the rules service", ["KAFKA_BROKERS", "DATABASE_URL", "REDIS_URL"]);
const logger = createLogger({ name: "rules", level: config.LOG_LEVEL });

// GET /health on HEALTH_PORT, for a container's health check: 503 until the service consumes, and once it stops.
let state: HealthState = "starting";
const health = healthSettings(config);
const healthServer =
  health &&
  (await listenOrExit({ ...health, setting: "HEALTH_PORT", hostSetting: "HEALTH_HOST" }, (at) => serveHealth({ name: "the rules service", ...at, state: () => state }), (message) => logger.fatal(message)));

const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await db.migrate();
const live = createLive({ redisUrl: config.REDIS_URL });
const geocoder = createGeocoder({ ...geocoderSettings(config), logger: logger.child({ part: "geocoder" }) });
const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, logger: logger.child({ part: "mail" }) });

// What is running, for a shutdown that may come (a fatal consumer) before all of it started.
const running: { rules?: Rules } = {};
async function shutdown() {
  state = "stopping";
  await running.rules?.close();
  await bus.close();
  await Promise.all([live.close(), db.close(), mailer.close(), healthServer?.close()]);
}
const bus = createBus({ ...busSettings(config), clientId: "fleet-rules", logger, onFatal: exitOnFatal(logger, shutdown) });
running.rules = await startRules({ bus, db: db.db, live, logger, mailer, geocoder, allowPrivate: outboundAllowPrivate(config), notificationsRetentionDays: config.NOTIFICATIONS_RETENTION_DAYS });
state = "up";

closeWithGrace({ delay: 15_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await shutdown();
});

import closeWithGrace from "close-with-grace";
import Fastify from "fastify";
import { createLogger } from "@fleet/logging";
import { createBus } from "@fleet/bus";
import { ApiEnvSchema, busSettings, historySettings, listenOrExit, loadAppConfigOrExit } from "@fleet/config";
import { openDb } from "@fleet/db";
import { createHistory } from "@fleet/history";
import { createLive } from "@fleet/live";
import { createMailer } from "@fleet/mail";
import { apiApp } from "./app.js";
import { UnsafeStartError, assertSafeAdmin, assertSafeAdminPassword, ensureAdmin } from "./bootstrap.js";
import { apiAppOptions } from "./compose.js";
import { apiServerOptions } from "./fastify-options.js";
import { mapImageRoutes } from "./routes/map-images.js";

const config = loadAppConfigOrExit(ApiEnvSchema, "the API", ["KAFKA_BROKERS", "DATABASE_URL", "REDIS_URL", "CLICKHOUSE_URL"]);
const logger = createLogger({ name: "api", level: config.LOG_LEVEL });

/** A start refused for a weak administrator password: one fatal line, then exit 1. */
async function refuse(err: unknown, close: () => Promise<void>): Promise<never> {
  if (!(err instanceof UnsafeStartError)) throw err;
  logger.fatal(err.message);
  await close();
  process.exit(1);
}

// Before the store is opened, so that a refused start creates no administrator.
try {
  assertSafeAdminPassword({ host: config.HOST, password: config.FLEET_ADMIN_PASSWORD });
} catch (err) {
  await refuse(err, async () => undefined);
}
const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await db.migrate();
const admin = await ensureAdmin(db.db, config.FLEET_ADMIN_EMAIL, config.FLEET_ADMIN_PASSWORD);
if (admin.generatedPassword) {
  // Shown once, to whoever started the server, and never logged: only its hash is stored.
  process.stdout.write(`\nCreated the administrator ${config.FLEET_ADMIN_EMAIL} with the password ${admin.generatedPassword}\n(shown this once; set FLEET_ADMIN_PASSWORD to choose it)\n\n`);
} else if (admin.created) logger.info({ email: config.FLEET_ADMIN_EMAIL }, "created the administrator account");
await assertSafeAdmin(db.db, { host: config.HOST, email: config.FLEET_ADMIN_EMAIL, password: config.FLEET_ADMIN_PASSWORD }).catch((err: unknown) => refuse(err, () => db.close()));
const history = createHistory(historySettings(config));
const live = createLive({ redisUrl: config.REDIS_URL });
// GPRS commands go to the device gateways over the bus's `commands` topic, and rule-record
// changes to the rules service over `rules.changed`.
const bus = createBus({ ...busSettings(config), clientId: "fleet-api", logger });
const commandProducer = await bus.producer();

const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, logger: logger.child({ part: "mail" }) });

const app = Fastify({ loggerInstance: logger, ...apiServerOptions() });
await app.register(apiApp, apiAppOptions(config, { db, live, history, bus, producer: commandProducer, mailer }));
// The map images also at the root, where vendor clients look for them first.
await app.register(mapImageRoutes);

closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await app.close();
  await commandProducer.close();
  await bus.close();
  await Promise.all([history.close(), live.close(), db.close(), mailer.close()]);
  logger.info({ signal }, "stopped");
});
await listenOrExit({ host: config.HOST, port: config.PORT, setting: "PORT" }, (at) => app.listen(at), (message) => logger.fatal(message));

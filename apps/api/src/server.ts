import closeWithGrace from "close-with-grace";
import Fastify from "fastify";
import { pino } from "pino";
import { createBus } from "@fleet/bus";
import { ApiEnvSchema, busSettings, historySettings, loadAppConfigOrExit } from "@fleet/config";
import { openDb } from "@fleet/db";
import { createHistory } from "@fleet/history";
import { createLive } from "@fleet/live";
import { apiApp } from "./app.js";
import { ensureAdmin } from "./bootstrap.js";
import { apiAppOptions } from "./compose.js";
import { apiServerOptions } from "./fastify-options.js";

const config = loadAppConfigOrExit(ApiEnvSchema, "the API", ["KAFKA_BROKERS", "DATABASE_URL", "REDIS_URL", "CLICKHOUSE_URL"]);
const logger = pino({ name: "api", level: config.LOG_LEVEL });

const db = await openDb({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await db.migrate();
if (await ensureAdmin(db.db, config.FLEET_ADMIN_EMAIL, config.FLEET_ADMIN_PASSWORD)) logger.info({ email: config.FLEET_ADMIN_EMAIL }, "created the administrator account");
const history = createHistory(historySettings(config));
const live = createLive({ redisUrl: config.REDIS_URL });
// GPRS commands go to the device gateways over the bus's `commands` topic.
const bus = createBus({ ...busSettings(config), clientId: "fleet-api", logger });
const commandProducer = await bus.producer();

const app = Fastify({ loggerInstance: logger, ...apiServerOptions() });
await app.register(apiApp, apiAppOptions(config, { db, live, history, bus, producer: commandProducer }));

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await app.close();
  await commandProducer.close();
  await bus.close();
  await Promise.all([history.close(), live.close(), db.close()]);
});
await app.listen({ host: config.HOST, port: config.PORT });

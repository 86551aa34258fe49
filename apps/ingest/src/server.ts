import closeWithGrace from "close-with-grace";
import Fastify from "fastify";
import { createLogger } from "@fleet/logging";
import { createBus } from "@fleet/bus";
import { IngestEnvSchema, busSettings, listenOrExit, loadAppConfigOrExit } from "@fleet/config";
import { ingestApp } from "./app.js";
import { startOsmandServer, type OsmandServer } from "./osmand-server.js";
import { createPublisher } from "./publisher.js";
import { ingestServerOptions } from "./server-options.js";

const config = loadAppConfigOrExit(IngestEnvSchema, "ingest", ["KAFKA_BROKERS"]);
const logger = createLogger({ name: "ingest", level: config.LOG_LEVEL });

const bus = createBus({ ...busSettings(config), clientId: "fleet-ingest", logger });
const publisher = createPublisher({
  producer: await bus.producer(),
  batchMax: config.INGEST_BATCH_MAX,
  lingerMs: config.INGEST_LINGER_MS,
  sendTimeoutMs: config.INGEST_SEND_TIMEOUT_MS,
});
const app = Fastify(ingestServerOptions(logger, publisher));
await app.register(ingestApp, { publisher });
let osmand: OsmandServer | undefined;

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await Promise.all([app.close(), osmand?.close()]);
  await publisher.close();
  await bus.close();
});
const fatal = (message: string) => logger.fatal(message);
await listenOrExit({ host: config.HOST, port: config.PORT, setting: "PORT" }, (at) => app.listen(at), fatal);
if (config.OSMAND_PORT !== undefined) osmand = await listenOrExit({ host: config.HOST, port: config.OSMAND_PORT, setting: "OSMAND_PORT" }, (at) => startOsmandServer({ logger, publisher, ...at }), fatal);

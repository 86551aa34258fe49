import closeWithGrace from "close-with-grace";
import Fastify from "fastify";
import { createLogger } from "@fleet/logging";
import { createBus } from "@fleet/bus";
import { IngestEnvSchema, busSettings, loadAppConfigOrExit } from "@fleet/config";
import { ingestApp } from "./app.js";
import { startOsmandServer } from "./osmand-server.js";
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

const osmand = config.OSMAND_PORT === undefined ? undefined : await startOsmandServer({ logger, publisher, host: config.HOST, port: config.OSMAND_PORT });

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await Promise.all([app.close(), osmand?.close()]);
  await publisher.close();
  await bus.close();
});
await app.listen({ host: config.HOST, port: config.PORT });

import closeWithGrace from "close-with-grace";
import { createLogger } from "@fleet/logging";
import { createBus, exitOnFatal, serveHealth, type HealthState } from "@fleet/bus";
import { RulesEnvSchema, busSettings, healthSettings, loadAppConfigOrExit } from "@fleet/config";
import { startRules, type Rules } from "./service.js";

const config = loadAppConfigOrExit(RulesEnvSchema, "the rules service", ["KAFKA_BROKERS"]);
const logger = createLogger({ name: "rules", level: config.LOG_LEVEL });

// GET /health on HEALTH_PORT, for a container's health check: 503 until the service consumes, and once it stops.
let state: HealthState = "starting";
const health = healthSettings(config);
const healthServer = health && (await serveHealth({ name: "the rules service", ...health, state: () => state }));

// What is running, for a shutdown that may come (a fatal consumer) before all of it started.
const running: { rules?: Rules } = {};
async function shutdown() {
  state = "stopping";
  await running.rules?.close();
  await bus.close();
  await healthServer?.close();
}
const bus = createBus({ ...busSettings(config), clientId: "fleet-rules", logger, onFatal: exitOnFatal(logger, shutdown) });
running.rules = await startRules({ bus, logger });
state = "up";

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await shutdown();
});

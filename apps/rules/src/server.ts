import closeWithGrace from "close-with-grace";
import { createLogger } from "@fleet/logging";
import { createBus, exitOnFatal } from "@fleet/bus";
import { RulesEnvSchema, busSettings, loadAppConfigOrExit } from "@fleet/config";
import { startRules, type Rules } from "./service.js";

const config = loadAppConfigOrExit(RulesEnvSchema, "the rules service", ["KAFKA_BROKERS"]);
const logger = createLogger({ name: "rules", level: config.LOG_LEVEL });

// What is running, for a shutdown that may come (a fatal consumer) before all of it started.
const running: { rules?: Rules } = {};
async function shutdown() {
  await running.rules?.close();
  await bus.close();
}
const bus = createBus({ ...busSettings(config), clientId: "fleet-rules", logger, onFatal: exitOnFatal(logger, shutdown) });
running.rules = await startRules({ bus, logger });

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await shutdown();
});

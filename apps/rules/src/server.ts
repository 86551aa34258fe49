import closeWithGrace from "close-with-grace";
import { pino } from "pino";
import { createBus } from "@fleet/bus";
import { RulesEnvSchema, loadAppConfigOrExit } from "@fleet/config";
import { startRules } from "./service.js";

const config = loadAppConfigOrExit(RulesEnvSchema, "the rules service", ["KAFKA_BROKERS"]);
const logger = pino({ name: "rules", level: config.LOG_LEVEL });
const bus = createBus({ kafkaBrokers: config.KAFKA_BROKERS, clientId: "fleet-rules", logger, sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS });
const rules = await startRules({ bus, logger });

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) logger.error({ err }, "shutting down after an error");
  await rules.close();
  await bus.close();
});

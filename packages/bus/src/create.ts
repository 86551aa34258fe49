import { createKafkaBus, type KafkaBusOptions } from "./kafka.js";
import type { BusLogger } from "./logger.js";
import { createMemoryBus } from "./memory.js";
import type { Bus } from "./port.js";

/**
 * Kafka when `kafkaBrokers` (KAFKA_BROKERS, comma-separated) is set, else the in-process bus.
 * The value is validated by the app's config schema; this only splits it.
 */
export interface BusSettings {
  kafkaBrokers?: string;
  clientId: string;
  logger?: BusLogger;
  sessionTimeoutMs?: number;
  /** See KafkaBusOptions.maxConsumerRestarts. */
  maxConsumerRestarts?: number;
  /** A Kafka consumer stopped for good; the in-process bus has none that can. */
  onFatal?: KafkaBusOptions["onFatal"];
}

export function createBus(config: BusSettings): Bus {
  const brokers = (config.kafkaBrokers ?? "")
    .split(",")
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
  if (brokers.length === 0) return createMemoryBus({ logger: config.logger });
  return createKafkaBus({
    brokers,
    clientId: config.clientId,
    logger: config.logger,
    maxConsumerRestarts: config.maxConsumerRestarts,
    onFatal: config.onFatal,
    ...(config.sessionTimeoutMs ? { consumer: { sessionTimeout: config.sessionTimeoutMs } } : {}),
  });
}

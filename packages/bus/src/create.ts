import { createKafkaBus } from "./kafka.js";
import type { BusLogger } from "./logger.js";
import { createMemoryBus } from "./memory.js";
import type { Bus } from "./port.js";

/**
 * Kafka when `kafkaBrokers` (KAFKA_BROKERS, comma-separated) is set, else the in-process bus.
 * The value is validated by the app's config schema; this only splits it.
 */
export function createBus(config: { kafkaBrokers?: string; clientId: string; logger?: BusLogger; sessionTimeoutMs?: number }): Bus {
  const brokers = (config.kafkaBrokers ?? "")
    .split(",")
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
  if (brokers.length === 0) return createMemoryBus({ logger: config.logger });
  return createKafkaBus({ brokers, clientId: config.clientId, logger: config.logger, ...(config.sessionTimeoutMs ? { consumer: { sessionTimeout: config.sessionTimeoutMs } } : {}) });
}

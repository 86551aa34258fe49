export * from "./port.js";
export type { BusLogger } from "./logger.js";
export { createMemoryBus, type MemoryBusOptions } from "./memory.js";
export { createKafkaBus, BusSendTimeoutError, type KafkaBusOptions } from "./kafka.js";
export { createBus } from "./create.js";
export { forEachKeyInOrder } from "./by-key.js";
export { partitionForKey } from "./murmur2.js";

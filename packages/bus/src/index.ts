export * from "./port.js";
export type { BusLogger } from "./logger.js";
export { createMemoryBus, type MemoryBusOptions } from "./memory.js";
export { createKafkaBus, BusSendTimeoutError, DEFAULT_SESSION_TIMEOUT_MS, type KafkaBusOptions } from "./kafka.js";
export { createBus } from "./create.js";
export { forEachKeyInOrder } from "./by-key.js";
export { partitionForKey } from "./murmur2.js";
export { withDeadLetters, type DeadLetterBatch, type DeadLetterHandler, type DeadLetterOptions, type DeadLetterRouter, type Rejected } from "./dead-letter.js";
export { PermanentError, isPermanentFailure, failureCode } from "./failures.js";

export * from "./port.js";
export { createMemoryLive } from "./memory.js";
export { createRedisLive, type RedisLiveOptions } from "./redis.js";
export { createLive } from "./create.js";

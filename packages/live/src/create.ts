import { createMemoryLive } from "./memory.js";
import type { LiveStore } from "./port.js";
import { createRedisLive, type RedisLiveOptions } from "./redis.js";

/**
 * Redis when `redisUrl` (REDIS_URL) is set, else the in-memory store for the embedded
 * setup, kept across restarts at `snapshotPath` when given.
 */
export function createLive(config: { redisUrl?: string; snapshotPath?: string; logger?: RedisLiveOptions["logger"] }): LiveStore {
  return config.redisUrl ? createRedisLive({ url: config.redisUrl, logger: config.logger }) : createMemoryLive({ snapshotPath: config.snapshotPath });
}

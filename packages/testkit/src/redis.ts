import { Redis } from "ioredis";
import { serviceUrls } from "./services.js";
import { uniqueSuffix } from "./fixtures.js";

export interface RedisTest {
  url: string;
  /** Unique per call and ending in ":"; pass it as the client's `keyPrefix`. */
  keyPrefix: string;
  /** Deletes every key under `keyPrefix`. */
  cleanup(): Promise<void>;
}

/**
 * A key namespace on the shared test Redis. Other engineers' tests use the same
 * server, so each test writes only under its own prefix and removes it afterwards.
 */
export function redisTest(label = "test"): RedisTest {
  const url = serviceUrls.redis;
  const keyPrefix = `test:${label}:${uniqueSuffix()}:`;
  return {
    url,
    keyPrefix,
    async cleanup() {
      // A client without keyPrefix: ioredis does not prefix SCAN's MATCH pattern,
      // and DEL must name the full keys SCAN returns.
      const redis = new Redis(url);
      try {
        const match = `${keyPrefix.replace(/[*?[\]\\]/g, "\\$&")}*`;
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", match, "COUNT", 1000);
          if (keys.length > 0) await redis.del(keys);
          cursor = next;
        } while (cursor !== "0");
      } finally {
        await redis.quit();
      }
    },
  };
}

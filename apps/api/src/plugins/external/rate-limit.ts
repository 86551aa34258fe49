import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Redis } from "ioredis";

export interface RateLimitStoreOptions {
  /** Where the counts live so that every api instance shares them; unset, in this process. */
  redisUrl?: string;
}

/**
 * @fastify/rate-limit, applied to no route by itself (`global: false`): plugins/app/auth-limits.ts
 * builds the limits the sign-in routes check. With Redis, its own connection, closed with the app.
 * A Redis that does not answer lets requests through (`skipOnError`) rather than lock every user
 * out of signing in; the error is logged.
 */
async function rateLimitStore(app: FastifyInstance, opts: RateLimitStoreOptions) {
  let redis: Redis | undefined;
  if (opts.redisUrl) {
    redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false });
    redis.on("error", (err) => app.log.warn({ err }, "the rate limits' Redis connection failed"));
    app.addHook("onClose", async () => {
      await redis?.quit().catch(() => redis?.disconnect());
    });
  }
  await app.register(rateLimit, { global: false, skipOnError: true, nameSpace: "fleet:limit:", ...(redis ? { redis } : {}) });
}

export default fp(rateLimitStore, { name: "rate-limit-store" });

import { spawn } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
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

export interface PrivateRedis {
  url: string;
  /** FLUSHALL: everything this server holds is gone, as after a wipe or a failover to an empty replica. */
  flushAll(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A redis-server of this test's own on a free loopback port, with no persistence: for tests
 * that do to Redis what must never be done to the shared one (FLUSHALL). Needs `redis-server`
 * on the PATH, which the machines running the shared Redis have.
 */
export async function privateRedis(): Promise<PrivateRedis> {
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port: p } = probe.address() as AddressInfo;
      probe.close(() => resolve(p));
    });
  });
  const proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  // Refused connections while the server starts are expected; connect() reports them.
  client.on("error", () => undefined);
  for (let i = 0; ; i++) {
    try {
      await client.connect();
      await client.ping();
      break;
    } catch (err) {
      client.disconnect();
      if (i >= 50 || proc.exitCode !== null) {
        proc.kill("SIGKILL");
        throw new Error(`redis-server on port ${port} did not answer: ${String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    async flushAll() {
      await client.flushall();
    },
    async stop() {
      client.disconnect();
      proc.kill("SIGTERM");
      await exited;
    },
  };
}

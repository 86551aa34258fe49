import type { LiveState } from "@fleet/contracts";
import { Redis, type ChainableCommander } from "ioredis";
import { CHANGE_RETENTION_MS, type LiveStore } from "./port.js";

export interface RedisLiveOptions {
  url: string;
  /** Prepended to every key (ioredis `keyPrefix`, which covers script KEYS too); tests use one per test. */
  keyPrefix?: string;
}

const deviceKey = (deviceId: number) => `live:dev:${deviceId}`;
const changeKey = (userId: number) => `live:chg:${userId}`;

// Change times come from Redis's TIME, never from the caller, so every tracker and
// api instance stamps and reads on one clock whatever their own clocks say.
const NOW_MS = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/**
 * KEYS[1] device key, KEYS[2..] the users' change indexes; ARGV deviceId, state JSON
 * ('' = mark only, no state write), retention ms. Trimming here keeps each index
 * bounded without a sweeper; PEXPIRE drops the index of a user idle for a day.
 * `%d` because Lua 5.1 prints numbers with 14 significant digits.
 */
const WRITE_LUA = `${NOW_MS}
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2]) end
local stamp = string.format('%d', now)
local oldest = string.format('%d', now - tonumber(ARGV[3]))
for i = 2, #KEYS do
  redis.call('ZADD', KEYS[i], stamp, ARGV[1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', '(' .. oldest)
  redis.call('PEXPIRE', KEYS[i], ARGV[3])
end
return now`;

/**
 * KEYS[1] change index; ARGV since ms. Clock and read in one script: Redis runs it
 * atomically, so any write after it is stamped >= the `now` it returns.
 */
const CHANGED_LUA = `${NOW_MS}
return { now, redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], '+inf') }`;

// ioredis adds defined commands at runtime; these types describe them.
type WriteFn<R> = (numKeys: number, ...keysAndArgs: (string | number)[]) => R;
type Scripted = Redis & {
  liveChanged(key: string, since: string): Promise<[number, string[]]>;
};
type ScriptedPipeline = ChainableCommander & { liveWrite: WriteFn<ChainableCommander> };

export function createRedisLive(options: RedisLiveOptions): LiveStore {
  const redis = new Redis(options.url, { keyPrefix: options.keyPrefix ?? "" }) as Scripted;
  // No numberOfKeys for liveWrite: the count varies with the number of users, so it is the first argument.
  redis.defineCommand("liveWrite", { lua: WRITE_LUA });
  redis.defineCommand("liveChanged", { numberOfKeys: 1, lua: CHANGED_LUA });

  // One pipeline per call, one script per entry: a round trip per batch, not per device.
  async function write(entries: readonly { deviceId: number; json: string; userIds: readonly number[] }[]) {
    if (entries.length === 0) return;
    const pipeline = redis.pipeline() as ScriptedPipeline;
    for (const { deviceId, json, userIds } of entries) {
      const keys = [deviceKey(deviceId), ...userIds.map(changeKey)];
      pipeline.liveWrite(keys.length, ...keys, deviceId, json, CHANGE_RETENTION_MS);
    }
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  return {
    kind: "redis",
    async getStates(deviceIds) {
      const ids = [...new Set(deviceIds)];
      const out = new Map<number, LiveState>();
      if (ids.length === 0) return out; // MGET with no keys is an error
      const values = await redis.mget(ids.map(deviceKey));
      ids.forEach((id, i) => {
        const json = values[i];
        // Our own writes, so not re-validated against the schema on every read.
        if (json != null) out.set(id, JSON.parse(json) as LiveState);
      });
      return out;
    },
    putStates(entries) {
      return write(entries.map(({ state, userIds }) => ({ deviceId: state.deviceId, json: JSON.stringify(state), userIds })));
    },
    async restoreStates(states) {
      if (states.length === 0) return;
      const pipeline = redis.pipeline();
      for (const state of states) pipeline.set(deviceKey(state.deviceId), JSON.stringify(state), "NX");
      const results = await pipeline.exec();
      const failed = results?.find(([err]) => err);
      if (failed) throw failed[0];
    },
    markChanged(entries) {
      return write(entries.map(({ deviceId, userIds }) => ({ deviceId, json: "", userIds })));
    },
    async changedSince(userId, sinceMs) {
      const [now, ids] = await redis.liveChanged(changeKey(userId), String(sinceMs));
      return { deviceIds: ids.map(Number), now };
    },
    async deleteStates(deviceIds) {
      // Index members stay until trimmed: readers already skip ids without a state
      // (markChanged creates such ids too), and a user's index is bounded by retention.
      if (deviceIds.length > 0) await redis.del(deviceIds.map(deviceKey));
    },
    async close() {
      await redis.quit();
    },
  };
}

import type { LiveState } from "@fleet/contracts";
import { Redis, type ChainableCommander } from "ioredis";
import { CHANGE_RETENTION_MS, type LiveStore, type StateEntry } from "./port.js";
import { stateJson } from "./state-json.js";

export interface RedisLiveOptions {
  url: string;
  /** Prepended to every key (ioredis `keyPrefix`, which covers script KEYS too); tests use one per test. */
  keyPrefix?: string;
}

const deviceKey = (deviceId: number) => `live:dev:${deviceId}`;
const changeKey = (userId: number) => `live:chg:${userId}`;
const recordKey = (userId: number) => `live:rec:${userId}`;
const seenKey = (userId: number) => `live:seen:${userId}`;

/** Most devices one write script takes: a script blocks Redis while it runs. */
const PUT_CHUNK = 1000;

// Change times come from Redis's TIME, never from the caller, so every tracker and
// api instance stamps and reads on one clock whatever their own clocks say.
// `%d` because Lua 5.1 prints numbers with 14 significant digits.
const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local stamp = string.format('%d', now)`;

// Stamps the member in each key, trims what is older than the retention (ARGV[last]) and
// keeps the key a day after its last write: each index stays bounded without a sweeper.
const STAMP = `local function stamp_in(key, member, retention)
  redis.call('ZADD', key, stamp, member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. string.format('%d', now - tonumber(retention)))
  redis.call('PEXPIRE', key, retention)
end`;

// ZADD and MSET take their pairs as arguments, and Lua's unpack fails beyond ~8,000 values.
const CHUNKED = `local function chunked(cmd, key, list)
  for i = 1, #list, 2000 do
    local last = math.min(i + 1999, #list)
    if key then redis.call(cmd, key, unpack(list, i, last)) else redis.call(cmd, unpack(list, i, last)) end
  end
end`;

/**
 * Many devices' states in one call. KEYS: the n device keys, then per user its change
 * index and seen index. ARGV: retention ms, n, the n state JSONs, then per user the
 * number of its devices and, for each, its id and serverTime. Each user's indexes are
 * stamped with one ZADD and trimmed once, rather than once per device.
 */
const PUT_LUA = `${NOW_MS}
${CHUNKED}
local retention = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local pairs_ = {}
for i = 1, n do
  pairs_[#pairs_ + 1] = KEYS[i]
  pairs_[#pairs_ + 1] = ARGV[2 + i]
end
chunked('MSET', nil, pairs_)
local cutoff = '(' .. string.format('%d', now - retention)
local a = 3 + n
for k = n + 1, #KEYS, 2 do
  local count = tonumber(ARGV[a])
  a = a + 1
  local changed, seen = {}, {}
  for j = 1, count do
    changed[#changed + 1] = stamp
    changed[#changed + 1] = ARGV[a]
    seen[#seen + 1] = ARGV[a + 1]
    seen[#seen + 1] = ARGV[a]
    a = a + 2
  end
  chunked('ZADD', KEYS[k], changed)
  redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', cutoff)
  redis.call('PEXPIRE', KEYS[k], retention)
  chunked('ZADD', KEYS[k + 1], seen)
  redis.call('PEXPIRE', KEYS[k + 1], retention)
end
return now`;

/** KEYS: per user its change index and record index; ARGV deviceId, retention ms. */
const MARK_LUA = `${NOW_MS}
${STAMP}
for i = 1, #KEYS do stamp_in(KEYS[i], ARGV[1], ARGV[2]) end
return now`;

/** KEYS[1] device key, then each user's seen index; ARGV deviceId, state JSON, retention ms, serverTime. Indexes only what it wrote. */
const RESTORE_LUA = `if redis.call('SET', KEYS[1], ARGV[2], 'NX') then
  for i = 2, #KEYS do
    redis.call('ZADD', KEYS[i], ARGV[4], ARGV[1])
    redis.call('PEXPIRE', KEYS[i], ARGV[3])
  end
end
return 1`;

/**
 * KEYS[1] an index, KEYS[2] the seen index; ARGV since ms, offline-after ms ('' = none).
 * Clock and reads in one script: Redis runs it atomically, so any write after it is
 * stamped >= the `now` it returns. The seen range is offlineWindow's (port.ts).
 */
const CHANGED_LUA = `${NOW_MS}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], '+inf')
local offline = {}
if ARGV[2] ~= '' then
  local after = tonumber(ARGV[2])
  offline = redis.call('ZRANGEBYSCORE', KEYS[2], string.format('%d', tonumber(ARGV[1]) - after - 1), string.format('%d', now - after - 1))
end
return { now, ids, offline }`;

// ioredis adds defined commands at runtime; these types describe them.
type WriteFn<R> = (numKeys: number, ...keysAndArgs: (Buffer | string | number)[]) => R;
type Scripted = Redis & {
  liveChanged(key: string, seen: string, since: string, offlineAfter: string): Promise<[number, string[], string[]]>;
};
type ScriptedPipeline = ChainableCommander & { livePut: WriteFn<ChainableCommander>; liveMark: WriteFn<ChainableCommander>; liveRestore: WriteFn<ChainableCommander> };

export function createRedisLive(options: RedisLiveOptions): LiveStore {
  const redis = new Redis(options.url, { keyPrefix: options.keyPrefix ?? "" }) as Scripted;
  // No numberOfKeys for the writes: the count varies with the number of users, so it is the first argument.
  redis.defineCommand("livePut", { lua: PUT_LUA });
  redis.defineCommand("liveMark", { lua: MARK_LUA });
  redis.defineCommand("liveRestore", { lua: RESTORE_LUA });
  redis.defineCommand("liveChanged", { numberOfKeys: 2, lua: CHANGED_LUA });

  // One pipeline per call, one script per entry: a round trip per batch, not per device.
  async function pipelined<T>(entries: readonly T[], add: (pipeline: ScriptedPipeline, entry: T) => void) {
    if (entries.length === 0) return;
    const pipeline = redis.pipeline() as ScriptedPipeline;
    for (const entry of entries) add(pipeline, entry);
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  async function read(key: string, userId: number, sinceMs: number, offlineAfterMs?: number) {
    const [now, ids, offline] = await redis.liveChanged(key, seenKey(userId), String(sinceMs), offlineAfterMs === undefined ? "" : String(offlineAfterMs));
    return { deviceIds: [...new Set([...ids, ...offline])].map(Number), now };
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
      const chunks: StateEntry[][] = [];
      for (let i = 0; i < entries.length; i += PUT_CHUNK) chunks.push(entries.slice(i, i + PUT_CHUNK));
      return pipelined(chunks, (p, chunk) => {
        const byUser = new Map<number, (string | number)[]>();
        for (const { state, userIds } of chunk) {
          for (const u of userIds) {
            let list = byUser.get(u);
            if (!list) byUser.set(u, (list = []));
            list.push(state.deviceId, Math.round(state.serverTime));
          }
        }
        const keys = chunk.map(({ state }) => deviceKey(state.deviceId));
        // Buffers, encoded here once: ioredis writes a string argument at about twice the CPU.
        const args: (Buffer | string | number)[] = [CHANGE_RETENTION_MS, chunk.length, ...chunk.map(({ state }) => Buffer.from(stateJson(state)))];
        for (const [u, list] of byUser) {
          keys.push(changeKey(u), seenKey(u));
          args.push(list.length / 2, ...list);
        }
        p.livePut(keys.length, ...keys, ...args);
      });
    },
    restoreStates(entries) {
      return pipelined(entries, (p, { state, userIds }) => {
        const keys = [deviceKey(state.deviceId), ...userIds.map(seenKey)];
        p.liveRestore(keys.length, ...keys, state.deviceId, stateJson(state), CHANGE_RETENTION_MS, Math.round(state.serverTime));
      });
    },
    markChanged(entries) {
      return pipelined(
        entries.filter((e) => e.userIds.length > 0),
        (p, { deviceId, userIds }) => {
          const keys = userIds.flatMap((u) => [changeKey(u), recordKey(u)]);
          p.liveMark(keys.length, ...keys, deviceId, CHANGE_RETENTION_MS);
        },
      );
    },
    changedSince(userId, sinceMs, offlineAfterMs) {
      return read(changeKey(userId), userId, sinceMs, offlineAfterMs);
    },
    recordsChangedSince(userId, sinceMs) {
      return read(recordKey(userId), userId, sinceMs);
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

import type { LiveState } from "@fleet/contracts";
import { Redis, type ChainableCommander } from "ioredis";
import { CHANGE_RETENTION_MS, withTailMax, type LiveStore } from "./port.js";
import { redisRuleStates, ruleKey } from "./redis-rule-states.js";
import { WrittenTails, type TailOp } from "./written-tails.js";

export interface RedisLiveOptions {
  url: string;
  /** Prepended to every key (ioredis `keyPrefix`, which covers script KEYS too); tests use one per test. */
  keyPrefix?: string;
  /** The slice of a pino logger this needs: a stored rule state that does not parse is skipped with a warning. Default: silent. */
  logger?: { warn(obj: object, msg?: string): void };
}

const deviceKey = (deviceId: number) => `live:dev:${deviceId}`;
const changeKey = (userId: number) => `live:chg:${userId}`;
const recordKey = (userId: number) => `live:rec:${userId}`;
const seenKey = (userId: number) => `live:seen:${userId}`;
const eventKey = (userId: number) => `live:evt:${userId}`;

/** Most devices one script writes or reads: a script blocks Redis while it runs. */
const CHUNK = 1000;

/**
 * A state as the write scripts take it, in one argument: the state's JSON without its
 * tail, then the tail op (`+<length>` append and keep the last length points, `=` replace),
 * then the op's points, a line each (JSON never holds a raw newline). The tail lives in
 * a list beside the state (`<device key>:tail`), so a new position sends one point rather
 * than thirty: the whole tail was three quarters of the bytes and most of the tracker's
 * CPU writing states.
 */
function stateArg(state: LiveState, op: TailOp): string {
  let arg = `${JSON.stringify({ ...state, tail: undefined })}\n${op.kind === "append" ? `+${op.length}` : "="}`;
  for (const p of op.points) arg += `\n${JSON.stringify(p)}`;
  return arg;
}

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

// Writes a stateArg: returns the state's JSON and applies the tail op to key .. ':tail'.
const WRITE_TAIL = `local function write_tail(key, arg)
  local nl = string.find(arg, '\\n', 1, true)
  local head = string.sub(arg, 1, nl - 1)
  local op_end = string.find(arg, '\\n', nl + 1, true)
  local kind = string.sub(arg, nl + 1, nl + 1)
  local length = tonumber(string.sub(arg, nl + 2, (op_end or 0) - 1))
  local points = {}
  while op_end do
    local next_end = string.find(arg, '\\n', op_end + 1, true)
    points[#points + 1] = string.sub(arg, op_end + 1, (next_end or 0) - 1)
    op_end = next_end
  end
  local tail = key .. ':tail'
  if kind == '=' then redis.call('DEL', tail) end
  if #points > 0 then redis.call('RPUSH', tail, unpack(points)) end
  if kind == '+' then redis.call('LTRIM', tail, -length, -1) end
  return head
end`;

/**
 * Many devices' states in one call, in four arguments: retention ms, the key prefix, the
 * states (for each, its device id and a newline before its stateArg, NUL between states:
 * JSON never holds a raw NUL) and the users (per user "<id>:" then "<deviceId> <serverTime>"
 * pairs, users apart by "|"). ioredis spent more on a thousand small arguments than on
 * their bytes, so the keys are named here rather than passed (no Redis Cluster: one
 * script writes many devices' keys anyway). Each user's indexes are stamped with one ZADD
 * and trimmed once, rather than once per device.
 */
const PUT_LUA = `${NOW_MS}
${CHUNKED}
${WRITE_TAIL}
local retention = tonumber(ARGV[1])
local prefix = ARGV[2]
local states = ARGV[3]
local at = 1
while at <= #states do
  local stop = string.find(states, '\\0', at, true)
  local nl = string.find(states, '\\n', at, true)
  local key = prefix .. 'live:dev:' .. string.sub(states, at, nl - 1)
  redis.call('SET', key, write_tail(key, string.sub(states, nl + 1, (stop or 0) - 1)))
  at = stop and stop + 1 or #states + 1
end
local cutoff = '(' .. string.format('%d', now - retention)
for user, pairs_ in string.gmatch(ARGV[4], '(%d+):([^|]*)') do
  local changed, seen = {}, {}
  for id, server_time in string.gmatch(pairs_, '(%d+) (%d+)') do
    changed[#changed + 1] = stamp
    changed[#changed + 1] = id
    seen[#seen + 1] = server_time
    seen[#seen + 1] = id
  end
  local changes, seen_key = prefix .. 'live:chg:' .. user, prefix .. 'live:seen:' .. user
  chunked('ZADD', changes, changed)
  redis.call('ZREMRANGEBYSCORE', changes, '-inf', cutoff)
  redis.call('PEXPIRE', changes, retention)
  chunked('ZADD', seen_key, seen)
  redis.call('PEXPIRE', seen_key, retention)
end
return now`;

/** KEYS: per user its change index and record index; ARGV deviceId, retention ms. */
const MARK_LUA = `${NOW_MS}
${STAMP}
for i = 1, #KEYS do stamp_in(KEYS[i], ARGV[1], ARGV[2]) end
return now`;

/** KEYS: the user's change index and event index; ARGV deviceId, retention ms, then the event ids. */
const MARK_EVENTS_LUA = `${NOW_MS}
${STAMP}
${CHUNKED}
stamp_in(KEYS[1], ARGV[1], ARGV[2])
local stamped = {}
for i = 3, #ARGV do
  stamped[#stamped + 1] = stamp
  stamped[#stamped + 1] = ARGV[i]
end
chunked('ZADD', KEYS[2], stamped)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. string.format('%d', now - tonumber(ARGV[2])))
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return now`;

/** KEYS[1] device key, then each user's seen index; ARGV deviceId, stateArg, retention ms, serverTime. Indexes only what it wrote. */
const RESTORE_LUA = `${WRITE_TAIL}
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SET', KEYS[1], write_tail(KEYS[1], ARGV[2]))
  for i = 2, #KEYS do
    redis.call('ZADD', KEYS[i], ARGV[4], ARGV[1])
    redis.call('PEXPIRE', KEYS[i], ARGV[3])
  end
end
return 1`;

/**
 * KEYS: device keys; ARGV[1] how many of each tail's newest points, -1 all. Each state's
 * JSON with its tail list spliced in as "tail" (a state written before the tail had a
 * list of its own still holds it, and has no list).
 */
const GET_LUA = `local newest = tonumber(ARGV[1])
local out = {}
for i = 1, #KEYS do
  local head = redis.call('GET', KEYS[i])
  if head then
    local tail = {}
    if newest ~= 0 then tail = redis.call('LRANGE', KEYS[i] .. ':tail', newest < 0 and 0 or -newest, -1) end
    if #tail > 0 then head = string.sub(head, 1, -2) .. ',"tail":[' .. table.concat(tail, ',') .. ']}' end
    out[i] = head
  else
    out[i] = false
  end
end
return out`;

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
type ScriptedPipeline = ChainableCommander & {
  liveGet: WriteFn<ChainableCommander>;
  livePut: WriteFn<ChainableCommander>;
  liveMark: WriteFn<ChainableCommander>;
  liveMarkEvents: WriteFn<ChainableCommander>;
  liveRestore: WriteFn<ChainableCommander>;
};

export function createRedisLive(options: RedisLiveOptions): LiveStore {
  const keyPrefix = options.keyPrefix ?? "";
  const redis = new Redis(options.url, { keyPrefix }) as Scripted;
  // No numberOfKeys for the writes: the count varies with the number of users, so it is the first argument.
  redis.defineCommand("liveGet", { lua: GET_LUA });
  redis.defineCommand("livePut", { lua: PUT_LUA });
  redis.defineCommand("liveMark", { lua: MARK_LUA });
  redis.defineCommand("liveMarkEvents", { lua: MARK_EVENTS_LUA });
  redis.defineCommand("liveRestore", { lua: RESTORE_LUA });
  redis.defineCommand("liveChanged", { numberOfKeys: 2, lua: CHANGED_LUA });

  const written = new WrittenTails();

  // One pipeline per call, one script per entry: a round trip per batch, not per device.
  async function pipelined<T>(entries: readonly T[], add: (pipeline: ScriptedPipeline, entry: T) => void): Promise<unknown[]> {
    if (entries.length === 0) return [];
    const pipeline = redis.pipeline() as ScriptedPipeline;
    for (const entry of entries) add(pipeline, entry);
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([err]) => err);
    if (failed) throw failed[0];
    return results.map(([, value]) => value);
  }

  /** A write of these devices' tails that failed may have landed in part: their next writes send whole tails. */
  async function writingTails<T>(deviceIds: Iterable<number>, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      written.forget(deviceIds);
      throw err;
    }
  }

  const chunksOf = <T>(items: readonly T[]) => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

  async function read(key: string, userId: number, sinceMs: number, offlineAfterMs?: number) {
    const [now, ids, offline] = await redis.liveChanged(key, seenKey(userId), String(sinceMs), offlineAfterMs === undefined ? "" : String(offlineAfterMs));
    return { deviceIds: [...new Set([...ids, ...offline])].map(Number), now };
  }

  return {
    kind: "redis",
    async getStates(deviceIds, tailMax) {
      const ids = [...new Set(deviceIds)];
      const chunks = chunksOf(ids);
      const values = (await pipelined(chunks, (p, chunk) => p.liveGet(chunk.length, ...chunk.map(deviceKey), tailMax ?? -1))).flat() as (string | null)[];
      const out = new Map<number, LiveState>();
      ids.forEach((id, i) => {
        const json = values[i];
        if (json == null) return;
        // Our own writes, so not re-validated against the schema on every read.
        const state = JSON.parse(json) as LiveState;
        state.tail ??= [];
        out.set(id, withTailMax(state, tailMax));
      });
      return out;
    },
    async putStates(entries) {
      await writingTails(
        entries.map((e) => e.state.deviceId),
        () => pipelined(chunksOf(entries), (p, chunk) => {
        const byUser = new Map<number, string[]>();
        for (const { state, userIds } of chunk) {
          for (const u of userIds) {
            let list = byUser.get(u);
            if (!list) byUser.set(u, (list = []));
            list.push(`${state.deviceId} ${Math.round(state.serverTime)}`);
          }
        }
        const states = chunk.map(({ state }) => `${state.deviceId}\n${stateArg(state, written.next(state.deviceId, state.tail))}`).join("\0");
        const users = [...byUser].map(([u, list]) => `${u}:${list.join(" ")}`).join("|");
        p.livePut(0, CHANGE_RETENTION_MS, keyPrefix, Buffer.from(states), users);
      }),
      );
    },
    async restoreStates(entries) {
      // Replaced whole, and forgotten: where the device had a state already, the tail written is not this one.
      const ids = entries.map((e) => e.state.deviceId);
      await pipelined(entries, (p, { state, userIds }) => {
        const keys = [deviceKey(state.deviceId), ...userIds.map(seenKey)];
        p.liveRestore(keys.length, ...keys, state.deviceId, stateArg(state, { kind: "replace", points: state.tail }), CHANGE_RETENTION_MS, Math.round(state.serverTime));
      }).finally(() => written.forget(ids));
    },
    async markChanged(entries) {
      await pipelined(
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
    async markEvents(entries) {
      await pipelined(entries, (p, { userId, deviceId, eventIds }) => p.liveMarkEvents(2, changeKey(userId), eventKey(userId), deviceId, CHANGE_RETENTION_MS, ...eventIds));
    },
    async eventsMarked(userId, fromMs, toMs) {
      // Entries older than the retention are trimmed by the writes.
      const ids = await redis.zrangebyscore(eventKey(userId), fromMs, `(${toMs}`);
      return ids.map(Number);
    },
    ...redisRuleStates(redis, pipelined, options.logger),
    async claim(name, ttlMs) {
      return (await redis.set(`lease:${name}`, "1", "PX", ttlMs, "NX")) === "OK";
    },
    async deleteStates(deviceIds) {
      // Index members stay until trimmed: readers already skip ids without a state
      // (markChanged creates such ids too), and a user's index is bounded by retention.
      written.forget(deviceIds);
      if (deviceIds.length > 0) await redis.del(deviceIds.flatMap((id) => [deviceKey(id), `${deviceKey(id)}:tail`, ruleKey(id)]));
    },
    async close() {
      await redis.quit();
    },
  };
}

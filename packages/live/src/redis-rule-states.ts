import type { ChainableCommander, Redis } from "ioredis";
import type { LiveStore, RuleState } from "./port.js";
import { memberWrites, parseMember } from "./rule-state.js";

/*
 * Rules-service states in Redis: a hash per device, a field per member, so a batch writes only
 * the members that moved (a detector's memory changes when it fires, not at every position)
 * and a caller keeping states in memory checks its copy by reading one field. States written by
 * earlier versions as one JSON string under `live:rule:<id>` are not read: detectors meet such
 * devices as if for the first time (docs/decisions.md, "rules: state in memory").
 */

export const ruleKey = (deviceId: number) => `live:rules:${deviceId}`;

/** KEYS: state hashes; ARGV[1] a member. That member of each, or false. */
const MEMBER_LUA = `local out = {}
for i = 1, #KEYS do
  out[i] = redis.call('HGET', KEYS[i], ARGV[1]) or false
end
return out`;

/**
 * KEYS: state hashes; ARGV, for each in turn: how many members to set and to remove, then the
 * member/JSON pairs, then the members. One script per batch of devices, each device's change
 * whole (a script runs atomically).
 */
const CHANGE_LUA = `local a = 1
for i = 1, #KEYS do
  local nset = tonumber(ARGV[a])
  local nunset = tonumber(ARGV[a + 1])
  a = a + 2
  if nset > 0 then redis.call('HSET', KEYS[i], unpack(ARGV, a, a + 2 * nset - 1)) end
  a = a + 2 * nset
  if nunset > 0 then redis.call('HDEL', KEYS[i], unpack(ARGV, a, a + nunset - 1)) end
  a = a + nunset
end
return 1`;

/** Most devices one script reads or writes: a script blocks Redis while it runs. */
const CHUNK = 1000;
const MAX_ARGS = 20_000;

type RuleCommands = Redis & {
  liveRuleMember(numKeys: number, ...keysAndArgs: string[]): Promise<(string | false | null)[]>;
  liveRuleChange(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<number>;
};
type Logger = { warn(obj: object, msg?: string): void } | undefined;

/** The store's one-round-trip pipeline helper (redis.ts): a command per entry, the first error thrown. */
type Pipelined = <T>(entries: readonly T[], add: (pipeline: ChainableCommander, entry: T) => void) => Promise<unknown[]>;

export function redisRuleStates(redis: Redis, pipelined: Pipelined, logger: Logger): Pick<LiveStore, "getRuleStates" | "getRuleStateMember" | "changeRuleStates"> {
  redis.defineCommand("liveRuleMember", { lua: MEMBER_LUA });
  redis.defineCommand("liveRuleChange", { lua: CHANGE_LUA });
  const commands = redis as RuleCommands;

  return {
    async getRuleStates(deviceIds) {
      const ids = [...new Set(deviceIds)];
      const out = new Map<number, RuleState>();
      const hashes = (await pipelined(ids, (p, id) => void p.hgetall(ruleKey(id)))) as Record<string, string>[];
      ids.forEach((id, i) => {
        const hash = hashes[i]!;
        const state: RuleState = {};
        let members = 0;
        for (const [member, json] of Object.entries(hash)) {
          const value = parseMember(json);
          // Its size, never its text: a member may hold a driver's card number.
          if (value === undefined) logger?.warn({ deviceId: id, member, bytes: json.length }, "a stored rule state member is not JSON; reading it as none");
          else {
            state[member] = value;
            members++;
          }
        }
        if (members > 0) out.set(id, state);
      });
      return out;
    },
    async getRuleStateMember(deviceIds, member) {
      const ids = [...new Set(deviceIds)];
      const out = new Map<number, unknown>();
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        const values = await commands.liveRuleMember(chunk.length, ...chunk.map(ruleKey), member);
        chunk.forEach((id, j) => {
          const json = values[j];
          const value = typeof json === "string" ? parseMember(json) : undefined;
          if (value !== undefined) out.set(id, value);
        });
      }
      return out;
    },
    async changeRuleStates(changes) {
      // All serialised before anything is sent: a member JSON cannot hold fails the call with nothing written.
      const writes = changes.map((c) => ({ key: ruleKey(c.deviceId), ...memberWrites(c) })).filter((w) => w.set.length + w.unset.length > 0);
      let keys: string[] = [];
      let args: (string | number)[] = [];
      const send = async () => {
        if (keys.length > 0) await commands.liveRuleChange(keys.length, ...keys, ...args);
        keys = [];
        args = [];
      };
      for (const { key, set, unset } of writes) {
        keys.push(key);
        args.push(set.length, unset.length);
        for (const [member, json] of set) args.push(member, json);
        for (const member of unset) args.push(member);
        // Bounded too by arguments: they are spread into one call.
        if (keys.length >= CHUNK || args.length >= MAX_ARGS) await send();
      }
      await send();
    },
  };
}

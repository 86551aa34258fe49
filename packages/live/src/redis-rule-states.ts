import type { Redis } from "ioredis";
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

/** KEYS[1] a state hash; ARGV[1] n, then n member/JSON pairs to set, then members to remove. One device's change, whole. */
const CHANGE_LUA = `local n = tonumber(ARGV[1])
if n > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, 2, 2 * n + 1)) end
if #ARGV > 2 * n + 1 then redis.call('HDEL', KEYS[1], unpack(ARGV, 2 * n + 2)) end
return 1`;

/** Most devices one member read asks for: a script blocks Redis while it runs. */
const CHUNK = 1000;

type RuleCommands = Redis & {
  liveRuleMember(numKeys: number, ...keysAndArgs: string[]): Promise<(string | false | null)[]>;
};
type Logger = { warn(obj: object, msg?: string): void } | undefined;

export function redisRuleStates(redis: Redis, logger: Logger): Pick<LiveStore, "getRuleStates" | "getRuleStateMember" | "changeRuleStates"> {
  redis.defineCommand("liveRuleMember", { lua: MEMBER_LUA });
  redis.defineCommand("liveRuleChange", { numberOfKeys: 1, lua: CHANGE_LUA });
  const commands = redis as RuleCommands;

  async function exec(pipeline: ReturnType<Redis["pipeline"]>): Promise<unknown[]> {
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([err]) => err);
    if (failed) throw failed[0];
    return results.map(([, value]) => value);
  }

  return {
    async getRuleStates(deviceIds) {
      const ids = [...new Set(deviceIds)];
      const out = new Map<number, RuleState>();
      if (ids.length === 0) return out;
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hgetall(ruleKey(id));
      const hashes = (await exec(pipeline)) as Record<string, string>[];
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
      // All serialised before the pipeline: a member JSON cannot hold fails the call with nothing written.
      const writes = changes.map((c) => ({ key: ruleKey(c.deviceId), ...memberWrites(c) })).filter((w) => w.set.length + w.unset.length > 0);
      if (writes.length === 0) return;
      const pipeline = redis.pipeline() as ReturnType<Redis["pipeline"]> & { liveRuleChange(key: string, ...args: (string | number)[]): unknown };
      for (const { key, set, unset } of writes) pipeline.liveRuleChange(key, set.length, ...set.flat(), ...unset);
      await exec(pipeline);
    },
  };
}

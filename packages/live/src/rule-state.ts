import type { RuleState, RuleStateChange } from "./port.js";

/** Whether a value (a parsed stored one, or a caller's) has a rule state's shape: a JSON object. */
export function isRuleState(value: unknown): value is RuleState {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A change's members as stored: each member's JSON, or undefined for a member JSON drops (an
 * undefined value), which is removed like an unset one, so both adapters agree on what a
 * state holds. Throws on a value JSON cannot hold, before anything is written.
 */
export function memberWrites(change: RuleStateChange): { set: [string, string][]; unset: string[] } {
  if (!isRuleState(change.set)) throw new TypeError("a rule state change must set a JSON object");
  const set: [string, string][] = [];
  const unset = [...(change.unset ?? [])];
  for (const [member, value] of Object.entries(change.set)) {
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) unset.push(member);
    else set.push([member, json]);
  }
  return { set, unset };
}

/** A stored member's value, or undefined where its text is not JSON (corrupt, or written by something else). */
export function parseMember(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

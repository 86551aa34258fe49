import type { RuleState } from "./port.js";

/** Whether a value (a parsed stored one, or a caller's) has a rule state's shape: a JSON object. */
export function isRuleState(value: unknown): value is RuleState {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The JSON a rule state is stored as, or undefined where it is empty and so deletes.
 * Empty is judged on the JSON, so `{ a: undefined }` deletes too: it would read back as
 * `{}`, and both adapters must agree on what "has a state" means.
 */
export function ruleStateJson(state: RuleState): string | undefined {
  // The type allows an array; stored, it would read back as no state, so it is refused here.
  if (!isRuleState(state)) throw new TypeError("a rule state must be a JSON object");
  const json = JSON.stringify(state);
  return json === "{}" ? undefined : json;
}

/** A stored rule state, or undefined where the text is not a JSON object (corrupt, or written by something else). */
export function parseRuleState(json: string): RuleState | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return isRuleState(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

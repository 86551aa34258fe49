import type { Attributes } from "@fleet/contracts";
import type { CustomEventCondition } from "@fleet/db";
import { UNCHANGED, type Detection, type Detector } from "../detector.js";
import type { RuleCustomEvent } from "../model.js";

const EQUALS = 1;
const GREATER = 2;
const LESS = 3;

function asNumber(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v !== "string" || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** A condition's own value, read once per condition rather than at every position. */
interface Expected {
  number: number | undefined;
  text: string;
}
const expectedOf = new WeakMap<CustomEventCondition, Expected>();
function expected(c: CustomEventCondition): Expected {
  let e = expectedOf.get(c);
  if (!e) expectedOf.set(c, (e = { number: asNumber(c.tag_value), text: c.tag_value.trim().toLowerCase() }));
  return e;
}

/**
 * One condition on a position's attribute: equal (as numbers when both sides read as numbers,
 * a boolean as 1/0; else as text, case-insensitively), greater or less than (numbers only).
 * An attribute the position lacks holds no condition.
 */
export function conditionHolds(attributes: Attributes, c: CustomEventCondition): boolean {
  const value = attributes[c.tag];
  if (value === undefined) return false;
  const a = asNumber(value);
  const b = expected(c);
  if (c.type === EQUALS) return a !== undefined && b.number !== undefined ? a === b.number : String(value).trim().toLowerCase() === b.text;
  if (a === undefined || b.number === undefined) return false;
  if (c.type === GREATER) return a > b.number;
  if (c.type === LESS) return a < b.number;
  return false;
}

/** A custom event matches a position of its protocol (compared lower-cased; the model keeps the event's so) whose attributes meet all its conditions. */
export function customMatches(e: RuleCustomEvent, attributes: Attributes, protocol: string): boolean {
  if (e.conditions.length === 0 || e.protocol !== protocol) return false;
  for (const c of e.conditions) if (!conditionHolds(attributes, c)) return false;
  return true;
}

/**
 * custom: each of the alert's custom events fires when its conditions start to hold, or on
 * every matching position when it is `always`. Which of the device's custom events matched
 * the previous position is the device's, kept once by the chain (evaluate.ts) rather than by
 * each alert, which also runs this detector only when that set changes or an `always` one
 * matches; so it keeps no memory. Its message is the owner's own text, never translated.
 */
export const custom: Detector<never> = ({ alert, device, matches, wasMatched }) => {
  let events: Detection[] | undefined;
  for (const id of alert.customEvents) {
    const e = device.customEvents.get(id);
    if (!e || !matches(e)) continue;
    if (e.always || !wasMatched.has(id)) (events ??= []).push({ type: "custom", message: e.message, key: `custom:${id}` });
  }
  return events === undefined ? UNCHANGED : { events, next: undefined };
};

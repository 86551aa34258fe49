import type { Attributes, EnrichedPosition } from "@fleet/contracts";
import type { CustomEventCondition } from "@fleet/db";
import { NO_EVENTS, UNCHANGED, type Detection, type Detector, type DetectorInput } from "../detector.js";
import type { RuleCustomEvent } from "../model.js";

export interface CustomMemory {
  /** The custom events whose conditions held at the previous position. */
  matched: number[];
}

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

/** A custom event matches a position of its protocol whose attributes meet all its conditions. */
export function customMatches(e: RuleCustomEvent, position: EnrichedPosition): boolean {
  if (e.conditions.length === 0 || e.protocol.toLowerCase() !== position.protocol.toLowerCase()) return false;
  for (const c of e.conditions) if (!conditionHolds(position.attributes, c)) return false;
  return true;
}

function sameMembers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (const id of a) if (!b.includes(id)) return false;
  return true;
}

const NONE: number[] = [];

/** Whether the position matches other custom events than `before` held, or an `always` one. */
function firesOrMoves(ids: readonly number[], device: DetectorInput["device"], matches: DetectorInput["matches"], before: readonly number[]): boolean {
  let count = 0;
  for (const id of ids) {
    const e = device.customEvents.get(id);
    if (!e || !matches(e)) continue;
    if (e.always || !before.includes(id)) return true;
    count++;
  }
  return count !== before.length;
}

/**
 * custom: each of the alert's custom events fires when its conditions start to hold, or on
 * every matching position when it is `always`. Whether a custom event matches a position is
 * asked once per position, however many alerts name it. Its message is the owner's own text,
 * never translated.
 */
export const custom: Detector<CustomMemory> = ({ alert, device, matches }, previous) => {
  // Most positions match what the previous one matched and fire nothing: told without making a list.
  if (previous !== undefined && !firesOrMoves(alert.customEvents, device, matches, previous.matched)) return UNCHANGED;
  let matched = NONE;
  let events: Detection[] | undefined;
  for (const id of alert.customEvents) {
    const e = device.customEvents.get(id);
    if (!e || !matches(e)) continue;
    if (matched === NONE) matched = [];
    matched.push(id);
    if (e.always || (previous !== undefined && !previous.matched.includes(id))) (events ??= []).push({ type: "custom", message: e.message, key: `custom:${id}` });
  }
  const kept = previous !== undefined && sameMembers(matched, previous.matched);
  if (kept && events === undefined) return UNCHANGED;
  return { events: events ?? NO_EVENTS, next: kept ? previous : { matched } };
};

import { attributeKey } from "@fleet/contracts";

/**
 * Raw values out of a position's attributes, and how they compare and count. Attribute
 * values are strings, numbers or booleans, depending on the protocol and on how ingest
 * received them (form fields stay strings), so every rule here accepts all three.
 */
export type RawValue = string | number | boolean;

/** The tag's value in `attributes`, undefined when the tag is unset or absent. */
export function tagValue(attributes: Readonly<Record<string, RawValue>>, tagName: string): RawValue | undefined {
  const key = attributeKey(tagName);
  if (key === "" || !Object.hasOwn(attributes, key)) return undefined;
  return attributes[key];
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** A finite number from a number or a numeric string; booleans count as 1/0. */
export function toNumber(v: RawValue | null | undefined): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v !== "string") return null;
  const s = v.trim();
  if (!NUMBER.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/**
 * The units a device may write after a reading's number in a text value ("12.5V", "85 %",
 * "23.4°C", "1500 rpm"): read as the number, as the vendor's PHP reads a leading number.
 * A closed list, so an id such as "12AB" is no reading of 12.
 */
const WITH_UNIT = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*(?:m?v|m?a|%|°\s*[cf]?|[cfk]|km|mi|m|km\/h|kmh|kph|mph|l|lt|gal|h|hrs?|rpm|k?w|bar|psi|kpa|dbm?|s|min)\s*$/i;

/** A sensor reading's number: as toNumber, or a number with its unit after it in a text value. */
export function readingNumber(v: RawValue | null | undefined): number | null {
  const n = toNumber(v);
  if (n !== null || typeof v !== "string") return n;
  const m = WITH_UNIT.exec(v);
  const x = m ? Number(m[1]) : NaN;
  return Number.isFinite(x) ? x : null;
}

/** true/false for a boolean or the text "true"/"false", else null. */
function asBoolean(v: RawValue): boolean | null {
  if (typeof v === "boolean") return v;
  const s = String(v).trim().toLowerCase();
  return s === "true" ? true : s === "false" ? false : null;
}

/** A value compared as a boolean: true/false, or a number 1/0. */
function booleanLike(v: RawValue): boolean | null {
  const b = asBoolean(v);
  if (b !== null) return b;
  const n = toNumber(v);
  return n === 1 ? true : n === 0 ? false : null;
}

/**
 * Whether a raw value is the one a sensor's on_value/off_value names: numerically when
 * both are numbers (`1` = `1.0`), else as trimmed, case-insensitive text. Booleans (as
 * Traccar sends them, or the text "true"/"false") match "true"/"false" and 1/0. An empty
 * expected value matches nothing.
 */
export function sameValue(raw: RawValue, expected: string): boolean {
  const want = expected.trim();
  if (want === "") return false;
  if (asBoolean(raw) !== null || asBoolean(want) !== null) {
    const r = booleanLike(raw);
    return r !== null && r === booleanLike(want);
  }
  const a = toNumber(raw);
  const b = toNumber(want);
  if (a !== null && b !== null) return a === b;
  return String(raw).trim().toLowerCase() === want.toLowerCase();
}

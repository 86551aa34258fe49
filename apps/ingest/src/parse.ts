import { attributeKey, findForbiddenText, forbiddenTextMessage, hasForbiddenText, hasUndecodableText, MIN_TIME_MS, undecodableTextMessage, type Attributes } from "@fleet/contracts";

/** What a position looks like once ingest has checked it, before it gets an id and serverTime. */
export interface ParsedPosition {
  uniqueId: string;
  protocol: string;
  latitude: number;
  longitude: number;
  altitude: number;
  course: number;
  speed: number;
  fixTime: number;
  attributes: Attributes;
}

/**
 * `malformed`: set when an id (uniqueId, protocol) holds bytes that are not UTF-8, with the
 * message: the request cannot be read as sent (a 400), where other bad fields are a 422.
 */
export type ParseResult = { ok: true; position: ParsedPosition } | { ok: false; errors: Record<string, string>; malformed?: string };

export const LIMITS = {
  uniqueIdMax: 64,
  protocolMax: 64,
  maxSpeedKnots: 869,
  futureToleranceMs: 24 * 60 * 60 * 1000,
  attributesMax: 128,
  attributeKeyMax: 64,
  attributeValueMax: 1024,
  /** fixTime below this (2000-01-01) is almost surely seconds, not milliseconds. */
  minFixTime: MIN_TIME_MS,
} as const;

type Fields = Record<string, unknown>;

/**
 * A number as text: decimal, optionally signed, with a fraction or an exponent, and blanks
 * around it. Number() also reads `0x20`, `0b11` and `0o17`, which would make a garbled
 * value a plausible coordinate.
 */
const DECIMAL_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function num(fields: Fields, name: string, errors: Record<string, string>, min: number, max: number): number {
  const raw = fields[name];
  if (raw === undefined || raw === null || raw === "") {
    errors[name] = `The ${name} field is required.`;
    return NaN;
  }
  if (typeof raw === "string" && hasForbiddenText(raw)) {
    errors[name] = forbiddenTextMessage(name);
    return NaN;
  }
  const n = typeof raw === "number" ? raw : typeof raw === "string" && DECIMAL_TEXT.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n)) errors[name] = `The ${name} must be a number.`;
  else if (n < min || n > max) errors[name] = `The ${name} must be between ${min} and ${max}.`;
  return n;
}

/** An id (uniqueId, protocol): text or a number, trimmed, at most `max` characters, no control character at all, decodable. */
function str(fields: Fields, name: string, errors: Record<string, string>, max: number): string {
  const raw = fields[name];
  if (typeof raw !== "string" && typeof raw !== "number" && raw !== undefined && raw !== null) {
    errors[name] = `The ${name} must be a string.`;
    return "";
  }
  // Trimmed, as Laravel trims every input: " 8600..." from a gateway is the device 8600....
  const s = raw === undefined || raw === null ? "" : String(raw).trim();
  if (s === "") {
    errors[name] = `The ${name} field is required.`;
    return "";
  }
  if (s.length > max) errors[name] = `The ${name} may not be greater than ${max} characters.`;
  else if (hasForbiddenText(s) || ID_CONTROLS.test(s)) errors[name] = forbiddenTextMessage(name);
  else if (hasUndecodableText(s)) errors[name] = undecodableTextMessage(name);
  return s;
}

// Beyond the rule for all text, ids refuse the controls it lets through: they end up in
// log lines and keys, and no device id or protocol name needs them. Nor U+FFFD, which the
// decoders make of bytes that are not UTF-8 (`uniqueId=%FF%FE…`): such an id would be
// listed as "��" among the unregistered devices and match no device ever added. Attribute
// values keep it: a device's free text may be garbled without losing its position.
const ID_CONTROLS = /[\t\n\r\u007f]/;
const IDS = ["uniqueId", "protocol"] as const;

const DAY_MS = 86_400_000;
/** The GPS week number has 10 bits: a receiver that mishandles its rollover reports times 1024 weeks back (2019 → 1999, now → 2007). */
const GPS_WEEK_ROLLOVER_MS = 1024 * 7 * DAY_MS;
/** Older than this is no backlog a device still holds: a rolled-over clock, if whole rollovers bring it near now. */
const ROLLOVER_SUSPECT_MS = 8 * 365 * DAY_MS;
/** How near: a device's backlog is at most this old. */
const BACKLOG_MS = 366 * DAY_MS;

/**
 * A fix time with a GPS week rollover undone: a time over eight years old is moved on by
 * the whole number of 1024-week periods that brings it into the last year (and not past
 * the future tolerance), as Traccar's rollover compensation does. Other times are kept as sent.
 */
export function undoWeekRollover(t: number, now: number): number {
  if (now - t <= ROLLOVER_SUSPECT_MS) return t;
  let corrected = t + Math.round((now - t) / GPS_WEEK_ROLLOVER_MS) * GPS_WEEK_ROLLOVER_MS;
  if (corrected > now + LIMITS.futureToleranceMs) corrected -= GPS_WEEK_ROLLOVER_MS;
  return now - corrected <= BACKLOG_MS ? corrected : t;
}

function fixTimeOf(fields: Fields, errors: Record<string, string>, now: number): number {
  const t = sentFixTime(fields, errors, now);
  return errors.fixTime ? t : undoWeekRollover(t, now);
}

function sentFixTime(fields: Fields, errors: Record<string, string>, now: number): number {
  const raw = fields.fixTime;
  // Traccar's JSON forward sends ISO strings; its URL forward and the spec send epoch ms.
  if (typeof raw === "string" && /^\d{4}-\d{2}-\d{2}T/.test(raw)) {
    // Date.parse overlooks some junk after the time, a NUL among it.
    if (hasForbiddenText(raw)) {
      errors.fixTime = forbiddenTextMessage("fixTime");
      return NaN;
    }
    const t = Date.parse(raw);
    if (Number.isNaN(t)) errors.fixTime = "The fixTime is not a valid date.";
    else if (t > now + LIMITS.futureToleranceMs) errors.fixTime = "The fixTime may not be more than 24 hours in the future.";
    return t;
  }
  const t = num(fields, "fixTime", errors, LIMITS.minFixTime, Number.MAX_SAFE_INTEGER);
  if (errors.fixTime?.includes("between")) errors.fixTime = "The fixTime must be epoch milliseconds after 2000-01-01.";
  else if (!errors.fixTime && !Number.isInteger(t)) errors.fixTime = "The fixTime must be an integer (epoch milliseconds).";
  else if (!errors.fixTime && t > now + LIMITS.futureToleranceMs) errors.fixTime = "The fixTime may not be more than 24 hours in the future.";
  return t;
}


/**
 * The attributes as sent: a JSON object's own map (Traccar's, taken as it is: most requests
 * carry one), or key/value pairs from the array form and form fields.
 */
type RawAttributes = { object: Record<string, unknown>; error?: undefined } | { entries: [string, unknown][]; error?: string };

const BLANK = /^\s*$/;

function collectAttributes(fields: Fields): RawAttributes {
  const raw = fields.attributes;
  const entries: [string, unknown][] = [];
  if (typeof raw === "string" && !BLANK.test(raw)) {
    // Traccar's forward.url sends {attributes} as a JSON object; some gateways send the array form as JSON.
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return { entries, error: "The attributes must be a JSON object, an array of {key, value} or of objects, or attributes[key] fields." };
    }
    return collectFrom(parsed);
  }
  if (raw !== undefined && raw !== null && raw !== "") {
    const r = collectFrom(raw);
    if (r.error) return r;
    if ("object" in r) entries.push(...Object.entries(r.object));
    else entries.push(...r.entries);
  }
  // Form style: attributes[ignition]=1 or attributes[0][key]=ignition&attributes[0][value]=1.
  const indexed = new Map<string, { key?: unknown; value?: unknown }>();
  for (const name in fields) {
    // Cheap prefix test first: most requests carry no form-style attributes at all.
    if (!name.startsWith("attributes[")) continue;
    const value = fields[name];
    const m = /^attributes\[([^\]]*)\](?:\[(key|value)\])?$/.exec(name);
    if (!m) continue;
    if (m[2]) {
      const slot = indexed.get(m[1]!) ?? {};
      slot[m[2] as "key" | "value"] = value;
      indexed.set(m[1]!, slot);
    } else entries.push([m[1]!, value]);
  }
  for (const slot of indexed.values()) {
    if (typeof slot.key !== "string") return { entries, error: "Each attribute needs a string key." };
    entries.push([slot.key, slot.value]);
  }
  return { entries };
}

function collectFrom(parsed: unknown): RawAttributes {
  if (Array.isArray(parsed)) {
    // Each item a {key, value} pair, or, as the vendor's Swagger shows it, an object of
    // attributes (one with a `value` and no `key` is a pair without its key).
    const entries: [string, unknown][] = [];
    for (const item of parsed) {
      if (typeof item !== "object" || item === null || Array.isArray(item)) return { entries, error: "Each attribute needs a string key." };
      const { key } = item as { key?: unknown };
      if (key === undefined && !("value" in item)) entries.push(...Object.entries(item));
      else if (typeof key !== "string") return { entries, error: "Each attribute needs a string key." };
      else entries.push([key, (item as { value?: unknown }).value]);
    }
    return { entries };
  }
  if (typeof parsed === "object" && parsed !== null) return { object: parsed as Record<string, unknown> };
  return { entries: [], error: "The attributes must be a JSON object, an array of {key, value} or of objects, or attributes[key] fields." };
}

/** Adds one attribute to `out`; false when that refuses the position, with why in `errors`. */
function putAttribute(out: Attributes, rawKey: string, value: unknown, errors: Record<string, string>): boolean {
  const key = attributeKey(rawKey);
  if (key === "" || value === undefined || value === null) return true;
  if (key.length > LIMITS.attributeKeyMax) {
    errors.attributes = `Attribute keys may not be longer than ${LIMITS.attributeKeyMax} characters.`;
    return false;
  }
  if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) out[key] = value;
  else if (typeof value === "string" || typeof value === "number") {
    const s = String(value);
    if (s.length > LIMITS.attributeValueMax) {
      errors.attributes = `Attribute values may not be longer than ${LIMITS.attributeValueMax} characters.`;
      return false;
    }
    if (hasForbiddenText(s)) return refuseAttributeText(key, errors);
    out[key] = s;
  } else {
    // Nested objects (Traccar sends few) are kept as their JSON text. That text escapes
    // control characters, but whoever parses it back gets them, so they are refused too.
    if (findForbiddenText(value) !== undefined) return refuseAttributeText(key, errors);
    // Each level adds two characters at least, so a value nested deeper than half the limit is
    // too long to keep, as a long one is; and JSON.stringify would overflow the stack on it.
    if (nestsDeeperThan(value, LIMITS.attributeValueMax / 2)) return true;
    const s = JSON.stringify(value);
    if (s.length <= LIMITS.attributeValueMax) out[key] = s;
  }
  return true;
}

/** Whether objects and arrays in `value` nest more than `levels` deep, found without recursion. */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > levels) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

function refuseAttributeText(key: string, errors: Record<string, string>): false {
  errors[`attributes.${key}`] = forbiddenTextMessage(`attribute ${key}`);
  return false;
}

const TOO_MANY = `No more than ${LIMITS.attributesMax} attributes are accepted.`;

function normaliseAttributes(fields: Fields, errors: Record<string, string>): Attributes {
  const raw = collectAttributes(fields);
  if (raw.error) {
    errors.attributes = raw.error;
    return {};
  }
  let count = 0;
  if ("object" in raw) for (const _key in raw.object) count++;
  else count = raw.entries.length;
  if (count > LIMITS.attributesMax) {
    errors.attributes = TOO_MANY;
    return {};
  }
  const out: Attributes = {};
  // The object is walked in place rather than through Object.entries: ~800 bytes less garbage per position.
  if ("object" in raw) {
    for (const key in raw.object) if (!putAttribute(out, key, raw.object[key], errors)) return {};
  } else for (const [key, value] of raw.entries) if (!putAttribute(out, key, value, errors)) return {};
  return out;
}

/**
 * Turns one position's fields, from a query string, a form or a JSON object, into a
 * checked position or a field → message map. Never throws on bad input.
 */
export function parsePosition(input: unknown, now: number = Date.now()): ParseResult {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, errors: { position: "A position must be an object of fields." } };
  }
  const fields = unwrapTraccarJson(input as Fields);
  const errors: Record<string, string> = {};
  const position: ParsedPosition = {
    uniqueId: str(fields, "uniqueId", errors, LIMITS.uniqueIdMax),
    protocol: str(fields, "protocol", errors, LIMITS.protocolMax),
    latitude: num(fields, "latitude", errors, -90, 90),
    longitude: num(fields, "longitude", errors, -180, 180),
    altitude: num(fields, "altitude", errors, -Number.MAX_VALUE, Number.MAX_VALUE),
    course: num(fields, "course", errors, 0, 360),
    speed: num(fields, "speed", errors, 0, LIMITS.maxSpeedKnots),
    fixTime: fixTimeOf(fields, errors, now),
    attributes: normaliseAttributes(fields, errors),
  };
  if (Object.keys(errors).length === 0) return { ok: true, position };
  const undecodable = IDS.find((name) => errors[name] === undecodableTextMessage(name));
  return undecodable === undefined ? { ok: false, errors } : { ok: false, errors, malformed: errors[undecodable] };
}

/** Fields of Traccar's Position that the platform keeps as attributes of the same name. */
const TRACCAR_POSITION_ATTRIBUTES = ["valid", "accuracy"] as const;

/**
 * Traccar's `forward.json` posts `{position: {...}, device: {uniqueId, ...}}`. The position's own
 * `valid` and `accuracy` become attributes (where its attributes do not name them already), as
 * the URL forward and the devices sending to insert.php carry them: an invalid fix stays invalid.
 */
function unwrapTraccarJson(fields: Fields): Fields {
  const position = fields.position;
  const device = fields.device;
  if (typeof position !== "object" || position === null || typeof device !== "object" || device === null) return fields;
  const p = position as Fields;
  const attributes = p.attributes ?? {};
  if (typeof attributes !== "object" || attributes === null || Array.isArray(attributes)) return { ...p, uniqueId: (device as Fields).uniqueId };
  const kept: Record<string, unknown> = { ...attributes };
  for (const key of TRACCAR_POSITION_ATTRIBUTES) if (p[key] !== undefined && !Object.hasOwn(kept, key)) kept[key] = p[key];
  return { ...p, attributes: kept, uniqueId: (device as Fields).uniqueId };
}

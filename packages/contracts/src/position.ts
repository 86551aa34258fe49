import { Type, type Static } from "@sinclair/typebox";
import { ALLOWED_TEXT_PATTERN } from "./text.js";

/**
 * Attribute values after normalisation: keys are lower-case `[a-z0-9_-]`. Text keeps to the
 * one rule for incoming text, so a consumer's compiled check refuses a message that breaks it.
 */
export const AttributeValueSchema = Type.Union([Type.String({ pattern: ALLOWED_TEXT_PATTERN }), Type.Number(), Type.Boolean()]);
export const AttributesSchema = Type.Record(Type.String(), AttributeValueSchema);
export type Attributes = Static<typeof AttributesSchema>;

/** Attribute keys the platform itself understands. */
export const KnownAttributes = ["valid", "ignition", "motion", "rfid", "driveruniqueid", "odometer", "hours", "power", "battery", "sat", "alarm", "event", "fuel", "temp1"] as const;
export type KnownAttribute = (typeof KnownAttributes)[number];

// Ingest normalises every key a device sends, and sensors look their tag names up per
// position (history reads each sensor at a day's ~8,640 fixes): the replaces cost more than
// the rest, so results are kept, the cap only guarding against junk keys.
const attributeKeys = new Map<string, string>();

/**
 * The attribute key a name stands for: lower-cased, each run of characters outside
 * [a-z0-9_-] one `_`, none at either end. Ingest stores keys this way, so a sensor's tag typed
 * as `Battery Level` finds `battery_level`.
 */
export function attributeKey(name: string): string {
  let key = attributeKeys.get(name);
  if (key === undefined) {
    key = name
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "_")
      .replace(/^_+|_+$/g, "");
    if (attributeKeys.size >= 10_000) attributeKeys.clear();
    attributeKeys.set(name, key);
  }
  return key;
}

/** An attribute the platform interprets, by its known key (so a typo is a type error). */
export function knownAttribute(attributes: Attributes, key: KnownAttribute): Attributes[string] | undefined {
  return attributes[key];
}

/** Whether a fix is valid: devices send `valid` as a boolean or as text, and only an explicit false marks a fix invalid. */
export function isValidFix(attributes: Attributes): boolean {
  const valid = knownAttribute(attributes, "valid");
  return valid !== false && valid !== "false";
}

/**
 * The driver card (RFID) a position carries, trimmed and lower-cased so matching is
 * case-insensitive; undefined when it carries none. Traccar names it `driverUniqueId`.
 * The tracker switches drivers by it and history names each group's driver by it.
 */
const CARD_KEYS = ["rfid", "driveruniqueid"] as const;
export function rfidOf(attributes: Attributes): string | undefined {
  return cardAsSent(attributes)?.toLowerCase();
}

/** The driver card a position carries, trimmed but as the device wrote it: for messages that show it. */
export function cardAsSent(attributes: Attributes): string | undefined {
  for (const key of CARD_KEYS) {
    const v = knownAttribute(attributes, key);
    if (typeof v !== "string" && typeof v !== "number") continue;
    const rfid = String(v).trim();
    if (rfid !== "") return rfid;
  }
  return undefined;
}

/**
 * The times a position may carry: from 2000 (ingest refuses earlier fixes, most likely
 * seconds sent as milliseconds) to 2100. Ingest also refuses fixes more than a day ahead;
 * the bus contract cannot know "now", but a bound keeps a time no store or date can hold
 * (a year 287,000 fix) from reaching history and pinning a device's live state.
 */
export const MIN_TIME_MS = Date.UTC(2000, 0, 1);
export const MAX_TIME_MS = Date.UTC(2100, 0, 1);

/** The fields every stage of a position carries, whatever else it adds. */
export const FixFields = {
  uniqueId: Type.String({ minLength: 1, maxLength: 64, pattern: ALLOWED_TEXT_PATTERN }),
  protocol: Type.String({ maxLength: 64, pattern: ALLOWED_TEXT_PATTERN }),
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  altitude: Type.Number({ description: "metres" }),
  course: Type.Number({ minimum: 0, maximum: 360, description: "degrees" }),
  fixTime: Type.Integer({ minimum: MIN_TIME_MS, maximum: MAX_TIME_MS, description: "epoch milliseconds of the GPS fix" }),
  serverTime: Type.Integer({ minimum: MIN_TIME_MS, maximum: MAX_TIME_MS, description: "epoch milliseconds when ingest accepted it" }),
  attributes: AttributesSchema,
};

/** What the tracker adds to a fix once it knows the device. */
export const TrackedFields = {
  deviceId: Type.Integer(),
  speedKmh: Type.Number({ description: "km/h" }),
  distanceKm: Type.Number({ description: "km from the device's previous fix in time" }),
};

/**
 * A position as ingest accepted it: message value of `positions.raw`, keyed by uniqueId.
 * `id` is assigned by ingest and is the position's id for its whole life, so a replay
 * of the same message writes the same history row.
 */
export const RawPositionSchema = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "position id, unique, below 2^53" }),
  ...FixFields,
  speed: Type.Number({ minimum: 0, maximum: 869, description: "knots, as devices send it" }),
});
export type RawPosition = Static<typeof RawPositionSchema>;

/**
 * A position after the tracker resolved its device: message value of
 * `positions.enriched`, keyed by uniqueId. Speed is km/h from here on.
 */
export const EnrichedPositionSchema = Type.Object({
  id: Type.Integer(),
  ...FixFields,
  ...TrackedFields,
  userIds: Type.Array(Type.Integer()),
  /** False when the fix is older than the device's latest: history only, live state untouched. */
  latest: Type.Boolean(),
  /** The engine runs at this fix, by the device's engine sensor or, without one, its speed (as history stores it). */
  engineOn: Type.Boolean(),
  /** The fix counts as moving: the rule history's groups use (@fleet/sensors isMoving). */
  moving: Type.Boolean(),
});
export type EnrichedPosition = Static<typeof EnrichedPositionSchema>;

export const KNOTS_TO_KMH = 1.852;

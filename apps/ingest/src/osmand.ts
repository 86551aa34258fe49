/*
 * The OsmAnd protocol, as Traccar's port 5055 takes it (OsmAndProtocolDecoder): what the
 * OsmAnd app's online tracking and the Traccar Client apps send, read into insert.php's
 * fields, so one parser checks both and the tracker sees one kind of position.
 *
 * - Query or form: `id`/`deviceid`; `timestamp` as epoch seconds, epoch ms, ISO-8601 or
 *   `yyyy-MM-dd HH:mm:ss` (UTC); `lat` and `lon`, or `location=lat,lon`; `speed` in knots;
 *   `bearing`/`heading`, `altitude`; `batt` (battery %); anything else an attribute, numbers
 *   and true/false read as such.
 * - JSON (Traccar Client): `{device_id, location: {timestamp, coords: {latitude, longitude,
 *   speed (m/s), heading, accuracy, altitude}, is_moving, odometer, event, battery: {level
 *   0–1, is_charging}, activity: {type}, extras}}`.
 *
 * A missing timestamp is the time it arrived, a missing speed, course or altitude 0, as in
 * Traccar. A position without a location is refused: Traccar gives it the device's last one,
 * which ingest does not know.
 */
type Fields = Record<string, unknown>;

export const OSMAND_PROTOCOL = "osmand";
const KNOTS_PER_MPS = 1.9438444924406;

/** insert.php's names of the fields an OsmAnd request names otherwise, to name them back in errors. */
const OSMAND_NAMES: Record<string, string> = { uniqueId: "id", latitude: "lat", longitude: "lon", fixTime: "timestamp", course: "bearing" };

/** Errors about insert.php's fields, named as the OsmAnd request named them. */
export function osmandErrors(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    const name = OSMAND_NAMES[field];
    out[name ?? field] = name === undefined ? message : message.replace(`The ${field}`, `The ${name}`);
  }
  return out;
}

const SECONDS_BEFORE = 2 ** 31;

/** An OsmAnd timestamp as epoch ms; the text as sent when it is none of the forms (the parser refuses it). */
function fixTimeOf(raw: unknown, now: number): unknown {
  if (raw === undefined || raw === null || raw === "") return now;
  const text = String(raw).trim();
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n < SECONDS_BEFORE ? n * 1000 : n;
  }
  const local = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text);
  if (local) return `${local[1]}T${local[2]}Z`;
  return text;
}

/** Text that a number gives back unchanged: no leading zero, sign, exponent or spaces. */
const PLAIN_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** Attributes that are identifiers, text even when all digits (Traccar keeps driverUniqueId as text). */
const TEXT_ATTRIBUTES = new Set(["driveruniqueid", "rfid", "iccid", "imsi"]);

/**
 * A query or form value as Traccar keeps it: a number when it reads as one, true/false, else
 * the text. A number only when it reads back the same: a card's leading zeros ("00042") and an
 * ICCID's twenty digits (past 2^53) would be lost.
 */
function attributeValue(key: string, raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  if (raw === "true" || raw === "false") return raw === "true";
  if (TEXT_ATTRIBUTES.has(key.toLowerCase()) || !PLAIN_NUMBER.test(raw)) return raw;
  const n = Number(raw);
  return Number.isInteger(n) && !Number.isSafeInteger(n) ? raw : n;
}

/** A bearing or heading: a negative one (-1, "unknown", as phones send it) is 0, as Traccar Client's JSON is read. */
function courseOf(raw: unknown): unknown {
  return raw !== undefined && raw !== null && Number(raw) < 0 ? 0 : (raw ?? 0);
}

/** The query's and the form's fields that are OsmAnd's own; the rest are attributes. */
const OWN_FIELDS = new Set(["id", "deviceid", "timestamp", "lat", "lon", "location", "speed", "bearing", "heading", "altitude", "batt"]);

/** Fields of the query or the form: OsmAnd's own names, the rest attributes. */
function fromQuery(q: Fields, now: number): Fields {
  const attributes: Record<string, unknown> = {};
  let latitude = q.lat;
  let longitude = q.lon;
  if (typeof q.location === "string" && q.location.includes(",")) [latitude, longitude] = q.location.split(",", 2);
  for (const [key, value] of Object.entries(q)) if (!OWN_FIELDS.has(key)) attributes[key] = attributeValue(key, value);
  if (q.batt !== undefined) attributes.batteryLevel = attributeValue("batt", q.batt);
  return {
    uniqueId: q.id ?? q.deviceid,
    protocol: OSMAND_PROTOCOL,
    latitude,
    longitude,
    speed: q.speed ?? 0,
    course: courseOf(q.bearing ?? q.heading),
    altitude: q.altitude ?? 0,
    fixTime: fixTimeOf(q.timestamp, now),
    attributes,
  };
}

const objectIn = (v: unknown): Fields | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Fields) : undefined);
const present = (entries: [string, unknown][]) => Object.fromEntries(entries.filter(([, v]) => v !== undefined && v !== null));

/** Traccar Client's JSON: speed in m/s, heading -1 when unknown, battery level 0–1 (-1 when unknown). */
function fromTraccarClient(body: Fields, location: Fields, now: number): Fields {
  const coords = objectIn(location.coords) ?? {};
  const battery = objectIn(location.battery) ?? {};
  const speed = typeof coords.speed === "number" && coords.speed > 0 ? coords.speed * KNOTS_PER_MPS : 0;
  const heading = typeof coords.heading === "number" && coords.heading >= 0 ? coords.heading : 0;
  // -1 when the phone does not know its battery level.
  const level = typeof battery.level === "number" && battery.level >= 0 ? Math.round(battery.level * 1000) / 10 : undefined;
  return {
    uniqueId: body.device_id,
    protocol: OSMAND_PROTOCOL,
    latitude: coords.latitude,
    longitude: coords.longitude,
    speed,
    course: heading,
    altitude: coords.altitude ?? 0,
    fixTime: fixTimeOf(location.timestamp, now),
    attributes: {
      ...objectIn(location.extras),
      ...present([
        ["accuracy", coords.accuracy],
        ["motion", location.is_moving],
        ["odometer", location.odometer],
        ["event", location.event],
        ["batteryLevel", level],
        ["charge", battery.is_charging],
        ["activity", objectIn(location.activity)?.type],
      ]),
    },
  };
}

/** An OsmAnd request's fields (its query and its body, merged) as insert.php's. */
export function fromOsmand(input: Fields, now: number = Date.now()): Fields {
  const location = objectIn(input.location);
  return location !== undefined && input.device_id !== undefined ? fromTraccarClient(input, location, now) : fromQuery(input, now);
}

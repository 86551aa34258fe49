/**
 * The alert vocabulary, declared once: each alert type with its attributes (what
 * add_alert_data describes, what add_alert/edit_alert validate and what the rules service
 * reads), the zone filter, the weekly schedule's quarter-hour slots and the notification
 * channels. Everything here is pure, so the API and the rules service share it.
 */

/** The records a multiselect attribute picks from; its name is also the alert's column. */
export type AlertRecordList = "geofences" | "drivers" | "events_custom" | "pois";

interface AttributeBase<N extends string> {
  name: N;
  title: string;
  /** Whether add_alert/edit_alert must carry it when this type is chosen. */
  required: boolean;
}

export interface IntegerAttribute<N extends string = string> extends AttributeBase<N> {
  type: "integer";
  /** What a form shows first (descriptors carry defaults as text). */
  default: string;
  min: number;
  max: number;
}

export interface SelectAttribute<N extends string = string> extends AttributeBase<N> {
  type: "select";
  default: string;
  options: readonly { id: number; value: string }[];
}

export interface MultiselectAttribute<N extends AlertRecordList = AlertRecordList> extends AttributeBase<N> {
  type: "multiselect";
  default: readonly number[];
  /** Options are the user's own records of this kind, filled in per request. */
  maxItems: number;
}

export type AlertAttribute = IntegerAttribute | SelectAttribute | MultiselectAttribute;

export interface AlertTypeDeclaration {
  type: string;
  title: string;
  attributes: readonly AlertAttribute[];
}

// Bounds are generous but finite: a month of minutes, a speed no vehicle reaches.
const MAX_MINUTES = 43_200;
/** The longest silence ("ignore notifications if repeated in minutes") an alert keeps: the same month of minutes. */
export const MAX_SILENT_MINUTES = MAX_MINUTES;
const MAX_LIST_IDS = 1000;

const integer = <const N extends string>(name: N, title: string, dflt: string, min: number, max: number): IntegerAttribute<N> => ({ name, type: "integer", title, default: dflt, required: true, min, max });
const minutes = <const N extends string>(name: N, title: string, dflt: string) => integer(name, title, dflt, 1, MAX_MINUTES);
/** Minutes a form may leave out: the rules service reads an absent one as 0. */
const optionalMinutes = <const N extends string>(name: N, title: string): IntegerAttribute<N> => ({ ...integer(name, title, "0", 0, MAX_MINUTES), required: false });
const select = <const N extends string>(name: N, title: string, options: SelectAttribute["options"]): SelectAttribute<N> => ({ name, type: "select", title, default: String(options[0]!.id), required: true, options });
const records = <const N extends AlertRecordList>(name: N, title: string, required: boolean): MultiselectAttribute<N> => ({ name, type: "multiselect", title, default: [], required, maxItems: MAX_LIST_IDS });

const stopMinutes = minutes("stop_duration", "Stopped for longer than (minutes)", "10");
const idleMinutes = minutes("idle_duration", "Idle for longer than (minutes)", "10");
/** How near a point of interest (metres) a vehicle stands to be at it. */
const poiTolerance = integer("distance_tolerance", "Within (metres) of a point of interest", "100", 1, 10_000);

/** alert_fuel_type: the unit of a fuel_change threshold (the vendor's L and Gal, plus percent of the tank). */
export const ALERT_FUEL_UNITS = [
  { id: 1, value: "L" },
  { id: 2, value: "Gal" },
  { id: 3, value: "%" },
] as const;

/** alert_distance: the unit of a distance alert's threshold (the vendor's list). */
export const ALERT_DISTANCE_UNITS = [
  { id: 1, value: "km" },
  { id: 2, value: "mi" },
] as const;

/** The kinds of fuel change a fuel_change alert watches (its `state`, as the vendor names it). */
export const ALERT_FUEL_CHANGES = [
  { id: 1, value: "Fill" },
  { id: 2, value: "Theft" },
] as const;

function declareTypes<const T extends readonly AlertTypeDeclaration[]>(types: T): T {
  return types;
}

/** Every alert type and its attributes. A type's attributes are all it stores besides the common fields. */
export const ALERT_TYPES = declareTypes([
  { type: "overspeed", title: "Overspeed", attributes: [integer("overspeed", "Speed limit (km/h)", "90", 1, 1000)] },
  { type: "geofence_in", title: "Geofence in", attributes: [records("geofences", "Geofences", true)] },
  { type: "geofence_out", title: "Geofence out", attributes: [records("geofences", "Geofences", true)] },
  { type: "geofence_inout", title: "Geofence in/out", attributes: [records("geofences", "Geofences", true)] },
  { type: "custom", title: "Custom events", attributes: [records("events_custom", "Custom events", true)] },
  { type: "stop_duration", title: "Stop duration", attributes: [stopMinutes] },
  { type: "offline_duration", title: "Offline duration", attributes: [minutes("offline_duration", "Offline for longer than (minutes)", "60")] },
  { type: "idle_duration", title: "Idle duration", attributes: [idleMinutes] },
  { type: "poi_stop_duration", title: "Stop at a point of interest", attributes: [records("pois", "Points of interest", true), stopMinutes, poiTolerance] },
  { type: "poi_idle_duration", title: "Idle at a point of interest", attributes: [records("pois", "Points of interest", true), idleMinutes, poiTolerance] },
  { type: "ignition_duration", title: "Ignition duration", attributes: [minutes("ignition_duration", "Ignition on for longer than (minutes)", "60")] },
  { type: "driver", title: "Driver change", attributes: [records("drivers", "Drivers (none: any driver)", false)] },
  // The drivers listed are the authorised ones; none listed: any of the owner's drivers is.
  { type: "driver_unauthorized", title: "Unauthorized driver", attributes: [records("drivers", "Drivers (none: any driver)", false)] },
  {
    type: "distance",
    title: "Distance",
    attributes: [integer("distance", "Distance driven", "100", 1, 1_000_000), select("distance_unit", "Distance unit", ALERT_DISTANCE_UNITS)],
  },
  { type: "sos", title: "SOS", attributes: [] },
  { type: "unplugged", title: "Unplugged", attributes: [] },
  { type: "ignition", title: "Ignition on/off", attributes: [] },
  { type: "move_start", title: "Start of movement", attributes: [] },
  {
    type: "move_duration",
    title: "Movement duration",
    attributes: [minutes("move_duration", "Moving for longer than (minutes)", "60"), optionalMinutes("min_parking_duration", "Stops shorter than this do not end the movement (minutes)")],
  },
  {
    type: "fuel_change",
    title: "Fuel fill or theft",
    attributes: [select("state", "Fuel change", ALERT_FUEL_CHANGES), integer("fuel_amount", "Minimum change", "10", 1, 100_000), select("fuel_unit", "Unit of the change", ALERT_FUEL_UNITS)],
  },
]);

type Declared = (typeof ALERT_TYPES)[number];
type DeclaredAttribute = Declared["attributes"][number];
export type AlertTypeName = Declared["type"];
/** Attributes holding one number (integers and select ids), stored in the alert's `attributes`. */
export type AlertScalarName = Extract<DeclaredAttribute, { type: "integer" | "select" }>["name"];

export const ALERT_TYPE_NAMES = ALERT_TYPES.map((t) => t.type) as AlertTypeName[];
const byName = new Map<string, AlertTypeDeclaration>(ALERT_TYPES.map((t) => [t.type, t]));

export function alertType(name: string): AlertTypeDeclaration | undefined {
  return byName.get(name);
}

/**
 * The scalar attributes of all types, one declaration per name: the request body and the
 * Alert record have one field per name, so a name shared by two types must mean one thing.
 */
export const ALERT_SCALAR_ATTRIBUTES: readonly (IntegerAttribute<AlertScalarName> | SelectAttribute<AlertScalarName>)[] = (() => {
  const seen = new Map<string, AlertAttribute>();
  for (const attr of ALERT_TYPES.flatMap((t): readonly AlertAttribute[] => t.attributes)) {
    const prior = seen.get(attr.name);
    if (prior && JSON.stringify(prior) !== JSON.stringify(attr)) throw new Error(`alert attribute ${attr.name} is declared twice, differently`);
    seen.set(attr.name, attr);
  }
  return [...seen.values()].filter((a) => a.type !== "multiselect") as (IntegerAttribute<AlertScalarName> | SelectAttribute<AlertScalarName>)[];
})();

/** Bounds of a scalar attribute, for the request schema. */
export function scalarBounds(attr: IntegerAttribute | SelectAttribute): { minimum: number; maximum: number } {
  if (attr.type === "integer") return { minimum: attr.min, maximum: attr.max };
  const ids = attr.options.map((o) => o.id);
  return { minimum: Math.min(...ids), maximum: Math.max(...ids) };
}

/** What a type's attributes came to: its scalars by name, and its record lists (empty when it has none). */
export interface AlertAttributeValues {
  attributes: Partial<Record<AlertScalarName, number>>;
  geofences: number[];
  drivers: number[];
  events_custom: number[];
  pois: number[];
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);
const label = (name: string) => name.replaceAll("_", " ");

/**
 * Checks the chosen type's attributes in `input` (field name → value, as the request schema
 * typed it) and keeps only those: attributes of other types are dropped, as forms may send
 * every field. Errors by field name; ownership of the ids in lists is the caller's check.
 */
export function checkAlertAttributes(type: AlertTypeDeclaration, input: Readonly<Record<string, unknown>>): { ok: true; values: AlertAttributeValues } | { ok: false; errors: Record<string, string> } {
  const values: AlertAttributeValues = { attributes: {}, geofences: [], drivers: [], events_custom: [], pois: [] };
  const errors: Record<string, string> = {};
  for (const attr of type.attributes) {
    const raw = input[attr.name];
    const name = label(attr.name);
    if (attr.type === "multiselect") {
      const ids = raw === undefined ? [] : raw;
      if (!Array.isArray(ids) || !ids.every(isInt)) errors[attr.name] = `The ${name} must be a list of ids.`;
      else if (attr.required && ids.length === 0) errors[attr.name] = `The ${name} field is required for a ${type.type} alert.`;
      else if (ids.length > attr.maxItems) errors[attr.name] = `The ${name} may not have more than ${attr.maxItems} items.`;
      else values[attr.name] = [...new Set(ids)];
      continue;
    }
    if (raw === undefined) {
      if (attr.required) errors[attr.name] = `The ${name} field is required for a ${type.type} alert.`;
      continue;
    }
    if (attr.type === "integer") {
      if (!isInt(raw) || raw < attr.min || raw > attr.max) errors[attr.name] = `The ${name} must be a whole number from ${attr.min} to ${attr.max}.`;
      else values.attributes[attr.name as AlertScalarName] = raw;
    } else if (!attr.options.some((o) => o.id === raw)) errors[attr.name] = `The selected ${name} is invalid.`;
    else values.attributes[attr.name as AlertScalarName] = raw as number;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values };
}

/** `zone`: where an alert applies. 0 anywhere, 1 only inside its `zones` geofences, 2 only outside them. */
export const ALERT_ZONES = [
  { id: 0, value: "None" },
  { id: 1, value: "Zone in" },
  { id: 2, value: "Zone out" },
] as const;

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The 96 quarter-hour slots of a day, `00:00` … `23:45`: a schedule turns whole slots on. */
export const SCHEDULE_SLOTS: readonly string[] = Array.from({ length: 96 }, (_, i) => `${String(Math.floor(i / 4)).padStart(2, "0")}:${String((i % 4) * 15).padStart(2, "0")}`);
export const SCHEDULE_SLOT_PATTERN = "^([01][0-9]|2[0-3]):(00|15|30|45)$";

/** A schedule as stored: each weekday's active slots, sorted, no repeats; days without slots are left out. */
export function normaliseSchedules(input: Partial<Record<Weekday, readonly string[]>>): Partial<Record<Weekday, string[]>> {
  const out: Partial<Record<Weekday, string[]>> = {};
  for (const day of WEEKDAYS) {
    const slots = [...new Set(input[day] ?? [])].filter((s) => SCHEDULE_SLOTS.includes(s)).sort();
    if (slots.length > 0) out[day] = slots;
  }
  return out;
}

/** Whether a moment (its weekday and minute of the day, in the user's timezone) falls in a scheduled slot. */
export function inSchedule(schedules: Partial<Record<Weekday, readonly string[]>>, day: Weekday, minuteOfDay: number): boolean {
  const slot = SCHEDULE_SLOTS[Math.floor(minuteOfDay / 15)];
  return slot !== undefined && (schedules[day] ?? []).includes(slot);
}

/** Commands an alert may send to its device when it fires (Traccar's command types). */
export const ALERT_COMMAND_TYPES = ["engineStop", "engineResume", "alarmArm", "alarmDisarm", "positionSingle", "rebootDevice", "requestPhoto"] as const;

/** Notification channels, in the order add_alert_data lists them; `input` says what the input holds. */
export const NOTIFICATION_CHANNELS = [
  { name: "sound", title: "Sound notification", input: null },
  { name: "push", title: "Push notification", input: null },
  { name: "email", title: "Email notification", input: "Email addresses, separated by semicolons" },
  { name: "sms", title: "SMS notification", input: "Phone numbers, separated by semicolons" },
  { name: "webhook", title: "Webhook notification", input: "An http(s) URL; each event is POSTed to it" },
  { name: "command", title: "Send a command to the device", input: `The command type: ${ALERT_COMMAND_TYPES.join(", ")}` },
] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number]["name"];

/** At most this many addresses or numbers in one email or SMS input. */
export const MAX_NOTIFICATION_RECIPIENTS = 20;

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const PHONE = /^\+?[0-9][0-9 ()\-.]{2,31}$/;

/** The addresses or numbers of an email or sms notification's input: separated by semicolons (or commas). */
export function notificationRecipients(input: string): string[] {
  return input
    .split(/[;,]/)
    .map((e) => e.trim())
    .filter((e) => e !== "");
}

/**
 * Why an active channel's input cannot be used, or undefined when it can: email and sms
 * take 1–20 addresses or phone numbers separated by semicolons (or commas), webhook an
 * http(s) URL with a host, command one of ALERT_COMMAND_TYPES.
 */
export function notificationInputError(channel: "email" | "sms" | "webhook" | "command", input: string): string | undefined {
  const text = input.trim();
  if (channel === "command") return (ALERT_COMMAND_TYPES as readonly string[]).includes(text) ? undefined : `The command type must be one of ${ALERT_COMMAND_TYPES.join(", ")}.`;
  if (channel === "webhook") {
    // The URL parser drops tabs and line breaks and the request would go elsewhere than typed; as sms_gateway_url, no blanks.
    if (/\s/.test(text)) return "The webhook must be an http(s) URL.";
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {
      url = undefined;
    }
    return url && (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? undefined : "The webhook must be an http(s) URL.";
  }
  const list = notificationRecipients(text);
  const [re, what] = channel === "email" ? [EMAIL, "email addresses"] : [PHONE, "phone numbers"];
  if (list.length === 0) return `Give at least one of the ${what} to notify.`;
  if (list.length > MAX_NOTIFICATION_RECIPIENTS) return `At most ${MAX_NOTIFICATION_RECIPIENTS} ${what}.`;
  return list.every((e) => re.test(e)) ? undefined : `The ${channel} input must be ${what} separated by semicolons.`;
}

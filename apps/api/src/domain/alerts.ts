import {
  ALERT_DISTANCE_UNITS,
  ALERT_FUEL_UNITS,
  ALERT_TYPES,
  ALERT_ZONES,
  InvalidInputError,
  MAX_SILENT_MINUTES,
  NOTIFICATION_CHANNELS,
  NotFoundError,
  ProtocolOptions,
  SCHEDULE_SLOTS,
  WEEKDAYS,
  alertType,
  checkAlertAttributes,
  isTruthy,
  normaliseSchedules,
  notificationInputError,
  readChangeActive,
  type AddAlertBody,
  type AddAlertDataResponse,
  type AlertAttribute,
  type AlertNotificationsInput,
  type AlertRecord,
  type ChangeActiveAlert,
  type EditAlertBody,
  type UserClock,
} from "@fleet/contracts";
import {
  createAlert,
  destroyAlert,
  findUserAlert,
  listAlertChoices,
  listUserAlerts,
  NO_NOTIFICATIONS,
  setAlertDevices,
  setAlertsActive,
  updateAlert,
  type Alert,
  type AlertChoices,
  type AlertNotifications,
  type AlertValues,
  type Db,
  type User,
  type UserAlert,
} from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { worded, type Wording } from "./refusals.js";
import { found } from "./found.js";

/*
 * Alerts: which devices, of which type (with the type's own attributes), where, when and
 * how to notify. The body names the type's attributes as fields of their own; the row
 * keeps them together, and the id lists are checked against the user's records by the
 * database (missing and another user's alike).
 */

type Errors = Record<string, string>;

const WHAT = "Alert";

// The database's list names are the body's but for events_custom; it and pois are labelled in words.
const wording: Wording = { eventsCustom: { message: "The selected custom events are invalid." }, pois: { message: "The selected points of interest are invalid." } };

const EVENT_TYPES = [
  { id: 1, value: "Custom events" },
  { id: 2, value: "System events" },
];
const EVENT_PROTOCOLS = [{ id: "-", value: "- Protocol -" }, ...ProtocolOptions];

// ---- alertPost → stored values ---------------------------------------------------------

/**
 * The channels given replace the stored ones (or the defaults); channels left out keep
 * theirs. Within a channel, `active` left out is off (an unticked box sends nothing) and
 * `input` left out keeps the stored input. An active channel's input must be usable, and
 * an active silence needs its minutes.
 */
function notificationsOf(input: AlertNotificationsInput | undefined, stored: AlertNotifications, errors: Errors, commandField = "notifications.command"): AlertNotifications {
  const out: AlertNotifications = structuredClone(stored);
  if (!input) return out;
  for (const name of ["sound", "push"] as const) {
    if (input[name]) out[name] = { active: isTruthy(input[name].active) ?? false };
  }
  for (const name of ["email", "sms", "webhook"] as const) {
    const given = input[name];
    if (!given) continue;
    const channel = { active: isTruthy(given.active) ?? false, input: (given.input ?? stored[name].input).trim() };
    const problem = channel.active ? notificationInputError(name, channel.input) : undefined;
    if (problem) errors[`notifications.${name}.input`] = problem;
    out[name] = channel;
  }
  if (input.command) {
    const command = { active: isTruthy(input.command.active) ?? false, type: (input.command.type ?? stored.command?.type ?? "").trim(), key: null };
    const problem = command.active ? notificationInputError("command", command.type) : undefined;
    if (problem) errors[`${commandField}.type`] = problem;
    out.command = command;
  }
  if (input.silent) {
    const silent = { active: isTruthy(input.silent.active) ?? false, input: input.silent.input ?? stored.silent?.input ?? 0 };
    if (silent.active && silent.input < 1) errors["notifications.silent.input"] = `Give the minutes to stay silent, 1 to ${MAX_SILENT_MINUTES}.`;
    out.silent = silent;
  }
  return out;
}

/** The chosen type's attributes from the body, falling back to the stored ones when an edit keeps the type. */
function attributeInput(b: AddAlertBody, stored: Alert | undefined): Record<string, unknown> {
  const kept = stored && stored.type === b.type ? { ...stored.attributes, geofences: stored.geofences, drivers: stored.drivers, events_custom: stored.eventsCustom, pois: stored.pois } : {};
  const given = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
  return { ...kept, ...given };
}

/**
 * An alertPost as stored values. Without `stored` (add) fields left out take their
 * defaults; with it (edit) they keep the stored values.
 * @throws InvalidInputError with every bad field.
 */
function alertValues(b: AddAlertBody, stored?: Alert): AlertValues {
  const errors: Errors = {};
  const type = alertType(b.type)!; // the schema admits declared types only
  const attrs = checkAlertAttributes(type, attributeInput(b, stored));
  if (!attrs.ok) Object.assign(errors, attrs.errors);
  const zone = b.zone ?? stored?.zone ?? 0;
  const zones = [...new Set(b.zones ?? stored?.zones ?? [])];
  if (zone !== 0 && zones.length === 0) errors.zones = "The zones field is required when zone is 1 or 2.";
  const schedule = isTruthy(b.schedule) ?? stored?.schedule ?? false;
  const schedules = b.schedules ? normaliseSchedules(b.schedules) : (stored?.schedules ?? {});
  if (schedule && Object.keys(schedules).length === 0) errors.schedules = "Choose at least one time slot when the schedule is on.";
  // The vendor's add_alert carries the command at the top level; notifications' own wins.
  const topCommand = b.command !== undefined && b.notifications?.command === undefined;
  const channels = topCommand ? { ...b.notifications, command: b.command } : b.notifications;
  const notifications = notificationsOf(channels, stored?.notifications ?? NO_NOTIFICATIONS, errors, topCommand ? "command" : "notifications.command");
  if (!attrs.ok || Object.keys(errors).length > 0) throw new InvalidInputError(errors);
  const { attributes, geofences, drivers, events_custom, pois } = attrs.values;
  return {
    name: b.name,
    type: b.type,
    active: isTruthy(b.active) ?? stored?.active ?? true,
    attributes,
    zone,
    zones,
    geofences,
    drivers,
    eventsCustom: events_custom,
    pois,
    schedule,
    schedules,
    notifications,
    devices: [...new Set(b.devices)],
  };
}

// ---- stored alert → responses -----------------------------------------------------------

/** An alert's silence as records show it: off with 0 minutes when it was never set. */
const silenceOf = (n: AlertNotifications) => n.silent ?? { active: false, input: 0 };

const dayTitle = (day: string) => day[0]!.toUpperCase() + day.slice(1);

/** The seven weekdays with their 96 slots each, active per `slots` (every slot when "all"). */
function scheduleDays(slots: Partial<Record<string, readonly string[]>> | "all") {
  return WEEKDAYS.map((day) => {
    const on = new Set(slots === "all" ? SCHEDULE_SLOTS : (slots[day] ?? []));
    return { id: day, title: dayTitle(day), items: SCHEDULE_SLOTS.map((slot) => ({ id: slot, title: slot, active: on.has(slot) })) };
  });
}

function alertRecord(a: UserAlert, clock: UserClock): AlertRecord {
  const declared = alertType(a.type)?.attributes ?? [];
  // Only the alert's own type's scalars, whatever an older row may hold.
  const scalars = Object.fromEntries(declared.filter((d) => d.type !== "multiselect" && typeof a.attributes[d.name] === "number").map((d) => [d.name, a.attributes[d.name]]));
  return {
    id: a.id,
    user_id: a.userId,
    active: a.active ? 1 : 0,
    name: a.name,
    type: a.type,
    created_at: clock.format(a.createdAt.getTime()),
    updated_at: clock.format(a.updatedAt.getTime()),
    devices: a.devices,
    drivers: a.drivers,
    geofences: a.geofences,
    events_custom: a.eventsCustom,
    pois: a.pois,
    zone: a.zone,
    zones: a.zoneGeofences,
    schedule: a.schedule,
    schedules: scheduleDays(a.schedules),
    notifications: { ...a.notifications, silent: silenceOf(a.notifications) },
    ...scalars,
  };
}

function descriptor(attr: AlertAttribute, choices: AlertChoices) {
  if (attr.type !== "multiselect") return { name: attr.name, type: attr.type, title: attr.title, default: attr.default, options: attr.type === "select" ? attr.options.map((o) => ({ ...o })) : null };
  const records = { geofences: choices.geofences, drivers: choices.drivers, events_custom: choices.customEvents.map((e) => ({ id: e.id, name: e.message })), pois: choices.pois }[attr.name];
  return { name: attr.name, type: attr.type, title: attr.title, default: [...attr.default], options: records.map((r) => ({ id: r.id, value: r.name })) };
}

/** The notification channels and the silence after them, showing the alert's settings when there is one. */
function notificationList(n: AlertNotifications | undefined) {
  const channels = NOTIFICATION_CHANNELS.map((c) => {
    const input = c.name === "sound" || c.name === "push" ? null : c.name === "command" ? (n?.command?.type ?? "") : (n?.[c.name].input ?? "");
    const active = c.name === "command" ? (n?.command?.active ?? false) : (n?.[c.name].active ?? false);
    return { name: c.name, active, title: c.title, input, description: c.input };
  });
  const silent = n ? silenceOf(n) : undefined;
  return [
    ...channels,
    {
      name: "silent",
      active: silent?.active ?? false,
      title: "Ignore notifications if repeated",
      input: silent && silent.input > 0 ? String(silent.input) : "",
      description: `Minutes (1–${MAX_SILENT_MINUTES}): no notification when the same alert, device, geofence and event type fired within them; the event is still recorded`,
    },
  ];
}

/** add_alert_data's lists; with an alert, its notifications and schedule show as set. */
function alertForm(choices: AlertChoices, alert?: UserAlert): AddAlertDataResponse {
  const options = (rows: { id: number; name: string }[]) => rows.map((r) => ({ id: r.id, value: r.name }));
  return {
    devices: options(choices.devices),
    geofences: options(choices.geofences),
    drivers: options(choices.drivers),
    alert_zones: ALERT_ZONES.map((z) => ({ ...z })),
    alert_fuel_type: ALERT_FUEL_UNITS.map((u) => ({ ...u })),
    alert_distance: ALERT_DISTANCE_UNITS.map((u) => ({ ...u })),
    event_types: EVENT_TYPES,
    event_protocols: EVENT_PROTOCOLS,
    types: ALERT_TYPES.map((t) => ({ type: t.type, title: t.title, attributes: t.attributes.map((a: AlertAttribute) => descriptor(a, choices)) })),
    notifications: notificationList(alert?.notifications),
    // A new alert's form starts with the whole week ticked: turning the schedule on then narrows it.
    schedules: scheduleDays(alert ? alert.schedules : "all"),
    status: 1,
  };
}

// ---- endpoints ------------------------------------------------------------------------------

/** Device protocols by event type: custom events (1) and system events (2). */
export const protocols = () => ({
  0: { id: 0, value: { type: 1, items: ProtocolOptions } },
  1: { id: 1, value: { type: 2, items: [] } },
  status: 1 as const,
});

export async function list(db: Db, user: User) {
  const alerts = await listUserAlerts(db, user.id);
  return { status: 1 as const, items: { alerts: alerts.map((a) => alertRecord(a, clockOf(user))) } };
}

export async function addData(db: Db, user: User): Promise<AddAlertDataResponse> {
  return alertForm(await listAlertChoices(db, user.id));
}

export async function add(db: Db, user: User, body: AddAlertBody) {
  return { status: 1 as const, id: await worded(createAlert(db, user.id, alertValues(body)), wording) };
}

export async function editData(db: Db, user: User, alertId: number) {
  const choices = await listAlertChoices(db, user.id);
  const alert = await findUserAlert(db, user.id, alertId, choices);
  if (!alert) throw new NotFoundError(WHAT);
  return { ...alertForm(choices, alert), item: alertRecord(alert, clockOf(user)) };
}

/** Checked against the stored alert, which the database holds locked meanwhile. */
export const edit = (db: Db, user: User, body: EditAlertBody) => found(worded(updateAlert(db, user.id, body.id, (stored) => alertValues(body, stored)), wording), WHAT);

export const destroy = (db: Db, user: User, alertId: number) => found(destroyAlert(db, user.id, alertId), WHAT);

export async function changeActive(db: Db, user: User, change: ChangeActiveAlert) {
  const { ids, active } = readChangeActive(change);
  return found(setAlertsActive(db, user.id, ids, active), WHAT);
}

export const setDevices = (db: Db, user: User, alertId: number, devices: number[]) => found(worded(setAlertDevices(db, user.id, alertId, devices), wording), WHAT);

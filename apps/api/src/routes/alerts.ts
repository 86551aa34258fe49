import {
  ALERT_DISTANCE_UNITS,
  ALERT_FUEL_UNITS,
  ALERT_TYPES,
  ALERT_ZONES,
  AddAlertBodySchema,
  AddAlertDataResponseSchema,
  AddAlertResponseSchema,
  AlertIdQuerySchema,
  AlertOkResponseSchema,
  ChangeActiveAlertSchema,
  EditAlertBodySchema,
  EditAlertDataResponseSchema,
  FailureResponses,
  GetAlertsResponseSchema,
  GetProtocolsResponseSchema,
  NOTIFICATION_CHANNELS,
  ProtocolOptions,
  SCHEDULE_SLOTS,
  SetAlertDevicesBodySchema,
  SetAlertDevicesQuerySchema,
  WEEKDAYS,
  alertType,
  checkAlertAttributes,
  formatDateTime,
  isActive,
  isTruthy,
  normaliseSchedules,
  notificationInputError,
  type AddAlertBody,
  type AddAlertDataResponse,
  type AlertAttribute,
  type AlertNotificationsInput,
  type AlertRecord,
  type ChangeActiveAlert,
} from "@fleet/contracts";
import {
  AlertRejectedError,
  createAlert,
  destroyAlert,
  findUserAlert,
  listAlertChoices,
  listUserAlerts,
  setAlertDevices,
  setAlertsActive,
  updateAlert,
  type Alert,
  type AlertChoices,
  type AlertNotifications,
  type AlertValues,
  type User,
  type UserAlert,
} from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { currentUser } from "../plugins/app/auth.js";

type Errors = Record<string, string>;

const EVENT_TYPES = [
  { id: 1, value: "Custom events" },
  { id: 2, value: "System events" },
];
const EVENT_PROTOCOLS = [{ id: "-", value: "- Protocol -" }, ...ProtocolOptions];

// ---- alertPost → stored values ---------------------------------------------------------

const NO_NOTIFICATIONS: AlertNotifications = {
  sound: { active: false },
  push: { active: false },
  email: { active: false, input: "" },
  sms: { active: false, input: "" },
  webhook: { active: false, input: "" },
  command: null,
};

/**
 * The channels given replace the stored ones (or the defaults); channels left out keep
 * theirs. Within a channel, `active` left out is off (an unticked box sends nothing) and
 * `input` left out keeps the stored input. An active channel's input must be usable.
 */
function notificationsOf(input: AlertNotificationsInput | undefined, stored: AlertNotifications, errors: Errors): AlertNotifications {
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
    if (problem) errors["notifications.command.type"] = problem;
    out.command = command;
  }
  return out;
}

/** The chosen type's attributes from the body, falling back to the stored ones when an edit keeps the type. */
function attributeInput(b: AddAlertBody, stored: Alert | undefined): Record<string, unknown> {
  const kept = stored && stored.type === b.type ? { ...stored.attributes, geofences: stored.geofences, drivers: stored.drivers, events_custom: stored.eventsCustom } : {};
  const given = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
  return { ...kept, ...given };
}

/**
 * An alertPost as stored values, or the 422 messages by field. Without `stored` (add)
 * fields left out take their defaults; with it (edit) they keep the stored values.
 */
function alertValues(b: AddAlertBody, stored?: Alert): { ok: true; values: AlertValues } | { ok: false; errors: Errors } {
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
  const notifications = notificationsOf(b.notifications, stored?.notifications ?? NO_NOTIFICATIONS, errors);
  if (!attrs.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  const { attributes, geofences, drivers, events_custom } = attrs.values;
  return {
    ok: true,
    values: {
      name: b.name,
      type: b.type,
      active: isTruthy(b.active) ?? stored?.active ?? true,
      attributes,
      zone,
      zones,
      geofences,
      drivers,
      eventsCustom: events_custom,
      schedule,
      schedules,
      notifications,
      devices: [...new Set(b.devices)],
    },
  };
}

// ---- stored alert → responses -----------------------------------------------------------

const dayTitle = (day: string) => day[0]!.toUpperCase() + day.slice(1);

/** The seven weekdays with their 96 slots each, active per `slots` (every slot when "all"). */
function scheduleDays(slots: Partial<Record<string, readonly string[]>> | "all") {
  return WEEKDAYS.map((day) => {
    const on = new Set(slots === "all" ? SCHEDULE_SLOTS : (slots[day] ?? []));
    return { id: day, title: dayTitle(day), items: SCHEDULE_SLOTS.map((slot) => ({ id: slot, title: slot, active: on.has(slot) })) };
  });
}

function alertRecord(a: UserAlert, timezoneId: number): AlertRecord {
  const declared = alertType(a.type)?.attributes ?? [];
  // Only the alert's own type's scalars, whatever an older row may hold.
  const scalars = Object.fromEntries(declared.filter((d) => d.type !== "multiselect" && typeof a.attributes[d.name] === "number").map((d) => [d.name, a.attributes[d.name]]));
  return {
    id: a.id,
    user_id: a.userId,
    active: a.active ? 1 : 0,
    name: a.name,
    type: a.type,
    created_at: formatDateTime(a.createdAt.getTime(), timezoneId),
    updated_at: formatDateTime(a.updatedAt.getTime(), timezoneId),
    devices: a.devices,
    drivers: a.drivers,
    geofences: a.geofences,
    events_custom: a.eventsCustom,
    zone: a.zone,
    zones: a.zoneGeofences,
    schedule: a.schedule,
    schedules: scheduleDays(a.schedules),
    notifications: a.notifications,
    ...scalars,
  };
}

function descriptor(attr: AlertAttribute, choices: AlertChoices) {
  if (attr.type !== "multiselect") return { name: attr.name, type: attr.type, title: attr.title, default: attr.default, options: attr.type === "select" ? attr.options.map((o) => ({ ...o })) : null };
  const records = { geofences: choices.geofences, drivers: choices.drivers, events_custom: choices.customEvents.map((e) => ({ id: e.id, name: e.message })) }[attr.name];
  return { name: attr.name, type: attr.type, title: attr.title, default: [...attr.default], options: records.map((r) => ({ id: r.id, value: r.name })) };
}

/** The notification channels, showing the alert's settings when there is one. */
function notificationList(n: AlertNotifications | undefined) {
  return NOTIFICATION_CHANNELS.map((c) => {
    const input = c.name === "sound" || c.name === "push" ? null : c.name === "command" ? (n?.command?.type ?? "") : (n?.[c.name].input ?? "");
    const active = c.name === "command" ? (n?.command?.active ?? false) : (n?.[c.name].active ?? false);
    return { name: c.name, active, title: c.title, input, description: c.input };
  });
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

function rejected(reply: FastifyReply, errors: Errors) {
  return reply.code(422).send({ status: 0 as const, errors });
}

// ---- routes ---------------------------------------------------------------------------------

export const alertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const tags = ["Alert"];
  const ok = { status: 1 as const };

  app.get("/get_protocols", { schema: { tags, summary: "Device protocols by event type: custom events (1) and system events (2)", response: { 200: GetProtocolsResponseSchema, ...FailureResponses } } }, async () => ({
    0: { id: 0, value: { type: 1, items: ProtocolOptions } },
    1: { id: 1, value: { type: 2, items: [] } },
    status: 1 as const,
  }));

  app.get("/get_alerts", { schema: { tags, summary: "The user's alerts, by id", response: { 200: GetAlertsResponseSchema, ...FailureResponses } } }, async (req) => {
    const user = currentUser(req);
    const alerts = await listUserAlerts(db, user.id);
    return { status: 1 as const, items: { alerts: alerts.map((a) => alertRecord(a, user.timezoneId)) } };
  });

  app.get("/add_alert_data", { schema: { tags, summary: "Everything an alert can name and choose, to create one", response: { 200: AddAlertDataResponseSchema, ...FailureResponses } } }, async (req) =>
    alertForm(await listAlertChoices(db, currentUser(req).id)),
  );

  app.post(
    "/add_alert",
    { schema: { tags, summary: "Create an alert; the chosen type's attributes come as fields of their own", body: AddAlertBodySchema, response: { 200: AddAlertResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const checked = alertValues(req.body);
      if (!checked.ok) return rejected(reply, checked.errors);
      try {
        return { status: 1 as const, id: await createAlert(db, currentUser(req).id, checked.values) };
      } catch (err) {
        if (err instanceof AlertRejectedError) return rejected(reply, err.errors);
        throw err;
      }
    },
  );

  app.get(
    "/edit_alert_data",
    { schema: { tags, summary: "An alert as saved, with add_alert_data's lists", querystring: AlertIdQuerySchema, response: { 200: EditAlertDataResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const choices = await listAlertChoices(db, user.id);
      const alert = await findUserAlert(db, user.id, req.query.alert_id, choices);
      if (!alert) return notFound(reply, "Alert");
      return { ...alertForm(choices, alert), item: alertRecord(alert, user.timezoneId) };
    },
  );

  app.post(
    "/edit_alert",
    {
      schema: {
        tags,
        summary: "Update an alert; optional fields left out keep their values (the type's attributes too while the type stays)",
        body: EditAlertBodySchema,
        response: { 200: AlertOkResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      try {
        const updated = await updateAlert(db, currentUser(req).id, req.body.id, (stored) => {
          const checked = alertValues(req.body, stored);
          if (!checked.ok) throw new AlertRejectedError(checked.errors);
          return checked.values;
        });
        return updated ? ok : notFound(reply, "Alert");
      } catch (err) {
        if (err instanceof AlertRejectedError) return rejected(reply, err.errors);
        throw err;
      }
    },
  );

  app.get("/destroy_alert", { schema: { tags, summary: "Delete an alert", querystring: AlertIdQuerySchema, response: { 200: AlertOkResponseSchema, ...FailureResponses } } }, async (req, reply) =>
    (await destroyAlert(db, currentUser(req).id, req.query.alert_id)) ? ok : notFound(reply, "Alert"),
  );

  const changeActive = async (user: User, input: ChangeActiveAlert, reply: FastifyReply) => {
    const ids = Array.isArray(input.id) ? input.id : [input.id];
    return (await setAlertsActive(db, user.id, ids, isActive(input.active))) ? ok : notFound(reply, "Alert");
  };
  const changeActiveSchema = { tags, summary: "Turn one or more alerts on or off, all or nothing", response: { 200: AlertOkResponseSchema, ...FailureResponses } };
  // GET as the vendor documents it; fastify reads no GET body, so body clients use POST.
  app.get("/change_active_alert", { schema: { ...changeActiveSchema, querystring: ChangeActiveAlertSchema } }, async (req, reply) => changeActive(currentUser(req), req.query, reply));
  app.post("/change_active_alert", { schema: { ...changeActiveSchema, body: ChangeActiveAlertSchema } }, async (req, reply) => changeActive(currentUser(req), req.body, reply));

  const setDevices = async (user: User, alertId: number, devices: number[], reply: FastifyReply) => {
    try {
      return (await setAlertDevices(db, user.id, alertId, devices)) ? ok : notFound(reply, "Alert");
    } catch (err) {
      if (err instanceof AlertRejectedError) return rejected(reply, err.errors);
      throw err;
    }
  };
  const setDevicesSchema = { tags, summary: "Replace the devices an alert watches", response: { 200: AlertOkResponseSchema, ...FailureResponses } };
  app.get("/set_alert_devices", { schema: { ...setDevicesSchema, querystring: SetAlertDevicesQuerySchema } }, async (req, reply) =>
    setDevices(currentUser(req), req.query.alert_id, req.query.devices, reply),
  );
  app.post("/set_alert_devices", { schema: { ...setDevicesSchema, querystring: AlertIdQuerySchema, body: SetAlertDevicesBodySchema } }, async (req, reply) =>
    setDevices(currentUser(req), req.query.alert_id, req.body.devices, reply),
  );
};

import { ALERT_COMMAND_TYPES, ALERT_TYPES, InvalidInputError, type AlertAttribute, type AlertRecordList, type AlertsCommands, type AlertsSummaryQuery, type AlertsSummaryResponse } from "@fleet/contracts";
import { countUserEventsByAlert, findUserAlert, listAlertChoices, listUserAlerts, listUserDevicesByIds, type Db, type User } from "@fleet/db";
import type { LiveStore } from "@fleet/live";
import { clockOf } from "../lib/clock.js";
import { commandLabelsFor, commandTitles } from "../lib/command-catalogue.js";
import { readPeriod } from "../lib/user-dates.js";
import { found } from "./found.js";

/*
 * What an alert form and an alerts overview look up besides the alerts themselves: the
 * types' input fields (get_alerts_attributes), the commands an alert may send to its devices
 * (get_alerts_commands) and how many alerts there are and how often each fired
 * (get_alerts_summary).
 */

type Option = { id: string; title: string };

/** get_alerts_attributes: each alert type with its input fields; multiselects list the user's records. */
export async function attributes(db: Db, user: User) {
  const choices = await listAlertChoices(db, user.id);
  const records: Record<AlertRecordList, Option[]> = {
    geofences: choices.geofences.map((g) => ({ id: String(g.id), title: g.name })),
    drivers: choices.drivers.map((d) => ({ id: String(d.id), title: d.name })),
    events_custom: choices.customEvents.map((e) => ({ id: String(e.id), title: e.message })),
    pois: choices.pois.map((p) => ({ id: String(p.id), title: p.name })),
  };
  const field = (a: AlertAttribute) => {
    const base = { name: a.name, type: a.type, title: a.title };
    if (a.type === "integer") return base;
    return { ...base, options: a.type === "select" ? a.options.map((o) => ({ id: String(o.id), title: o.value })) : records[a.name] };
  };
  return { status: 1 as const, types: ALERT_TYPES.map((t) => ({ type: t.type, title: t.title, attributes: t.attributes.map(field) })) };
}

/** `ids`, all of them the user's devices; else a 422 on `field`, missing and another user's alike. */
async function ownDevices(db: Db, user: User, field: "devices" | "selected_devices", ids: readonly number[]): Promise<number[]> {
  const mine = new Set((await listUserDevicesByIds(db, user.id, ids)).map((d) => d.id));
  if (!ids.every((id) => mine.has(id))) throw new InvalidInputError({ [field]: "The selected devices are invalid." });
  return [...mine];
}

/**
 * get_alerts_commands: the commands an alert may send (notifications.command) that every one
 * of the devices takes, by the protocol of its latest position. The devices are those named
 * in `devices` and `selected_devices` (the form's current choice), else the alert's; with
 * none, nothing narrows the list. An alert_id is checked whenever given.
 */
export async function commands(db: Db, live: LiveStore, user: User, input: AlertsCommands) {
  const alert = input.alert_id === undefined ? undefined : await found(findUserAlert(db, user.id, input.alert_id), "Alert");
  const named = [...(await ownDevices(db, user, "devices", input.devices ?? [])), ...(await ownDevices(db, user, "selected_devices", input.selected_devices ?? []))];
  const deviceIds = [...new Set(named.length > 0 ? named : (alert?.devices ?? []))];
  const states = await live.getStates(deviceIds);
  const offered = deviceIds.map((id) => commandLabelsFor(states.get(id)?.protocol));
  const items = ALERT_COMMAND_TYPES.filter((type) => offered.every((labels) => Object.hasOwn(labels, type))).map((type) => ({ type, title: commandTitles[type] ?? type }));
  return { status: 1 as const, items };
}

/** get_alerts_summary: the user's alerts counted, and the events each recorded in the period (all time without one). */
export async function summary(db: Db, user: User, query: AlertsSummaryQuery): Promise<AlertsSummaryResponse> {
  const period = readPeriod(clockOf(user), query);
  const [alerts, counts] = await Promise.all([listUserAlerts(db, user.id), countUserEventsByAlert(db, user.id, period)]);
  const rows = alerts.map((a) => ({ id: a.id, name: a.name, type: a.type, active: a.active ? (1 as const) : (0 as const), devices: a.devices.length, events: counts.get(a.id) ?? 0 }));
  return {
    status: 1,
    items: { total: rows.length, active: rows.filter((r) => r.active === 1).length, events: rows.reduce((n, r) => n + r.events, 0), alerts: rows },
  };
}

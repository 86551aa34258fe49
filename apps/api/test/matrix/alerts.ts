/* Custom events and alerts in the matrices. */
import { AddAlertResponseSchema, AddCustomEventResponseSchema } from "@fleet/contracts";
import { ok, type ApiHarness, type CallOptions, type TestUser } from "../fixture.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const eventBody = (message: string) => ({ protocol: "osmand", message, tag: ["speed"], type: [2], tag_value: ["100"], show_always: 1 });

/** A valid alertPost naming the given records (a custom alert in a zone, every channel set). */
const alertBody = (r: Pick<Records, "device" | "geofence" | "customEvent">, name = "Alert") => ({
  name,
  type: "custom",
  devices: [r.device],
  events_custom: [r.customEvent],
  zone: 1,
  zones: [r.geofence],
  schedule: 1,
  schedules: { monday: ["08:00", "08:15"] },
  notifications: { sound: { active: 1 }, email: { active: 1, input: "ops@example.com" }, webhook: { active: 0, input: "" }, command: { active: 1, type: "engineStop" }, silent: { active: 1, input: 10 } },
});

const get = (h: ApiHarness, user: TestUser, path: string, query: CallOptions["query"]) => h.get(path, { user, query });
const post = (h: ApiHarness, user: TestUser, path: string, body: unknown, query?: CallOptions["query"]) => h.post(path, { user, body, ...(query ? { query } : {}) });

/** alertPost bodies with one kind of record taken from `t` and everything else valid from `o`. */
const foreignIn = {
  devices: (t: Records, o: Records) => ({ ...alertBody(o), devices: [o.device, t.device] }),
  zones: (t: Records, o: Records) => ({ ...alertBody(o), zones: [t.geofence] }),
  events_custom: (t: Records, o: Records) => ({ ...alertBody(o), events_custom: [t.customEvent] }),
  geofences: (t: Records, o: Records) => ({ ...alertBody(o), type: "geofence_in", geofences: [o.geofence, t.geofence] }),
  drivers: (t: Records, o: Records) => ({ ...alertBody(o), type: "driver", drivers: [t.driver] }),
  pois: (t: Records, o: Records) => ({ ...alertBody(o), type: "poi_stop_duration", pois: [o.mapIcon, t.mapIcon], stop_duration: 10, distance_tolerance: 100 }),
};

/** A valid time_period body: a bounded period, so a write that should not happen would show. */
const TIME_PERIOD = { date_from: "2030-01-01 08:00:00", date_to: "2030-12-31" };

const idCases: IdCase[] = [
  { route: "get /edit_custom_event_data", call: (h, u, t) => get(h, u, "/edit_custom_event_data", { custom_event_id: t.customEvent }) },
  { route: "post /edit_custom_event", call: (h, u, t) => post(h, u, "/edit_custom_event", { id: t.customEvent, ...eventBody("Taken over") }) },
  { route: "get /destroy_custom_event", call: (h, u, t) => get(h, u, "/destroy_custom_event", { custom_event_id: t.customEvent }) },
  { route: "get /get_custom_events_by_device", call: (h, u, t) => get(h, u, "/get_custom_events_by_device", { devices: t.device }) },
  { route: "post /get_custom_events_by_device", call: (h, u, t, o) => post(h, u, "/get_custom_events_by_device", { devices: [o.device, t.device] }) },
  { route: "get /edit_alert_data", call: (h, u, t) => get(h, u, "/edit_alert_data", { alert_id: t.alert }) },
  { route: "post /edit_alert", call: (h, u, t, o) => post(h, u, "/edit_alert", { id: t.alert, ...alertBody(o, "Taken over") }) },
  ...Object.entries(foreignIn).flatMap(([field, body]): IdCase[] => [
    { route: `post /add_alert (${field})`, call: (h, u, t, o) => post(h, u, "/add_alert", body(t, o)) },
    { route: `post /edit_alert (${field})`, call: (h, u, t, o) => post(h, u, "/edit_alert", { id: o.alert, ...body(t, o) }) },
  ]),
  { route: "get /destroy_alert", call: (h, u, t) => get(h, u, "/destroy_alert", { alert_id: t.alert }) },
  { route: "get /change_active_alert", call: (h, u, t) => get(h, u, "/change_active_alert", { id: t.alert, active: "false" }) },
  { route: "post /change_active_alert", call: (h, u, t, o) => post(h, u, "/change_active_alert", { id: [o.alert, t.alert], active: false }) },
  { route: "get /set_alert_devices", call: (h, u, t, o) => get(h, u, "/set_alert_devices", { alert_id: t.alert, devices: o.device }) },
  { route: "get /set_alert_devices (devices)", call: (h, u, t, o) => get(h, u, "/set_alert_devices", { alert_id: o.alert, devices: t.device }) },
  { route: "post /set_alert_devices", call: (h, u, t, o) => post(h, u, "/set_alert_devices", { devices: [o.device] }, { alert_id: t.alert }) },
  { route: "post /set_alert_devices (devices)", call: (h, u, t, o) => post(h, u, "/set_alert_devices", { devices: [o.device, t.device] }, { alert_id: o.alert }) },
  { route: "get /get_alerts_commands", call: (h, u, t) => get(h, u, "/get_alerts_commands", { alert_id: t.alert }) },
  { route: "get /get_alerts_commands (devices)", call: (h, u, t) => get(h, u, "/get_alerts_commands", { devices: t.device }) },
  { route: "post /get_alerts_commands", call: (h, u, t, o) => post(h, u, "/get_alerts_commands", { alert_id: t.alert, devices: [o.device] }) },
  { route: "post /get_alerts_commands (devices)", call: (h, u, t, o) => post(h, u, "/get_alerts_commands", { devices: [o.device, t.device] }) },
  { route: "post /get_alerts_commands (selected_devices)", call: (h, u, t, o) => post(h, u, "/get_alerts_commands", { alert_id: o.alert, selected_devices: [t.device] }) },
  { route: "get /devices/{device_id}/alerts", call: (h, u, t) => h.get(`/devices/${t.device}/alerts`, { user: u }) },
  { route: "post /devices/{device_id}/alerts/{alert_id}/time_period", call: (h, u, t, o) => post(h, u, `/devices/${t.device}/alerts/${o.alert}/time_period`, TIME_PERIOD) },
  { route: "post /devices/{device_id}/alerts/{alert_id}/time_period (alert)", call: (h, u, t, o) => post(h, u, `/devices/${o.device}/alerts/${t.alert}/time_period`, TIME_PERIOD) },
];

const listCases: ListCase[] = [
  { route: "get /get_custom_events", call: (h, u) => h.get("/get_custom_events", { user: u }) },
  { route: "get /get_alerts", call: (h, u) => h.get("/get_alerts", { user: u }) },
  { route: "get /add_alert_data", call: (h, u) => h.get("/add_alert_data", { user: u }) },
  { route: "get /get_custom_events_by_device (all)", call: (h, u) => h.get("/get_custom_events_by_device", { user: u }) },
  { route: "get /get_alerts_attributes", call: (h, u) => h.get("/get_alerts_attributes", { user: u }) },
  { route: "get /get_alerts_summary", call: (h, u) => h.get("/get_alerts_summary", { user: u }) },
  { route: "get /get_alerts_commands (none)", call: (h, u) => h.get("/get_alerts_commands", { user: u }) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /get_protocols": () => ({}),
  "get /get_custom_events": () => ({ query: { page: 1 } }),
  "get /add_custom_event_data": () => ({}),
  "post /add_custom_event": () => ({ body: eventBody("Valid") }),
  "get /edit_custom_event_data": (o) => ({ query: { custom_event_id: o.customEvent } }),
  "post /edit_custom_event": (o) => ({ body: { id: o.customEvent, ...eventBody("Valid") } }),
  "get /destroy_custom_event": (o) => ({ query: { custom_event_id: o.customEvent } }),
  "get /get_custom_events_by_device": (o) => ({ query: { devices: o.device } }),
  "post /get_custom_events_by_device": (o) => ({ body: { devices: [o.device] } }),
  "get /get_alerts": () => ({}),
  "get /add_alert_data": () => ({}),
  "post /add_alert": (o) => ({ body: alertBody(o) }),
  "get /edit_alert_data": (o) => ({ query: { alert_id: o.alert } }),
  "post /edit_alert": (o) => ({ body: { id: o.alert, ...alertBody(o) } }),
  "get /destroy_alert": (o) => ({ query: { alert_id: o.alert } }),
  "get /change_active_alert": (o) => ({ query: { id: o.alert, active: "true" } }),
  "post /change_active_alert": (o) => ({ body: { id: [o.alert], active: true } }),
  "get /set_alert_devices": (o) => ({ query: { alert_id: o.alert, devices: o.device } }),
  "post /set_alert_devices": (o) => ({ query: { alert_id: o.alert }, body: { devices: [o.device] } }),
  "get /get_alerts_attributes": () => ({}),
  "get /get_alerts_commands": (o) => ({ query: { alert_id: o.alert } }),
  "post /get_alerts_commands": (o) => ({ body: { alert_id: o.alert, devices: [o.device], selected_devices: [o.device] } }),
  "get /get_alerts_summary": () => ({ query: { date_from: "2020-01-01", date_to: "2030-12-31 23:59:59" } }),
  "get /devices/{device_id}/alerts": (o) => ({ params: { device_id: o.device }, query: { page: 1 } }),
  "post /devices/{device_id}/alerts/{alert_id}/time_period": (o) => ({ params: { device_id: o.device, alert_id: o.alert }, body: TIME_PERIOD }),
};

/** A custom event, and an alert that names it, the base device and the geo group's geofence. */
async function seed(h: ApiHarness, user: TestUser, base: Records, tag: string): Promise<Partial<Records>> {
  const customEvent = ok(await h.post("/add_custom_event", { user, body: eventBody(`Custom event of ${tag}`) }), AddCustomEventResponseSchema).id;
  const alert = ok(await h.post("/add_alert", { user, body: alertBody({ device: base.device, geofence: base.geofence, customEvent }, `Alert of ${tag}`) }), AddAlertResponseSchema).id;
  return { customEvent, alert };
}

export const alertsGroup: MatrixGroup = {
  seed,
  privateText: (tag) => [`Custom event of ${tag}`, `Alert of ${tag}`],
  idCases,
  listCases,
  accountOnly: ["get /get_protocols", "get /add_custom_event_data", "post /add_custom_event"],
  valid,
};

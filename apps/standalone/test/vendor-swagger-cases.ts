/*
 * The vendor Swagger's operations as vendor-swagger.test.ts drives them: one valid request per
 * operation (run in table order; the destroys last, on throwaway records or on what no later
 * case reads).
 */
import { expect } from "vitest";
import { PNG_BASE64, taskBody } from "../../api/test/task-body.js";

export { PNG_BASE64, taskBody };

/** Ids and values the seed made through the API, for the requests to name. */
export interface Seeded {
  /** Has sim_number, plate_number, vin and device_model, a group, a driver and the track. */
  device: number;
  device2: number;
  /** The track's day (UTC, the account's timezone), YYYY-MM-DD. */
  day: string;
  /** One stored position of `device`. */
  position: number;
  polygon: number;
  circle: number;
  overspeedAlert: number;
  customEvent: number;
  driver: number;
  sensor: number;
  service: number;
  route: number;
  mapIcon: number;
  gprsTemplate: number;
  smsTemplate: number;
  task: number;
  /** A status row of `task` that carries a signature. */
  taskStatus: number;
  /** The file name of a photo of `device` (the PNG of PNG_BASE64). */
  media: string;
  report: number;
  deviceGroup: number;
  geofenceGroup: number;
  routeGroup: number;
  poiGroup: number;
  sharing: number;
  callAction: number;
  /** An administrator's company. */
  company: number;
  /** A client the administration cases change. */
  client: number;
  /** The account's SMS gateway: a test server that answers 200. */
  smsGateway: string;
  /** Records made only to be destroyed by the delete-type cases. */
  throwaway: { device: number; sensor: number; service: number; alert: number; customEvent: number; geofence: number; route: number; report: number; mapIcon: number; driver: number; gprsTemplate: number; smsTemplate: number; task: number; sharing: number; callAction: number; company: number; clients: [number, number]; media: string };
}

export interface Req {
  /** Values for the `{name}`s of the operation's path. */
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  /** Sent as JSON, the Swagger's `in: body`. */
  body?: unknown;
  /** Sent urlencoded, the Swagger's `in: formData`. */
  form?: Record<string, string>;
  /** No user_api_hash: the operations a visitor calls. */
  anonymous?: boolean;
  /** Call as this account (logged in first) rather than as the administrator. */
  as?: { email: string; password: string };
}

export interface Reply {
  status: number;
  contentType: string;
  /** Parsed when JSON, else the bytes. */
  body: unknown;
}

export interface Case {
  /** "method /path" exactly as the Swagger names the operation. */
  op: string;
  /** Tells two cases of one operation apart. */
  label?: string;
  request(s: Seeded): Req;
  /** What else the answer must show; required where the Swagger gives no 200 schema. */
  check?(reply: Reply, s: Seeded): void | Promise<void>;
}

/** An error line of one operation's answer that is the Swagger's fault, not the answer's. */
export const ADMIN = { email: "admin@vendor-swagger.test", password: "vendor-swagger-secret" };
/** The account POST /admin/client makes, which then changes its own password. */
export const CLIENT = { email: "client@vendor-swagger.test", password: "client-secret-1" };

/* Bodies the seed and the cases share. */
export const deviceBody = (name: string, imei: string, extra: Record<string, unknown> = {}) => ({ name, imei, icon_id: 1, fuel_measurement_id: 1, tail_length: 5, min_moving_speed: 6, min_fuel_fillings: 10, min_fuel_thefts: 10, ...extra });
/** A closed ring (first point = last) around Vilnius old town. */
const SQUARE = [
  { lat: 54.68, lng: 25.27 },
  { lat: 54.68, lng: 25.29 },
  { lat: 54.7, lng: 25.29 },
  { lat: 54.7, lng: 25.27 },
  { lat: 54.68, lng: 25.27 },
];
const CIRCLE = { center: { lat: 54.72, lng: 25.28 }, radius: 500 };
export const polygonBody = (name: string) => ({ name, polygon_color: "#00AB33", type: "polygon", polygon: SQUARE });
export const circleBody = (name: string) => ({ name, polygon_color: "#FF0000", type: "circle", ...CIRCLE });
export const routeBody = (name: string) => ({ name, color: "#AA00F5", polyline: [SQUARE[0], SQUARE[2]] });
export const mapIconBody = (name: string) => ({ name, description: "Gate 2", map_icon_id: 1, coordinates: { lat: 54.69, lng: 25.28 } });
export const sensorBody = (device: number, name: string) => ({ device_id: device, sensor_type: "ignition", sensor_name: name, unit_of_measurement: "", tag_name: "ignition", on_value: "1", off_value: "0" });
export const serviceBody = (device: number, name: string) => ({ device_id: device, name, expiration_by: "odometer", interval: 10000, last_service: 0, trigger_event_left: 500, renew_after_expiration: 0 });
/** Fires when the battery reading drops under 20 (condition type 3: less than). */
export const customEventBody = (message: string) => ({ protocol: "osmand", message, tag: ["batt"], type: [3], tag_value: ["20"], show_always: 0 });
export const reportBody = (s: Pick<Seeded, "device" | "polygon">, title: string) => ({ title, type: 1, format: "html", devices: [s.device], geofences: [s.polygon], speed_limit: 90, stops: 5, show_addresses: 1, zones_instead: 0, daily: 0, weekly: 0, email: "", parameters: {} });
/** The account settings, with the SMS gateway the test runs and the device groups kept. */
export const setupBody = (s: Pick<Seeded, "smsGateway" | "deviceGroup">) => ({ unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, sms_gateway: 1, request_method: "get", sms_gateway_url: s.smsGateway, groups: [{ id: s.deviceGroup, title: "Vans" }] });

const DAY = (s: Seeded) => ({ from_date: s.day, from_time: "00:00", to_date: s.day, to_time: "23:59" });
const OK = (r: Reply) => expect(r.body).toEqual({ status: 1 });

/** The group kinds: their path and the field naming their members. */
const GROUP_KINDS = [
  { path: "devices_groups", members: "devices", group: (s: Seeded) => s.deviceGroup, member: (s: Seeded) => s.device2 },
  { path: "geofences_groups", members: "geofences", group: (s: Seeded) => s.geofenceGroup, member: (s: Seeded) => s.circle },
  { path: "routes_groups", members: "routes", group: (s: Seeded) => s.routeGroup, member: (s: Seeded) => s.route },
  { path: "pois_groups", members: "pois", group: (s: Seeded) => s.poiGroup, member: (s: Seeded) => s.mapIcon },
];

/** In run order: reads and writes first, then the destroys, on throwaway records or on the track's positions and events. */
export const CASES: Case[] = [
  { op: "post /login", request: () => ({ anonymous: true, form: ADMIN }) },
  { op: "get /get_user_data", request: () => ({}) },
  { op: "get /edit_setup_data", request: () => ({}) },
  { op: "post /edit_setup", request: (s) => ({ body: setupBody(s) }) },

  { op: "get /get_devices", request: () => ({}) },
  { op: "get /get_devices", label: "filtered and paged", request: () => ({ query: { sim_number: "+37060000001", plate_number: "VS-001", vin: "WVWZZZ1JZXW000001", limit: 10, page: 1 } }), check: (r, s) => expect((r.body as { items: { id: number }[] }[]).flatMap((g) => g.items.map((i) => i.id))).toEqual([s.device]) },
  { op: "get /get_devices_latest", request: () => ({}) },
  { op: "get /get_devices_latest", label: "filtered, since a time", request: () => ({ query: { time: 0, "filter[device_model]": "FMB920" } }) },
  { op: "get /add_device_data", request: () => ({}) },
  { op: "post /add_device", request: () => ({ body: deviceBody("Extra van", "860000000000903", { sim_number: "+37060000003", device_model: "FMB920" }) }) },
  { op: "get /edit_device_data", request: (s) => ({ query: { device_id: s.device } }) },
  { op: "post /edit_device", request: (s) => ({ query: { device_id: s.device }, body: { name: "Van 1", plate_number: "VS-001" } }) },
  { op: "get /change_active_device", request: (s) => ({ query: { id: s.device, active: "true" } }) },

  { op: "get /add_sensor_data", request: (s) => ({ query: { device_id: s.device } }) },
  { op: "post /add_sensor", request: (s) => ({ query: { device_id: s.device }, body: { device_id: s.device, sensor_type: "battery", sensor_name: "Battery", unit_of_measurement: "V", tag_name: "batt" } }) },
  { op: "get /edit_sensor_data", request: (s) => ({ query: { sensor_id: s.sensor } }) },
  { op: "post /edit_sensor", request: (s) => ({ query: { sensor_id: s.sensor }, body: sensorBody(s.device, "Ignition") }) },
  { op: "get /get_sensors", request: (s) => ({ query: { device_id: s.device } }) },
  { op: "get /add_service_data", request: (s) => ({ query: { device_id: s.device } }) },
  { op: "post /add_service", request: (s) => ({ query: { device_id: s.device }, body: serviceBody(s.device, "Tyres") }) },
  { op: "get /edit_service_data", request: (s) => ({ query: { service_id: s.service } }) },
  { op: "post /edit_service", request: (s) => ({ body: { id: s.service, ...serviceBody(s.device, "Oil") } }) },
  { op: "get /get_services", request: (s) => ({ query: { device_id: s.device } }) },

  { op: "get /get_history", request: (s) => ({ query: { device_id: s.device, ...DAY(s), snap_to_road: "false" } }) },
  { op: "get /get_history_messages", request: (s) => ({ query: { device_id: s.device, ...DAY(s), page: 1, limit: 50 } }) },
  { op: "get /get_events", request: (s) => ({ query: { device_id: s.device, date_from: s.day, date_to: `${s.day} 23:59:59` } }) },
  { op: "get /get_events", label: "one type", request: (s) => ({ query: { device_id: s.device, type: "geofence_in" } }) },
  { op: "get /get_protocols", request: () => ({}) },
  { op: "get /get_events_by_protocol", request: () => ({ query: { protocol: "osmand", type: 1 } }) },

  { op: "get /get_alerts", request: () => ({}) },
  { op: "get /add_alert_data", request: () => ({}) },
  { op: "post /add_alert", request: (s) => ({ body: { name: "Extra watch", type: "geofence_in", devices: [s.device], geofences: [s.circle] } }) },
  { op: "get /edit_alert_data", request: (s) => ({ query: { alert_id: s.overspeedAlert } }) },
  { op: "post /edit_alert", request: (s) => ({ body: { id: s.overspeedAlert, name: "Too fast", type: "overspeed", devices: [s.device], overspeed: 90 } }) },
  { op: "get /change_active_alert", request: (s) => ({ query: { id: s.overspeedAlert, active: "true" } }), check: OK },
  { op: "get /set_alert_devices", request: (s) => ({ query: { alert_id: s.overspeedAlert, devices: s.device } }) },
  { op: "get /get_alerts_attributes", request: () => ({}) },
  { op: "get /get_alerts_commands", request: (s) => ({ query: { alert_id: s.overspeedAlert } }) },
  { op: "get /get_alerts_summary", request: (s) => ({ query: { date_from: s.day, date_to: `${s.day} 23:59:59` } }) },
  { op: "get /devices/{device_id}/alerts", request: (s) => ({ params: { device_id: s.device }, query: { page: 1 } }) },
  { op: "post /devices/{device_id}/alerts/{alert_id}/time_period", request: (s) => ({ params: { device_id: s.device, alert_id: s.overspeedAlert }, body: { date_from: "2030-01-01 08:00:00", date_to: "2030-12-31" } }) },
  { op: "get /get_custom_events", request: () => ({ query: { page: 1 } }) },
  { op: "get /get_custom_events_by_device", request: (s) => ({ query: { devices: s.device } }) },
  { op: "get /add_custom_event_data", request: () => ({}) },
  { op: "post /add_custom_event", request: () => ({ body: customEventBody("Battery very low") }) },
  { op: "get /edit_custom_event_data", request: (s) => ({ query: { custom_event_id: s.customEvent } }) },
  { op: "post /edit_custom_event", request: (s) => ({ body: { id: s.customEvent, ...customEventBody("Battery low") } }) },

  { op: "get /get_geofences", request: () => ({}) },
  { op: "post /add_geofence", request: () => ({ body: polygonBody("Extra yard") }) },
  { op: "post /edit_geofence", request: (s) => ({ body: { id: s.polygon, ...polygonBody("Old town") } }) },
  { op: "get /change_active_geofence", request: (s) => ({ query: { id: s.polygon, active: "true" } }) },
  { op: "get /point_in_geofences", request: () => ({ query: { lat: 54.69, lng: 25.28 } }), check: (r) => expect((r.body as { zones: string[] }).zones).toContain("Old town") },
  { op: "get /get_routes", request: () => ({ query: { page: 1 } }) },
  { op: "post /add_route", request: () => ({ body: routeBody("Extra road") }) },
  { op: "post /edit_route", request: (s) => ({ body: { id: s.route, ...routeBody("Ring road") } }) },
  { op: "get /change_active_route", request: (s) => ({ query: { id: s.route, active: "true" } }) },
  { op: "get /get_map_icons", request: () => ({}) },
  { op: "get /get_user_map_icons", request: () => ({}) },
  { op: "post /add_map_icon", request: () => ({ body: mapIconBody("Extra gate") }) },
  { op: "post /edit_map_icon", request: (s) => ({ body: { id: s.mapIcon, ...mapIconBody("Depot") } }) },
  { op: "get /change_active_map_icon", request: (s) => ({ query: { id: s.mapIcon, active: "true" } }) },

  { op: "get /get_reports", request: () => ({ query: { page: 1 } }) },
  { op: "get /get_reports_types", request: () => ({}) },
  { op: "get /add_report_data", request: () => ({}) },
  { op: "post /add_report", request: (s) => ({ body: reportBody(s, "Extra summary") }) },
  { op: "post /edit_report", request: (s) => ({ body: { id: s.report, ...reportBody(s, "Daily summary") } }) },
  { op: "post /generate_report", request: (s) => ({ body: { ...reportBody(s, "Now"), date_from: s.day, date_to: s.day, from_time: "00:00", to_time: "23:59" } }) },

  { op: "get /get_user_drivers", request: () => ({ query: { page: 1 } }) },
  { op: "get /add_user_driver_data", request: () => ({}) },
  { op: "post /add_user_driver", request: (s) => ({ body: { device_id: s.device2, name: "Extra driver" } }) },
  { op: "get /edit_user_driver_data", request: (s) => ({ query: { user_driver_id: s.driver } }) },
  { op: "post /edit_user_driver", request: (s) => ({ body: { id: s.driver, device_id: s.device, name: "Jonas", rfid: "RFID-1" } }) },

  { op: "get /send_command_data", request: () => ({}) },
  { op: "get /get_device_commands", request: (s) => ({ query: { device_id: s.device } }) },
  { op: "post /send_gprs_command", request: (s) => ({ body: { device_id: s.device, type: "positionPeriodic", unit: "minute", frequency: 5 } }) },
  { op: "post /send_sms_command", request: (s) => ({ body: { devices: [s.device], message: "WHERE#" } }) },
  { op: "get /get_user_gprs_templates", request: () => ({ query: { page: 1 } }) },
  { op: "get /add_user_gprs_template_data", request: () => ({}) },
  { op: "post /add_user_gprs_template", request: () => ({ body: { title: "Extra reboot", message: "RESET#", protocol: "osmand" } }) },
  { op: "get /edit_user_gprs_template_data", request: (s) => ({ query: { user_gprs_template_id: s.gprsTemplate } }) },
  { op: "post /edit_user_gprs_template", request: (s) => ({ body: { id: s.gprsTemplate, title: "Reboot", message: "RESET#", protocol: "osmand" } }) },
  { op: "get /get_user_gprs_message", request: (s) => ({ query: { user_gprs_template_id: s.gprsTemplate } }) },
  { op: "get /get_user_sms_templates", request: () => ({ query: { page: 1 } }) },
  { op: "get /add_user_sms_template_data", request: () => ({}) },
  { op: "post /add_user_sms_template", request: () => ({ body: { title: "Extra locate", message: "WHERE#" } }) },
  { op: "get /edit_user_sms_template_data", request: (s) => ({ query: { user_sms_template_id: s.smsTemplate } }) },
  { op: "post /edit_user_sms_template", request: (s) => ({ body: { id: s.smsTemplate, title: "Locate", message: "WHERE#" } }) },
  { op: "get /get_user_sms_message", request: (s) => ({ query: { user_sms_template_id: s.smsTemplate } }) },

  { op: "get /get_tasks", request: (s) => ({ query: { search_device_id: s.device, search_time_from: "2030-01-01 00:00:00", search_time_to: "2030-12-31 23:59:59", search_invoice_number: "INV" } }) },
  { op: "get /get_task/{id}", request: (s) => ({ params: { id: s.task } }) },
  { op: "post /add_task", request: (s) => ({ body: taskBody(s.device, "Extra delivery") }) },
  { op: "post /edit_task/{id}", request: (s) => ({ params: { id: s.task }, body: { title: "Delivery", status: 4, status_comment: "Done" } }) },
  {
    op: "get /get_task_signature/{taskStatusId}",
    request: (s) => ({ params: { taskStatusId: s.taskStatus } }),
    check: (r) => {
      expect(r.contentType).toMatch(/^image\/png/);
      expect((r.body as Buffer).toString("base64")).toBe(PNG_BASE64);
    },
  },
  { op: "get /get_tasks_statuses", request: () => ({}) },
  { op: "get /devices/{device_id}/media", request: (s) => ({ params: { device_id: s.device }, query: { page: 1 } }) },
  {
    op: "get /devices/{device_id}/media/file/{filename}",
    request: (s) => ({ params: { device_id: s.device, filename: s.media } }),
    check: (r) => {
      expect(r.contentType).toMatch(/^image\/png/);
      expect((r.body as Buffer).toString("base64")).toBe(PNG_BASE64);
    },
  },
  { op: "get /get_tasks_priorities", request: () => ({}) },

  ...GROUP_KINDS.flatMap(({ path, members, group, member }): Case[] => [
    { op: `get /${path}`, request: () => ({ query: { search_phrase: "", limit: 10, page: 1 } }) },
    { op: `post /${path}/store`, request: (s) => ({ body: { title: `Extra ${path}`, [members]: [member(s)] } }) },
    { op: `put /${path}/update/{id}`, request: (s) => ({ params: { id: group(s) }, body: { title: `Renamed ${path}`, open: true } }) },
  ]),

  { op: "get /sharing", request: () => ({ query: { page: 1, limit: 10 } }) },
  { op: "post /sharing", request: (s) => ({ body: { devices: [s.device], active: true, name: "For the customer", enable_expiration_date: true, expiration_date: "2124-03-01 00:00:00" } }) },
  { op: "get /sharing/{id}", request: (s) => ({ params: { id: s.sharing } }) },
  { op: "put /sharing/{id}", request: (s) => ({ params: { id: s.sharing }, body: { name: "Renamed sharing", active: false, enable_expiration_date: false } }) },
  { op: "put /sharing/{id}/devices", request: (s) => ({ params: { id: s.sharing }, body: { devices: [s.device, s.device2] } }) },

  { op: "get /call_actions", request: () => ({}) },
  { op: "get /call_actions/event_types", request: () => ({}) },
  { op: "get /call_actions/response_types", request: () => ({}) },
  { op: "post /call_actions/store", request: (s) => ({ body: { device_id: s.device, alert_id: s.overspeedAlert, called_at: "2023-12-18 17:48:16", response_type: "answer", remarks: "remarks" } }) },
  { op: "get /call_actions/{id}", request: (s) => ({ params: { id: s.callAction } }) },
  { op: "put /call_actions/update/{id}", request: (s) => ({ params: { id: s.callAction }, body: { device_id: s.device, called_at: "2023-12-18 18:00:00", response_type: "no_answer", remarks: "Called back" } }), check: OK },

  { op: "get /address", request: () => ({ query: { lat: 54.69, lng: 25.28 } }) },
  { op: "get /address/reverse", request: () => ({ query: { lat: 54.6872, lng: 25.2797 } }) },
  { op: "get /address/search", request: () => ({ query: { q: "Vilnius" } }) },
  { op: "get /address/autocomplete", request: () => ({ query: { q: "Vil" } }) },

  { op: "get /admin/clients", request: () => ({ query: { limit: 10 } }) },
  { op: "get /admin/clients", label: "searched", request: () => ({ query: { search_phrase: "vendor-swagger", search_device: "860000000000901", sort_by: "email", sort: "desc", limit: 10 } }) },
  { op: "post /admin/client", request: () => ({ body: { ...CLIENT, password_confirmation: CLIENT.password, group_id: 2 } }), check: (r) => expect(r.body).toMatchObject({ status: 1, item: { email: CLIENT.email } }) },
  { op: "put /admin/client", request: (s) => ({ body: { id: s.client, email: "managed@vendor-swagger.test", active: true, enable_devices_limit: true, devices_limit: 10, enable_expiration_date: true, expiration_date: "2099-12-31", objects: [s.device2] } }), check: OK },
  { op: "post /admin/client/status", request: (s) => ({ body: { id: s.client, status: true } }), check: OK },
  { op: "get /admin/client/{id}/devices", request: (s) => ({ params: { id: s.client }, query: { limit: 10 } }), check: (r, s) => expect((r.body as { data: { id: number }[] }).data.map((d) => d.id)).toEqual([s.device2]) },
  { op: "get /admin/devices", request: () => ({ query: { s: "Van", limit: 10 } }), check: (r, s) => expect((r.body as { data: { id: number }[] }).data.map((d) => d.id)).toContain(s.device) },
  { op: "get /admin/device/{device}", request: (s) => ({ params: { device: s.device } }), check: (r, s) => expect(r.body).toMatchObject({ status: 1, data: { id: s.device } }) },
  { op: "post /admin/device/{device}/user", request: (s) => ({ params: { device: s.device }, body: { user_id: s.client } }), check: OK },
  { op: "get /admin/device/{device}/users", request: (s) => ({ params: { device: s.device }, query: { limit: 10 } }), check: (r, s) => expect((r.body as { data: { id: number }[] }).data.map((u) => u.id)).toContain(s.client) },
  { op: "delete /admin/device/{device}/user", request: (s) => ({ params: { device: s.device }, query: { user_id: s.client } }), check: OK },
  { op: "post /admin/device/{device}/status", request: (s) => ({ params: { device: s.device }, body: { active: 1 } }), check: OK },
  { op: "post /admin/device/{device}/expiration", request: (s) => ({ params: { device: s.device }, body: { expiration_date: 4_070_908_800 } }), check: OK },
  { op: "get /admin/companies", request: () => ({ query: { search_phrase: "Acme", property: "name", limit: 10, page: 1, "sorting[sort_by]": "name", "sorting[sort]": "asc" } }), check: (r, s) => expect((r.body as { data: { id: number }[] }).data.map((c) => c.id)).toContain(s.company) },
  { op: "post /admin/companies", request: () => ({ body: { name: "Extra company", vat_number: "LT100200300", registration_code: "302000111", address: "Gedimino pr. 1, Vilnius", comment: "Key client" } }), check: (r) => expect(r.body).toMatchObject({ status: 1 }) },
  { op: "get /admin/companies/{id}", request: (s) => ({ params: { id: s.company } }), check: (r, s) => expect(r.body).toMatchObject({ id: s.company, name: "Acme UAB" }) },
  { op: "put /admin/companies/{id}", request: (s) => ({ params: { id: s.company }, body: { name: "Acme UAB", vat_number: "LT100200301", registration_code: "302000111", address: "Vilnius", comment: "" } }), check: OK },
  { op: "post /register", request: () => ({ anonymous: true, body: { email: "signup@vendor-swagger.test" } }) },
  { op: "get /password_reminder", request: () => ({ anonymous: true, query: { email: CLIENT.email } }) },
  { op: "post /password_reminder", request: () => ({ anonymous: true, body: { email: CLIENT.email } }) },
  { op: "post /change_password", request: () => ({ as: CLIENT, body: { password: "client-secret-2", password_confirmation: "client-secret-2" } }), check: OK },

  {
    op: "get /insert.php",
    request: () => ({ anonymous: true, query: { uniqueId: "860000000000902", protocol: "osmand", latitude: "54.6", longitude: "25.2", altitude: "100", course: "0", speed: "0", fixTime: String(Date.now() - 60_000) } }),
    check: OK,
  },
  {
    op: "get /insert.php2",
    request: () => ({ anonymous: true, query: { uniqueId: "860000000000902", protocol: "osmand", latitude: "54.6", longitude: "25.2", altitude: "100", course: "0", speed: "0", fixTime: String(Date.now() - 50_000), "attributes[batt]": "12.5" } }),
    check: OK,
  },

  { op: "post /delete_history_positions", request: (s) => ({ query: { device_id: s.device }, body: { id: [s.position] } }) },
  { op: "get /destroy_sensor", request: (s) => ({ query: { sensor_id: s.throwaway.sensor } }) },
  { op: "get /destroy_service", request: (s) => ({ query: { service_id: s.throwaway.service } }) },
  { op: "get /destroy_alert", request: (s) => ({ query: { alert_id: s.throwaway.alert } }) },
  { op: "get /destroy_custom_event", request: (s) => ({ query: { custom_event_id: s.throwaway.customEvent } }) },
  { op: "get /destroy_geofence", request: (s) => ({ query: { geofence_id: s.throwaway.geofence } }) },
  { op: "get /destroy_route", request: (s) => ({ query: { route_id: s.throwaway.route } }) },
  { op: "get /destroy_report", request: (s) => ({ query: { report_id: s.throwaway.report } }) },
  { op: "get /destroy_map_icon", request: (s) => ({ query: { map_icon_id: s.throwaway.mapIcon } }) },
  { op: "get /destroy_user_driver", request: (s) => ({ query: { user_driver_id: s.throwaway.driver } }) },
  { op: "get /destroy_user_gprs_template", request: (s) => ({ query: { user_gprs_template_id: s.throwaway.gprsTemplate } }) },
  { op: "get /destroy_user_sms_template", request: (s) => ({ query: { user_sms_template_id: s.throwaway.smsTemplate } }) },
  { op: "post /destroy_task", request: (s) => ({ body: { id: s.throwaway.task } }) },
  { op: "delete /sharing/{id}", request: (s) => ({ params: { id: s.throwaway.sharing } }) },
  { op: "delete /call_actions/destory/{id}", request: (s) => ({ params: { id: s.throwaway.callAction } }), check: OK },
  { op: "delete /admin/companies/{id}", request: (s) => ({ params: { id: s.throwaway.company } }), check: OK },
  { op: "delete /admin/client/{id}", request: (s) => ({ params: { id: s.throwaway.clients[0] } }), check: OK },
  { op: "delete /admin/clients", request: (s) => ({ body: { ids: [s.throwaway.clients[1]] } }), check: OK },
  { op: "get /destroy_events", request: () => ({}) },
  {
    op: "delete /devices/{device_id}/media/file/{filename}",
    request: (s) => ({ params: { device_id: s.throwaway.device, filename: s.throwaway.media } }),
    check: (r) => expect(r.body).toEqual({ status: 1, delete_count: 1 }),
  },
  { op: "get /destroy_device", request: (s) => ({ query: { device_id: s.throwaway.device } }) },
];

/* The part 1 endpoints (account, devices, drivers, sensors, services) in the matrices. */
import { AddSensorResponseSchema, AddServiceResponseSchema, AddUserDriverResponseSchema, EditSetupDataResponseSchema, OkSchema } from "@fleet/contracts";
import { deviceFields, ok, type ApiHarness, type CallOptions, type TestUser } from "../fixture.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const sensorBody = (device: number) => ({ device_id: device, sensor_type: "ignition", sensor_name: "Ignition", unit_of_measurement: "", tag_name: "ignition", on_value: "1", off_value: "0" });
const serviceBody = (device: number) => ({ device_id: device, name: "Oil", expiration_by: "odometer", interval: 10000, last_service: 0, trigger_event_left: 500, renew_after_expiration: 0 });
const get = (h: ApiHarness, user: TestUser, path: string, query: CallOptions["query"]) => h.get(path, { user, query });
const post = (h: ApiHarness, user: TestUser, path: string, body: unknown, query?: CallOptions["query"]) => h.post(path, { user, body, ...(query ? { query } : {}) });

const idCases: IdCase[] = [
  { route: "get /edit_device_data", call: (h, u, t) => get(h, u, "/edit_device_data", { device_id: t.device }) },
  { route: "post /edit_device", call: (h, u, t) => post(h, u, "/edit_device", { name: "Taken over" }, { device_id: t.device }) },
  { route: "get /destroy_device", call: (h, u, t) => get(h, u, "/destroy_device", { device_id: t.device }) },
  { route: "get /change_active_device", call: (h, u, t) => get(h, u, "/change_active_device", { id: t.device, active: "false" }) },
  { route: "post /change_active_device", call: (h, u, t, o) => post(h, u, "/change_active_device", { id: [o.device, t.device], active: false }) },
  { route: "post /add_device (group_id)", call: (h, u, t) => post(h, u, "/add_device", { name: "X", imei: `iso-${t.group}-${Date.now()}`, icon_id: 1, fuel_measurement_id: 1, tail_length: 5, min_moving_speed: 6, min_fuel_fillings: 10, min_fuel_thefts: 10, group_id: t.group }) },
  { route: "post /edit_setup (groups)", call: (h, u, t) => post(h, u, "/edit_setup", { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, sms_gateway: 0, groups: [{ id: t.group, title: "Taken over" }] }) },
  { route: "post /add_user_driver", call: (h, u, t) => post(h, u, "/add_user_driver", { device_id: t.device, name: "Intruder" }) },
  { route: "get /edit_user_driver_data", call: (h, u, t) => get(h, u, "/edit_user_driver_data", { user_driver_id: t.driver }) },
  { route: "post /edit_user_driver", call: (h, u, t, o) => post(h, u, "/edit_user_driver", { id: t.driver, device_id: o.device, name: "Taken over" }) },
  { route: "post /edit_user_driver (device_id)", call: (h, u, t, o) => post(h, u, "/edit_user_driver", { id: o.driver, device_id: t.device, name: "Mine" }) },
  { route: "get /destroy_user_driver", call: (h, u, t) => get(h, u, "/destroy_user_driver", { user_driver_id: t.driver }) },
  { route: "get /add_sensor_data", call: (h, u, t) => get(h, u, "/add_sensor_data", { device_id: t.device }) },
  { route: "post /add_sensor", call: (h, u, t) => post(h, u, "/add_sensor", sensorBody(t.device), { device_id: t.device }) },
  { route: "get /edit_sensor_data", call: (h, u, t) => get(h, u, "/edit_sensor_data", { sensor_id: t.sensor }) },
  { route: "post /edit_sensor", call: (h, u, t, o) => post(h, u, "/edit_sensor", sensorBody(o.device), { sensor_id: t.sensor }) },
  { route: "post /edit_sensor (device_id)", call: (h, u, t, o) => post(h, u, "/edit_sensor", sensorBody(t.device), { sensor_id: o.sensor }) },
  { route: "get /destroy_sensor", call: (h, u, t) => get(h, u, "/destroy_sensor", { sensor_id: t.sensor }) },
  { route: "get /get_sensors", call: (h, u, t) => get(h, u, "/get_sensors", { device_id: t.device }) },
  { route: "get /add_service_data", call: (h, u, t) => get(h, u, "/add_service_data", { device_id: t.device }) },
  { route: "post /add_service", call: (h, u, t) => post(h, u, "/add_service", serviceBody(t.device), { device_id: t.device }) },
  { route: "get /edit_service_data", call: (h, u, t) => get(h, u, "/edit_service_data", { service_id: t.service }) },
  { route: "get /edit_service_data (sensor_id)", call: (h, u, t) => get(h, u, "/edit_service_data", { sensor_id: t.service }) },
  { route: "post /edit_service", call: (h, u, t, o) => post(h, u, "/edit_service", { id: t.service, ...serviceBody(o.device) }) },
  { route: "post /edit_service (device_id)", call: (h, u, t, o) => post(h, u, "/edit_service", { id: o.service, ...serviceBody(t.device) }) },
  { route: "get /destroy_service", call: (h, u, t) => get(h, u, "/destroy_service", { service_id: t.service }) },
  { route: "get /get_services", call: (h, u, t) => get(h, u, "/get_services", { device_id: t.device }) },
];

const listCases: ListCase[] = [
  { route: "get /get_devices", call: (h, u) => h.get("/get_devices", { user: u }) },
  { route: "get /get_devices_latest", call: (h, u) => h.get("/get_devices_latest", { user: u }) },
  { route: "get /add_device_data", call: (h, u) => h.get("/add_device_data", { user: u }) },
  { route: "get /edit_setup_data", call: (h, u) => h.get("/edit_setup_data", { user: u }) },
  { route: "get /get_user_drivers", call: (h, u) => h.get("/get_user_drivers", { user: u }) },
  { route: "get /add_user_driver_data", call: (h, u) => h.get("/add_user_driver_data", { user: u }) },
  { route: "get /get_user_data", call: (h, u) => h.get("/get_user_data", { user: u }) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /get_user_data": () => ({}),
  "get /add_device_data": () => ({}),
  "post /add_device": () => ({ body: deviceFields() }),
  "get /get_devices": () => ({}),
  "get /get_devices_latest": () => ({ query: { time: 0 } }),
  "get /edit_setup_data": () => ({}),
  "post /edit_setup": () => ({ body: { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 57, sms_gateway: 0, groups: [] } }),
  "post /change_password": () => ({ body: { password: "new-secret-1", password_confirmation: "new-secret-1" } }),
  "get /edit_device_data": (o) => ({ query: { device_id: o.device } }),
  "post /edit_device": (o) => ({ query: { device_id: o.device }, body: { name: "Renamed" } }),
  "get /destroy_device": (o) => ({ query: { device_id: o.device } }),
  "get /change_active_device": (o) => ({ query: { id: o.device, active: "true" } }),
  "post /change_active_device": (o) => ({ body: { id: [o.device], active: true } }),
  "get /get_user_drivers": () => ({ query: { page: 1 } }),
  "get /add_user_driver_data": () => ({}),
  "post /add_user_driver": (o) => ({ body: { device_id: o.device, name: "Driver" } }),
  "get /edit_user_driver_data": (o) => ({ query: { user_driver_id: o.driver } }),
  "post /edit_user_driver": (o) => ({ body: { id: o.driver, device_id: o.device, name: "Driver" } }),
  "get /destroy_user_driver": (o) => ({ query: { user_driver_id: o.driver } }),
  "get /add_sensor_data": (o) => ({ query: { device_id: o.device } }),
  "post /add_sensor": (o) => ({ query: { device_id: o.device }, body: { device_id: o.device, sensor_type: "battery", sensor_name: "Battery", unit_of_measurement: "V", tag_name: "power" } }),
  "get /edit_sensor_data": (o) => ({ query: { sensor_id: o.sensor } }),
  "post /edit_sensor": (o) => ({ query: { sensor_id: o.sensor }, body: { device_id: o.device, sensor_type: "battery", sensor_name: "Battery", unit_of_measurement: "V", tag_name: "power" } }),
  "get /destroy_sensor": (o) => ({ query: { sensor_id: o.sensor } }),
  "get /get_sensors": (o) => ({ query: { device_id: o.device } }),
  "get /add_service_data": (o) => ({ query: { device_id: o.device } }),
  "post /add_service": (o) => ({ query: { device_id: o.device }, body: { device_id: o.device, name: "Oil", expiration_by: "odometer", interval: 1000, last_service: 0, trigger_event_left: 100, renew_after_expiration: 0 } }),
  "get /edit_service_data": (o) => ({ query: { service_id: o.service } }),
  "post /edit_service": (o) => ({ body: { id: o.service, device_id: o.device, name: "Oil", expiration_by: "odometer", interval: 1000, last_service: 0, trigger_event_left: 100, renew_after_expiration: 0 } }),
  "get /destroy_service": (o) => ({ query: { service_id: o.service } }),
  "get /get_services": (o) => ({ query: { device_id: o.device } }),
  "post /admin/client": () => ({ body: { email: "new.client@example.com", password: "client-secret", password_confirmation: "client-secret" } }),
  "get /admin/clients": () => ({ query: { search_phrase: "client", search_device: "860000000000001", "filter[active]": 1, sort_by: "email", sort: "desc", limit: 10, page: 1 } }),
  "get /admin/unregistered_devices": () => ({}),
  "get /admin/dead_letters": () => ({ query: { topic: "positions.dead" } }),
  "post /admin/dead_letters/republish": () => ({ body: { topic: "positions.dead", ids: ["00000000-0000-4000-8000-000000000000"] } }),
};

async function seed(h: ApiHarness, user: TestUser, _base: Records, tag: string): Promise<Partial<Records>> {
  const setup = { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, sms_gateway: 0, groups: [{ title: `Group of ${tag}` }] };
  ok(await h.post("/edit_setup", { user, body: setup }), OkSchema);
  const group = ok(await h.get("/edit_setup_data", { user }), EditSetupDataResponseSchema).groups[0]!.id as number;
  const device = await h.addDevice(user, { name: `Device of ${tag}`, group_id: group });
  const driver = ok(await h.post("/add_user_driver", { user, body: { device_id: device, name: `Driver of ${tag}`, rfid: `RFID-${tag}` } }), AddUserDriverResponseSchema).item.id;
  const sensor = ok(await h.post("/add_sensor", { user, body: { ...sensorBody(device), sensor_name: `Sensor of ${tag}` }, query: { device_id: device } }), AddSensorResponseSchema).id;
  const service = ok(await h.post("/add_service", { user, body: { ...serviceBody(device), name: `Service of ${tag}` }, query: { device_id: device } }), AddServiceResponseSchema).id;
  return { device, driver, sensor, service, group };
}

export const part1Group: MatrixGroup = {
  seed,
  privateText: (tag) => [`Device of ${tag}`, `Driver of ${tag}`, `Group of ${tag}`, `Sensor of ${tag}`, `Service of ${tag}`],
  idCases,
  listCases,
  accountOnly: ["post /login", "post /change_password", "post /add_device", "post /admin/client", "get /admin/clients", "get /admin/unregistered_devices", "get /admin/dead_letters", "post /admin/dead_letters/republish"],
  valid,
};

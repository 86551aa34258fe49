/*
 * Tenant isolation across every endpoint of the API: user B, holding records of its own,
 * calls each endpoint with user A's ids. Every answer must be exactly the answer for an id
 * that does not exist (status and body), and A's records must come out unchanged. List
 * endpoints must never show A's records to B. A last test checks that this matrix names
 * every authenticated route the OpenAPI document lists, so a new route cannot skip it.
 */
import { beforeAll, expect, it } from "vitest";
import { AddSensorResponseSchema, AddServiceResponseSchema, AddUserDriverResponseSchema, EditSetupDataResponseSchema, OkSchema } from "@fleet/contracts";
import { describeApi, ok, type ApiHarness, type CallOptions, type Reply, type TestUser } from "./fixture.js";

/** An id no record has (int4 range, far above anything a test suite creates). */
const MISSING = 2_000_000_000;

interface Records {
  device: number;
  driver: number;
  sensor: number;
  service: number;
  group: number;
}

interface IdCase {
  route: string;
  /** The call, aimed at `target`'s records; `own` are the caller's own records (for fields that must be valid). */
  call(h: ApiHarness, caller: TestUser, target: Records, own: Records): Promise<Reply>;
}

const sensorBody = (device: number) => ({ device_id: device, sensor_type: "ignition", sensor_name: "Ignition", unit_of_measurement: "", tag_name: "ignition", on_value: "1", off_value: "0" });
const serviceBody = (device: number) => ({ device_id: device, name: "Oil", expiration_by: "odometer", interval: 10000, last_service: 0, trigger_event_left: 500, renew_after_expiration: 0 });

const get = (h: ApiHarness, user: TestUser, path: string, query: CallOptions["query"]) => h.get(path, { user, query });
const post = (h: ApiHarness, user: TestUser, path: string, body: unknown, query?: CallOptions["query"]) => h.post(path, { user, body, ...(query ? { query } : {}) });

/** Every endpoint that takes an id of a record, with the id aimed at `t` (another user's, or missing). */
const ID_CASES: IdCase[] = [
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

/** Endpoints without ids of records: what B gets must not mention A's records. */
const LIST_CASES: { route: string; call(h: ApiHarness, u: TestUser): Promise<Reply> }[] = [
  { route: "get /get_devices", call: (h, u) => h.get("/get_devices", { user: u }) },
  { route: "get /get_devices_latest", call: (h, u) => h.get("/get_devices_latest", { user: u }) },
  { route: "get /add_device_data", call: (h, u) => h.get("/add_device_data", { user: u }) },
  { route: "get /edit_setup_data", call: (h, u) => h.get("/edit_setup_data", { user: u }) },
  { route: "get /get_user_drivers", call: (h, u) => h.get("/get_user_drivers", { user: u }) },
  { route: "get /add_user_driver_data", call: (h, u) => h.get("/add_user_driver_data", { user: u }) },
  { route: "get /get_user_data", call: (h, u) => h.get("/get_user_data", { user: u }) },
];

/** Routes that act on the caller's own account only, or on no records at all. */
const ACCOUNT_ONLY = ["post /login", "post /change_password", "post /add_device", "post /admin/client", "get /admin/clients", "get /admin/unregistered_devices"];

async function seed(h: ApiHarness, user: TestUser, tag: string): Promise<Records> {
  const setup = { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, sms_gateway: 0, groups: [{ title: `Group of ${tag}` }] };
  ok(await h.post("/edit_setup", { user, body: setup }), OkSchema);
  const group = ok(await h.get("/edit_setup_data", { user }), EditSetupDataResponseSchema).groups[0]!.id as number;
  const device = await h.addDevice(user, { name: `Device of ${tag}`, group_id: group });
  const driver = ok(await h.post("/add_user_driver", { user, body: { device_id: device, name: `Driver of ${tag}`, rfid: `RFID-${tag}` } }), AddUserDriverResponseSchema).item.id;
  const sensor = ok(await h.post("/add_sensor", { user, body: { ...sensorBody(device), sensor_name: `Sensor of ${tag}` }, query: { device_id: device } }), AddSensorResponseSchema).id;
  const service = ok(await h.post("/add_service", { user, body: { ...serviceBody(device), name: `Service of ${tag}` }, query: { device_id: device } }), AddServiceResponseSchema).id;
  return { device, driver, sensor, service, group };
}

/** Everything A can see of its records, to compare before and after B's attempts. */
async function view(h: ApiHarness, user: TestUser, r: Records): Promise<unknown[]> {
  const bodies = await Promise.all([
    h.get("/edit_device_data", { user, query: { device_id: r.device } }),
    h.get("/edit_user_driver_data", { user, query: { user_driver_id: r.driver } }),
    h.get("/edit_sensor_data", { user, query: { sensor_id: r.sensor } }),
    h.get("/edit_service_data", { user, query: { service_id: r.service } }),
    h.get("/edit_setup_data", { user }),
    h.get("/get_user_drivers", { user }),
    h.get("/get_sensors", { user, query: { device_id: r.device } }),
    h.get("/get_services", { user, query: { device_id: r.device } }),
  ]);
  for (const b of bodies) expect(b.status, `${b.label} → ${b.text}`).toBe(200);
  return bodies.map((b) => b.body);
}

describeApi("tenant isolation", (h) => {
  let a: TestUser;
  let b: TestUser;
  let ra: Records;
  let rb: Records;
  const missing: Records = { device: MISSING, driver: MISSING, sensor: MISSING, service: MISSING, group: MISSING };

  beforeAll(async () => {
    a = await h.newUser();
    b = await h.newUser();
    ra = await seed(h, a, "A");
    rb = await seed(h, b, "B");
  });

  it("answers another user's id exactly as a missing id, on every id-taking endpoint, and leaves the owner's records alone", async () => {
    const before = await view(h, a, ra);
    for (const c of ID_CASES) {
      const theirs = await c.call(h, b, ra, rb);
      const none = await c.call(h, b, missing, rb);
      expect(theirs.status, `${c.route} with A's id → ${theirs.text}`).toBeGreaterThanOrEqual(400);
      expect(theirs.status, `${c.route} with A's id → ${theirs.text}`).toBeLessThan(500);
      expect({ status: theirs.status, body: theirs.body }, c.route).toEqual({ status: none.status, body: none.body });
    }
    expect(await view(h, a, ra)).toEqual(before);
    // And B's own records still work: the refusals were about A's ids, not about B.
    await view(h, b, rb);
  });

  it("never lists another user's records", async () => {
    for (const c of LIST_CASES) {
      const res = await c.call(h, b);
      expect(res.status, `${c.route} → ${res.text}`).toBe(200);
      for (const name of ["Device of A", "Driver of A", "Group of A", "Sensor of A", "Service of A", a.email]) expect(res.text, c.route).not.toContain(name);
    }
  });

  it("covers every authenticated route of the OpenAPI document", async () => {
    const doc = (await h.inject({ method: "GET", url: "/api/docs/json" })).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path.replace(/^\/api/, "")}`));
    const covered = new Set([...ID_CASES, ...LIST_CASES].map((c) => c.route.split(" (")[0]!).concat(ACCOUNT_ONLY));
    expect(routes.filter((r) => !covered.has(r))).toEqual([]);
  });
});

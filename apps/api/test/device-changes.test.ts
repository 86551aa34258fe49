/*
 * Every write that changes what the live list shows for a device puts that device in the
 * next get_devices_latest poll made with the previous poll's `time`, and leaves unrelated
 * devices out of it. The writes announce their own changes (packages/db device-changes.ts);
 * this walks every such endpoint so that none can forget.
 */
import { describe, expect, it } from "vitest";
import { AddDeviceResponseSchema, AddSensorResponseSchema, AddServiceResponseSchema, AddUserDriverResponseSchema, EditSetupDataResponseSchema, GetDevicesLatestResponseSchema, OkSchema } from "@fleet/contracts";
import { findUserByEmail } from "@fleet/db";
import { createGeocoder } from "@fleet/geocoder";
import * as devices from "../src/domain/devices.js";
import { liveRecordCache } from "../src/lib/live-records.js";
import { deviceFields, describeApi, nextSecond, ok, type ApiHarness, type Reply, type TestUser } from "./fixture.js";

/** A first poll lists no events, so names no place: the offline geocoder, as an API without GEOCODER_URL. */
const geocoder = createGeocoder({ logger: { info() {}, warn() {} } });

/** One user's records: `device` is the one the writes aim at, in group `group`, with a driver, a sensor and a service; `near` and `far` are two more devices of the same user, ungrouped. */
interface Fleet {
  user: TestUser;
  device: number;
  group: number;
  driver: number;
  sensor: number;
  service: number;
  near: number;
  far: number;
}

const setupBody = (groups: { id?: number; title: string }[], units: Record<string, unknown> = {}) => ({ unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, sms_gateway: 0, groups, ...units });
const sensorBody = (device: number, name = "Ignition") => ({ device_id: device, sensor_type: "ignition", sensor_name: name, unit_of_measurement: "", tag_name: "ignition", on_value: "1", off_value: "0" });
const serviceBody = (device: number, name = "Oil") => ({ device_id: device, name, expiration_by: "odometer", interval: 10000, last_service: 0, trigger_event_left: 500, renew_after_expiration: 0 });

async function seed(h: ApiHarness): Promise<Fleet> {
  const user = await h.newUser();
  ok(await h.post("/edit_setup", { user, body: setupBody([{ title: "Vans" }]) }), OkSchema);
  const group = ok(await h.get("/edit_setup_data", { user }), EditSetupDataResponseSchema).groups[0]!.id as number;
  const device = await h.addDevice(user, { name: "Van", group_id: group });
  const near = await h.addDevice(user, { name: "Near" });
  const far = await h.addDevice(user, { name: "Far" });
  const driver = ok(await h.post("/add_user_driver", { user, body: { device_id: device, name: "Jonas" } }), AddUserDriverResponseSchema).item.id;
  const sensor = ok(await h.post("/add_sensor", { user, query: { device_id: device }, body: sensorBody(device) }), AddSensorResponseSchema).id;
  const service = ok(await h.post("/add_service", { user, query: { device_id: device }, body: serviceBody(device) }), AddServiceResponseSchema).id;
  return { user, device, group, driver, sensor, service, near, far };
}

interface ChangeCase {
  route: string;
  /** The write; answers the ids of the devices whose live entry it changes, when that is not just `device`. */
  write(h: ApiHarness, f: Fleet): Promise<Reply | { reply: Reply; changed: number[] }>;
  /** Devices of the same user the write leaves alone (default: near and far). */
  unrelated?: (f: Fleet) => number[];
}

const get = (h: ApiHarness, f: Fleet, path: string, query: Record<string, string | number>) => h.get(path, { user: f.user, query });
const post = (h: ApiHarness, f: Fleet, path: string, body: unknown, query?: Record<string, string | number>) => h.post(path, { user: f.user, body, ...(query ? { query } : {}) });

const CASES: ChangeCase[] = [
  {
    route: "post /add_device",
    write: async (h, f) => {
      const reply = await post(h, f, "/add_device", deviceFields({ name: "New van" }));
      return { reply, changed: [ok(reply, AddDeviceResponseSchema).id] };
    },
    unrelated: (f) => [f.device, f.near, f.far],
  },
  { route: "post /edit_device", write: (h, f) => post(h, f, "/edit_device", { name: "Renamed" }, { device_id: f.device }) },
  { route: "post /edit_device (group_id)", write: (h, f) => post(h, f, "/edit_device", { group_id: 0 }, { device_id: f.device }) },
  { route: "get /change_active_device", write: (h, f) => get(h, f, "/change_active_device", { id: f.device, active: "false" }) },
  { route: "post /change_active_device", write: (h, f) => post(h, f, "/change_active_device", { id: [f.device], active: false }) },
  { route: "post /edit_setup (group renamed)", write: (h, f) => post(h, f, "/edit_setup", setupBody([{ id: f.group, title: "Trucks" }])) },
  {
    route: "post /edit_setup (units)",
    write: async (h, f) => ({ reply: await post(h, f, "/edit_setup", setupBody([{ id: f.group, title: "Vans" }], { unit_of_distance: "mi" })), changed: [f.device, f.near, f.far] }),
    unrelated: () => [],
  },
  {
    route: "post /edit_setup (timezone)",
    write: async (h, f) => ({ reply: await post(h, f, "/edit_setup", setupBody([{ id: f.group, title: "Vans" }], { timezone_id: 57 })), changed: [f.device, f.near, f.far] }),
    unrelated: () => [],
  },
  {
    route: "post /devices_groups/store",
    write: async (h, f) => ({ reply: await post(h, f, "/devices_groups/store", { title: "Cars", devices: [f.near] }), changed: [f.near] }),
    unrelated: (f) => [f.device, f.far],
  },
  {
    route: "put /devices_groups/update/{id} (renamed)",
    write: (h, f) =>
      h.inject({ method: "PUT", url: `/api/devices_groups/update/${f.group}`, query: { lang: "en", user_api_hash: f.user.hash }, headers: { "content-type": "application/json" }, payload: JSON.stringify({ title: "Trucks" }) }),
  },
  {
    route: "post /devices_groups/update/{id} (devices)",
    write: async (h, f) => ({ reply: await post(h, f, `/devices_groups/update/${f.group}`, { devices: [f.near] }), changed: [f.device, f.near] }),
    unrelated: (f) => [f.far],
  },
  { route: "get /devices_groups/destroy/{id}", write: (h, f) => get(h, f, `/devices_groups/destroy/${f.group}`, {}) },
  { route: "post /add_user_driver", write: (h, f) => post(h, f, "/add_user_driver", { device_id: f.device, name: "Second driver" }) },
  { route: "post /edit_user_driver", write: (h, f) => post(h, f, "/edit_user_driver", { id: f.driver, device_id: f.device, name: "Jonas Renamed" }) },
  {
    route: "post /edit_user_driver (to another device)",
    write: async (h, f) => ({ reply: await post(h, f, "/edit_user_driver", { id: f.driver, device_id: f.near, name: "Jonas" }), changed: [f.device, f.near] }),
    unrelated: (f) => [f.far],
  },
  { route: "get /destroy_user_driver", write: (h, f) => get(h, f, "/destroy_user_driver", { user_driver_id: f.driver }) },
  { route: "post /add_sensor", write: (h, f) => post(h, f, "/add_sensor", { ...sensorBody(f.device, "Battery"), sensor_type: "battery", tag_name: "power", unit_of_measurement: "V" }, { device_id: f.device }) },
  { route: "post /edit_sensor", write: (h, f) => post(h, f, "/edit_sensor", sensorBody(f.device, "Ignition renamed"), { sensor_id: f.sensor }) },
  { route: "get /destroy_sensor", write: (h, f) => get(h, f, "/destroy_sensor", { sensor_id: f.sensor }) },
  { route: "post /add_service", write: (h, f) => post(h, f, "/add_service", serviceBody(f.device, "Tyres"), { device_id: f.device }) },
  { route: "post /edit_service", write: (h, f) => post(h, f, "/edit_service", { id: f.service, ...serviceBody(f.device, "Oil renamed") }) },
  {
    route: "post /edit_service (to another device)",
    write: async (h, f) => ({ reply: await post(h, f, "/edit_service", { id: f.service, ...serviceBody(f.near) }), changed: [f.device, f.near] }),
    unrelated: (f) => [f.far],
  },
  { route: "get /destroy_service", write: (h, f) => get(h, f, "/destroy_service", { service_id: f.service }) },
];

async function latestTime(h: ApiHarness, user: TestUser): Promise<number> {
  return ok(await h.get("/get_devices_latest", { user }), GetDevicesLatestResponseSchema).time;
}

async function itemsSince(h: ApiHarness, user: TestUser, time: number) {
  return ok(await h.get("/get_devices_latest", { user, query: { time } }), GetDevicesLatestResponseSchema).items;
}

async function listedSince(h: ApiHarness, user: TestUser, time: number): Promise<number[]> {
  return (await itemsSince(h, user, time)).map((i) => i.id);
}

/**
 * Each device's item as an api instance that has cached nothing renders it, from the
 * records store itself; the time-dependent stop_duration is left out.
 */
async function coldItems(h: ApiHarness, user: TestUser): Promise<Map<number, unknown>> {
  const view = { db: h.db, live: h.live, liveRecords: liveRecordCache(h.db, h.live, { maxDevices: 1000 }), geocoder, settings: h.settings };
  // The user as the write left it (units, timezone), as a request would load it.
  const { items } = await devices.latest(view, (await findUserByEmail(h.db, user.email))!, undefined);
  return new Map(items.map((i) => [i.id, comparable(i)]));
}

const comparable = (item: object) => JSON.parse(JSON.stringify({ ...item, stop_duration: undefined })) as unknown;

describeApi("device changes reach the live list", (h) => {
  // Concurrently: each case has users of its own, and most of its time is spent waiting for the next second.
  describe.concurrent.each(CASES)("$route", (c) => {
    it("lists the changed devices in the next poll, and no other", async () => {
      const f = await seed(h);
      const stranger = await seed(h);
      // Past the second the seed's own changes were made in: the poll re-sends that second.
      await nextSecond();
      const time = await latestTime(h, f.user);
      const strangerTime = await latestTime(h, stranger.user);
      await nextSecond();

      const done = await c.write(h, f);
      const { reply, changed } = "reply" in done ? done : { reply: done, changed: [f.device] };
      expect(reply.status, `${reply.label}: ${reply.text}`).toBe(200);

      const items = await itemsSince(h, f.user, time);
      const listed = items.map((i) => i.id);
      for (const id of changed) expect(listed, `device ${id} after ${c.route}`).toContain(id);
      // With what the write made of it: the api's cached records were brought up to date.
      const cold = await coldItems(h, f.user);
      for (const item of items) expect(comparable(item), `device ${item.id} after ${c.route}`).toEqual(cold.get(item.id));
      for (const id of (c.unrelated ?? ((x: Fleet) => [x.near, x.far]))(f)) expect(listed, `unrelated device ${id} after ${c.route}`).not.toContain(id);
      // Another user's devices never move on this user's write.
      expect(await listedSince(h, stranger.user, strangerTime)).toEqual([]);
    });
  });
});

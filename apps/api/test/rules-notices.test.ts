/*
 * The rules service caches what it checks positions against and drops it on a `rules.changed`
 * notice. Every write of a rule record must send one after its commit, naming the user (alerts,
 * geofences, custom events, drivers, settings) or the device (its record, sensors, owners); a
 * write that did not happen sends none; and a bus that is down never fails the write's answer.
 * The harness puts the notices on its in-process bus, read here as the rules service would.
 */
import { describe, expect, it } from "vitest";
import {
  AddAlertResponseSchema,
  AddCustomEventResponseSchema,
  AddSensorResponseSchema,
  AddUserDriverResponseSchema,
  AlertOkResponseSchema,
  CustomEventOkResponseSchema,
  DriverChangedResponseSchema,
  EditDeviceResponseSchema,
  GeoCreatedSchema,
  GeoOkSchema,
  GetGeofencesResponseSchema,
  OkSchema,
  RulesChangedSchema,
  Topics,
  type RulesChanged,
} from "@fleet/contracts";
import { describeApi, expectSchema, failure, invalid, ok, type ApiHarness, type TestUser } from "./fixture.js";
import { geofenceBody, mapIconBody } from "./matrix/geo.js";

/** Every notice `write` sent, in order, each checked against the contract. */
async function noticesOf(h: ApiHarness, write: () => Promise<unknown>): Promise<RulesChanged[]> {
  // One key for every notice, so one partition: what follows `before` is what `write` sent.
  const before = (await h.bus.read(Topics.rulesChanged)).length;
  await write();
  const sent = (await h.bus.read(Topics.rulesChanged)).slice(before);
  return sent.map((m, i) => expectSchema(RulesChangedSchema, JSON.parse(m.value.toString("utf8")), `notice ${i}`));
}

const ofUser = (user: TestUser): RulesChanged => ({ userIds: [user.id], deviceIds: [] });
const ofDevice = (deviceId: number): RulesChanged => ({ userIds: [], deviceIds: [deviceId] });

const overspeed = (device: number, extra: Record<string, unknown> = {}) => ({ name: "Too fast", type: "overspeed", devices: [device], overspeed: 90, ...extra });
const speeding = { protocol: "osmand", message: "Over 100", tag: ["speed"], type: [2], tag_value: ["100"] };
const setupBody = (extra: Record<string, unknown> = {}) => ({ unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, sms_gateway: 0, groups: [], ...extra });
const sensorBody = (device: number) => ({ device_id: device, sensor_type: "ignition", sensor_name: "Ignition", unit_of_measurement: "", tag_name: "ignition", on_value: "1", off_value: "0" });

describeApi("rules.changed notices", (h) => {
  describe("writes of the user's rule records name the user", () => {
    it("alerts: add, edit, change_active, set_alert_devices, time_period and destroy", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const other = await h.addDevice(user);
      let id = 0;
      expect(await noticesOf(h, async () => (id = ok(await h.post("/add_alert", { user, body: overspeed(device) }), AddAlertResponseSchema).id))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.post("/edit_alert", { user, body: { id, ...overspeed(device, { overspeed: 110 }) } }), AlertOkResponseSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.get("/change_active_alert", { user, query: { id, active: 0 } }), AlertOkResponseSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.post("/set_alert_devices", { user, query: { alert_id: id }, body: { devices: [device, other] } }), AlertOkResponseSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.post(`/devices/${device}/alerts/${id}/time_period`, { user, body: { date_from: "2030-01-01" } }), AlertOkResponseSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.get("/destroy_alert", { user, query: { alert_id: id } }), AlertOkResponseSchema))).toEqual([ofUser(user)]);
    });

    it("geofences: add, edit, change_active and destroy", async () => {
      const user = await h.newUser();
      let id = 0;
      expect(await noticesOf(h, async () => (id = ok(await h.post("/add_geofence", { user, body: geofenceBody() }), GeoCreatedSchema).id))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.post("/edit_geofence", { user, body: geofenceBody({ id, name: "Depot" }) }), GeoOkSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.post("/change_active_geofence", { user, body: { id, active: 0 } }), GeoOkSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.get("/destroy_geofence", { user, query: { geofence_id: id } }), GeoOkSchema))).toEqual([ofUser(user)]);
    });

    it("map icons (the points of interest of poi alerts): edit, change_active and destroy", async () => {
      const user = await h.newUser();
      // Added, it is named by no alert yet: nothing to drop.
      const id = ok(await h.post("/add_map_icon", { user, body: mapIconBody() }), GeoCreatedSchema).id;
      expect(await noticesOf(h, async () => ok(await h.post("/edit_map_icon", { user, body: mapIconBody({ id, coordinates: { lat: 54.7, lng: 25.3 } }) }), GeoOkSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.post("/change_active_map_icon", { user, body: { id, active: 0 } }), GeoOkSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.get("/destroy_map_icon", { user, query: { map_icon_id: id } }), GeoOkSchema))).toEqual([ofUser(user)]);
    });

    it("custom events: add, edit and destroy", async () => {
      const user = await h.newUser();
      let id = 0;
      expect(await noticesOf(h, async () => (id = ok(await h.post("/add_custom_event", { user, body: speeding }), AddCustomEventResponseSchema).id))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.post("/edit_custom_event", { user, body: { ...speeding, id, message: "Over 120", tag_value: ["120"] } }), CustomEventOkResponseSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.get("/destroy_custom_event", { user, query: { custom_event_id: id } }), CustomEventOkResponseSchema))).toEqual([ofUser(user)]);
    });

    it("drivers: add, edit and destroy (the device whose current driver changed is named too)", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      let id = 0;
      const added = await noticesOf(h, async () => (id = ok(await h.post("/add_user_driver", { user, body: { device_id: device, name: "Jonas" } }), AddUserDriverResponseSchema).item.id));
      const edited = await noticesOf(h, async () => ok(await h.post("/edit_user_driver", { user, body: { id, device_id: device, name: "Jonas", rfid: "0042" } }), DriverChangedResponseSchema));
      const destroyed = await noticesOf(h, async () => ok(await h.get("/destroy_user_driver", { user, query: { user_driver_id: id } }), DriverChangedResponseSchema));
      for (const notices of [added, edited, destroyed]) {
        // The user's notice comes once the write resolved; the device's, from the write itself, before it.
        expect(notices.at(-1)).toEqual(ofUser(user));
        for (const n of notices) expect([ofUser(user), ofDevice(device)]).toContainEqual(n);
      }
      expect(added).toEqual([ofDevice(device), ofUser(user)]);
    });

    it("edit_setup: the user's timezone, DST rule and units", async () => {
      const user = await h.newUser();
      expect(await noticesOf(h, async () => ok(await h.post("/edit_setup", { user, body: setupBody({ timezone_id: 65, unit_of_distance: "mi" }) }), OkSchema))).toEqual([ofUser(user)]);
    });

    it("an administrator shutting a client out or letting it in, by id or email, and changing its account (expiry)", async () => {
      const user = await h.newUser();
      const status = (body: Record<string, unknown>) => noticesOf(h, async () => ok(await h.post("/admin/client/status", { user: h.admin, body }), OkSchema));
      expect(await status({ id: user.id, status: 0 })).toEqual([ofUser(user)]);
      expect(await status({ email: user.email, status: 1 })).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => ok(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: user.id, expiration_date: "2020-01-01 00:00:00" } }), OkSchema))).toEqual([ofUser(user)]);
      expect(await noticesOf(h, async () => failure(await h.post("/admin/client/status", { user: h.admin, body: { id: 999_999, status: 0 } }), 404))).toEqual([]);
    });
  });

  describe("device writes name the device, through the announcement of device changes", () => {
    it("add_sensor, edit_device and destroy_device", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      expect(await noticesOf(h, async () => ok(await h.post("/add_sensor", { user, query: { device_id: device }, body: sensorBody(device) }), AddSensorResponseSchema))).toEqual([ofDevice(device)]);
      expect(await noticesOf(h, async () => ok(await h.post("/edit_device", { user, query: { device_id: device }, body: { min_moving_speed: 9 } }), EditDeviceResponseSchema))).toEqual([ofDevice(device)]);
      expect(await noticesOf(h, async () => ok(await h.get("/destroy_device", { user, query: { device_id: device } }), OkSchema))).toEqual([ofDevice(device)]);
    });
  });

  describe("a write that did not happen sends nothing", () => {
    it("refused input, and another user's record", async () => {
      const user = await h.newUser();
      const stranger = await h.newUser();
      const device = await h.addDevice(user);
      const geofence = ok(await h.post("/add_geofence", { user, body: geofenceBody() }), GeoCreatedSchema).id;
      // The stranger's own alert on the user's device: a time period refused whatever its input.
      const alert = ok(await h.post("/add_alert", { user: stranger, body: overspeed(await h.addDevice(stranger)) }), AddAlertResponseSchema).id;
      const none = await noticesOf(h, async () => {
        invalid(await h.post("/add_alert", { user, body: overspeed(device, { overspeed: "fast" }) }));
        invalid(await h.post("/add_geofence", { user, body: geofenceBody({ polygon: [] }) }));
        invalid(await h.post("/add_custom_event", { user, body: { ...speeding, tag_value: [] } }));
        invalid(await h.post("/add_user_driver", { user, body: { device_id: device, name: "   " } }));
        invalid(await h.post("/edit_setup", { user, body: setupBody({ unit_of_distance: "furlongs" }) }));
        invalid(await h.post("/edit_device", { user, query: { device_id: device }, body: { min_moving_speed: "slow" } }));
        failure(await h.get("/destroy_geofence", { user: stranger, query: { geofence_id: geofence } }), 404);
        failure(await h.post("/edit_device", { user: stranger, query: { device_id: device }, body: { min_moving_speed: 9 } }), 404);
        invalid(await h.post(`/devices/${device}/alerts/${alert}/time_period`, { user: stranger, body: { date_from: "2030-02-30" } }));
        failure(await h.post(`/devices/${device}/alerts/${alert}/time_period`, { user: stranger, body: { date_from: "2030-01-01" } }), 404);
      });
      expect(none).toEqual([]);
    });
  });

  describe("a bus that is down", () => {
    it("fails no write: the answer is the usual one, the write is kept, and no notice is on the bus", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      h.busDown = true;
      try {
        const notices = await noticesOf(h, async () => {
          const id = ok(await h.post("/add_geofence", { user, body: geofenceBody({ name: "Kept" }) }), GeoCreatedSchema).id;
          ok(await h.get("/destroy_alert", { user, query: { alert_id: ok(await h.post("/add_alert", { user, body: overspeed(device) }), AddAlertResponseSchema).id } }), AlertOkResponseSchema);
          ok(await h.post("/edit_setup", { user, body: setupBody({ timezone_id: 65 }) }), OkSchema);
          // The device path too: the live store is still marked, the notice only logged.
          ok(await h.post("/edit_device", { user, query: { device_id: device }, body: { min_moving_speed: 12 } }), EditDeviceResponseSchema);
          expect(ok(await h.get("/get_geofences", { user }), GetGeofencesResponseSchema).items.geofences.map((g) => g.id)).toEqual([id]);
        });
        expect(notices).toEqual([]);
      } finally {
        h.busDown = false;
      }
      // And once the bus is back, notices flow again.
      expect(await noticesOf(h, async () => ok(await h.post("/add_geofence", { user, body: geofenceBody() }), GeoCreatedSchema))).toEqual([ofUser(user)]);
    });
  });
});

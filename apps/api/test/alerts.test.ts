import { describe, expect, it } from "vitest";
import {
  GeoCreatedSchema,
  GeoOkSchema,
  ALERT_TYPES,
  AddAlertDataResponseSchema,
  AddAlertResponseSchema,
  AddCustomEventResponseSchema,
  AddUserDriverResponseSchema,
  AlertOkResponseSchema,
  EditAlertDataResponseSchema,
  GetAlertsResponseSchema,
  GetProtocolsResponseSchema,
  SCHEDULE_SLOTS,
  WEEKDAYS,
  userClock,
  protocols,
  type AlertRecord,
} from "@fleet/contracts";
import { schema } from "@fleet/db";
import { describeApi, failure, invalid, liveState, ok, type ApiHarness, type BodyEncoding, type TestUser } from "./fixture.js";
import { mapIconBody } from "./matrix/geo.js";

/** A geofence of the user: through add_geofence when that answers, else a row written directly. */
async function addGeofence(h: ApiHarness, user: TestUser, name: string): Promise<number> {
  return ok(await h.post("/add_geofence", { user, body: { name, polygon_color: "#ff0000", type: "circle", center: { lat: 54.68, lng: 25.28 }, radius: 500 } }), GeoCreatedSchema).id;
}

async function addCustomEvent(h: ApiHarness, user: TestUser, message = "Fast", protocol = "osmand"): Promise<number> {
  return ok(await h.post("/add_custom_event", { user, body: { protocol, message, tag: ["speed"], type: [2], tag_value: ["100"] } }), AddCustomEventResponseSchema).id;
}

async function addPoi(h: ApiHarness, user: TestUser, name: string): Promise<number> {
  return ok(await h.post("/add_map_icon", { user, body: mapIconBody({ name }) }), GeoCreatedSchema).id;
}

async function addDriver(h: ApiHarness, user: TestUser, device: number): Promise<number> {
  return ok(await h.post("/add_user_driver", { user, body: { device_id: device, name: "Jonas" } }), AddUserDriverResponseSchema).item.id;
}

async function addAlert(h: ApiHarness, user: TestUser, body: Record<string, unknown>, as: BodyEncoding = "json"): Promise<number> {
  return ok(await h.post("/add_alert", { user, body, as }), AddAlertResponseSchema).id;
}

const overspeed = (device: number, extra: Record<string, unknown> = {}) => ({ name: "Too fast", type: "overspeed", devices: [device], overspeed: 90, ...extra });

async function alertItem(h: ApiHarness, user: TestUser, id: number): Promise<AlertRecord> {
  return ok(await h.get("/edit_alert_data", { user, query: { alert_id: id } }), EditAlertDataResponseSchema).item;
}

async function alertRows(h: ApiHarness, user: TestUser) {
  // The API package has no drizzle-orm of its own to filter with; suites' tables are small.
  return (await h.db.select().from(schema.alerts)).filter((r) => r.userId === user.id).sort((x, y) => x.id - y.id);
}

/** The 7×96 schedule of a record with `slots` on. */
function week(slots: Partial<Record<string, string[]>>) {
  return WEEKDAYS.map((day) => ({ id: day, title: day[0]!.toUpperCase() + day.slice(1), items: SCHEDULE_SLOTS.map((s) => ({ id: s, title: s, active: (slots[day] ?? []).includes(s) })) }));
}

describeApi("alerts", (h) => {
  describe("get_protocols and add_alert_data", () => {
    it("lists the protocol catalogue as event type 1 and no system-event protocols", async () => {
      const user = await h.newUser();
      const body = ok(await h.get("/get_protocols", { user }), GetProtocolsResponseSchema);
      expect(body[0]).toEqual({ id: 0, value: { type: 1, items: protocols.map((p) => ({ id: p, value: p })) } });
      expect(body[1]).toEqual({ id: 1, value: { type: 2, items: [] } });
    });

    it("lists the user's own records, every type with its attributes, the channels and a full week of quarter hours", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const device = await h.addDevice(a, { name: "Van" });
      const geofence = await addGeofence(h, a, "Depot");
      const event = await addCustomEvent(h, a, "Speeding");
      const driver = await addDriver(h, a, device);
      await h.addDevice(b, { name: "Not yours" });
      await addGeofence(h, b, "Not yours either");

      const data = ok(await h.get("/add_alert_data", { user: a }), AddAlertDataResponseSchema);
      expect(data.devices).toEqual([{ id: device, value: "Van" }]);
      expect(data.geofences).toEqual([{ id: geofence, value: "Depot" }]);
      expect(data.drivers).toEqual([{ id: driver, value: "Jonas" }]);
      expect(data.alert_zones).toEqual([
        { id: 0, value: "None" },
        { id: 1, value: "Zone in" },
        { id: 2, value: "Zone out" },
      ]);
      expect(data.event_types.map((t) => t.id)).toEqual([1, 2]);
      expect(data.event_protocols[0]).toEqual({ id: "-", value: "- Protocol -" });
      expect(data.types.map((t) => t.type)).toEqual(ALERT_TYPES.map((t) => t.type));
      for (const t of ["overspeed", "geofence_in", "geofence_out", "geofence_inout", "custom", "stop_duration", "offline_duration", "idle_duration", "ignition_duration", "driver", "distance", "sos", "fuel_change", "driver_unauthorized", "unplugged", "ignition", "move_start", "move_duration", "poi_stop_duration", "poi_idle_duration"]) {
        expect(data.types.map((x) => x.type)).toContain(t);
      }
      const attrs = (type: string) => data.types.find((t) => t.type === type)!.attributes;
      expect(attrs("overspeed")).toEqual([{ name: "overspeed", type: "integer", title: "Speed limit (km/h)", default: "90", options: null }]);
      expect(attrs("geofence_in")).toEqual([{ name: "geofences", type: "multiselect", title: "Geofences", default: [], options: [{ id: geofence, value: "Depot" }] }]);
      expect(attrs("custom")[0]!.options).toEqual([{ id: event, value: "Speeding" }]);
      expect(attrs("driver")[0]!.options).toEqual([{ id: driver, value: "Jonas" }]);
      expect(attrs("fuel_change").map((x) => x.name)).toEqual(["state", "fuel_amount", "fuel_unit"]);
      expect(attrs("sos")).toEqual([]);
      expect(attrs("move_duration")).toEqual([
        { name: "move_duration", type: "integer", title: "Moving for longer than (minutes)", default: "60", options: null },
        { name: "min_parking_duration", type: "integer", title: "Stops shorter than this do not end the movement (minutes)", default: "0", options: null },
      ]);
      expect(attrs("driver_unauthorized")[0]!.options).toEqual([{ id: driver, value: "Jonas" }]);
      expect(data.notifications.map((n) => n.name)).toEqual(["sound", "push", "email", "sms", "webhook", "command", "silent"]);
      expect(data.notifications.every((n) => n.active === false)).toBe(true);
      expect(data.schedules.map((d) => d.id)).toEqual([...WEEKDAYS]);
      for (const day of data.schedules) {
        expect(day.items).toHaveLength(96);
        expect(day.items[0]).toEqual({ id: "00:00", title: "00:00", active: true });
        expect(day.items[95]!.id).toBe("23:45");
      }
    });
  });

  describe("an alert with a custom event and a zone, read back as saved", () => {
    it("stores every field and edit_alert_data and get_alerts return it exactly", async () => {
      // Timezone 65 is UTC+02:00.
      const user = await h.newUser({ timezoneId: 65 });
      const device = await h.addDevice(user);
      const geofence = await addGeofence(h, user, "Yard");
      const event = await addCustomEvent(h, user, "Over 100");
      const body = {
        name: "Yard speeding",
        type: "custom",
        devices: [device],
        events_custom: [event],
        zone: 1,
        zones: [geofence],
        schedule: true,
        schedules: { monday: ["08:15", "08:00", "08:00"], friday: ["23:45"] },
        notifications: {
          sound: { active: true },
          push: { active: false },
          email: { active: true, input: "ops@example.com; boss@example.com" },
          sms: { active: true, input: "+37060000000" },
          webhook: { active: true, input: "https://hooks.example.com/fleet" },
          command: { active: true, type: "engineStop" },
          silent: { active: true, input: 15 },
        },
      };
      const id = await addAlert(h, user, body);
      const row = (await alertRows(h, user)).find((r) => r.id === id)!;
      const expected: AlertRecord = {
        id,
        user_id: user.id,
        active: 1,
        name: "Yard speeding",
        type: "custom",
        created_at: userClock({ timezoneId: 65 }).format(row.createdAt.getTime()),
        updated_at: userClock({ timezoneId: 65 }).format(row.updatedAt.getTime()),
        devices: [device],
        drivers: [],
        geofences: [],
        events_custom: [event],
        pois: [],
        zone: 1,
        zones: [{ id: geofence, name: "Yard" }],
        schedule: true,
        schedules: week({ monday: ["08:00", "08:15"], friday: ["23:45"] }),
        notifications: {
          sound: { active: true },
          push: { active: false },
          email: { active: true, input: "ops@example.com; boss@example.com" },
          sms: { active: true, input: "+37060000000" },
          webhook: { active: true, input: "https://hooks.example.com/fleet" },
          command: { active: true, type: "engineStop", key: null },
          silent: { active: true, input: 15 },
        },
      };
      const data = ok(await h.get("/edit_alert_data", { user, query: { alert_id: id } }), EditAlertDataResponseSchema);
      expect(data.item).toEqual(expected);
      expect(data.notifications.find((n) => n.name === "email")).toMatchObject({ active: true, input: "ops@example.com; boss@example.com" });
      expect(data.notifications.find((n) => n.name === "command")).toMatchObject({ active: true, input: "engineStop" });
      expect(data.notifications.find((n) => n.name === "silent")).toMatchObject({ active: true, input: "15" });
      expect(data.schedules).toEqual(expected.schedules);
      expect(data.geofences).toEqual([{ id: geofence, value: "Yard" }]);
      expect(ok(await h.get("/get_alerts", { user }), GetAlertsResponseSchema).items.alerts).toEqual([expected]);
    });

    it("shows a type's attributes as fields of the record and nothing of other types", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const id = await addAlert(h, user, { ...overspeed(device), stop_duration: 5, drivers: [] });
      const item = await alertItem(h, user, id);
      expect(item).toMatchObject({ type: "overspeed", overspeed: 90, zone: 0, zones: [], schedule: false, active: 1 });
      expect(item).not.toHaveProperty("stop_duration");
      const fuel = await addAlert(h, user, { name: "Theft", type: "fuel_change", devices: [device], state: 2, fuel_amount: 15, fuel_unit: 3 });
      expect(await alertItem(h, user, fuel)).toMatchObject({ state: 2, fuel_amount: 15, fuel_unit: 3 });
      const sos = await addAlert(h, user, { name: "SOS", type: "sos", devices: [device] });
      expect((await alertItem(h, user, sos)).notifications).toEqual({
        sound: { active: false },
        push: { active: false },
        email: { active: false, input: "" },
        sms: { active: false, input: "" },
        webhook: { active: false, input: "" },
        command: null,
        silent: { active: false, input: 0 },
      });
    });

    it("accepts form and multipart bodies with bracketed names", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const geofence = await addGeofence(h, user, "Gate");
      for (const as of ["form", "multipart"] as const) {
        const id = await addAlert(
          h,
          user,
          {
            name: `By ${as}`,
            type: "geofence_inout",
            "devices[]": device,
            "geofences[]": geofence,
            schedule: 1,
            "schedules[sunday][]": "22:00",
            "notifications[email][active]": 1,
            "notifications[email][input]": "a@example.com",
            "notifications[push][active]": "1",
          },
          as,
        );
        const item = await alertItem(h, user, id);
        expect(item).toMatchObject({ name: `By ${as}`, devices: [device], geofences: [geofence], schedule: true, notifications: { email: { active: true, input: "a@example.com" }, push: { active: true } } });
        expect(item.schedules.find((d) => d.id === "sunday")!.items.filter((i) => i.active).map((i) => i.id)).toEqual(["22:00"]);
      }
    });
  });

  describe("alertPost validation", () => {
    it("requires each type's attributes and checks their bounds", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const cases: [Record<string, unknown>, string][] = [
        [{ type: "overspeed" }, "overspeed"],
        [{ type: "overspeed", overspeed: 0 }, "overspeed"],
        [{ type: "overspeed", overspeed: 1001 }, "overspeed"],
        [{ type: "geofence_in" }, "geofences"],
        [{ type: "custom", events_custom: [] }, "events_custom"],
        [{ type: "stop_duration" }, "stop_duration"],
        [{ type: "offline_duration", offline_duration: 43_201 }, "offline_duration"],
        [{ type: "idle_duration", idle_duration: "ten" }, "idle_duration"],
        [{ type: "ignition_duration" }, "ignition_duration"],
        [{ type: "distance", distance: 10 }, "distance_unit"],
        [{ type: "distance", distance: 10, distance_unit: 3 }, "distance_unit"],
        [{ type: "fuel_change", state: 3, fuel_amount: 5, fuel_unit: 1 }, "state"],
        [{ type: "fuel_change", state: 1, fuel_unit: 1 }, "fuel_amount"],
        [{ type: "teleport" }, "type"],
      ];
      for (const [fields, field] of cases) {
        expect(Object.keys(invalid(await h.post("/add_alert", { user, body: { name: "X", devices: [device], ...fields } }))), JSON.stringify(fields)).toContain(field);
      }
      // Optional for a driver alert: no drivers means any driver change.
      await addAlert(h, user, { name: "Any driver", type: "driver", devices: [device] });
      expect(await alertRows(h, user)).toHaveLength(1);
    });

    it("checks name, devices, zone, schedules and every active channel's input", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const cases: [Record<string, unknown>, string][] = [
        [{ name: "   " }, "name"],
        [{ name: "x".repeat(256) }, "name"],
        [{ devices: [] }, "devices"],
        [{ devices: ["abc"] }, "devices.0"],
        [{ zone: 3 }, "zone"],
        [{ zone: 1 }, "zones"],
        [{ zone: 2, zones: [] }, "zones"],
        [{ schedule: true }, "schedules"],
        [{ schedules: { munday: ["08:00"] } }, "schedules"],
        [{ schedules: { monday: ["08:10"] } }, "schedules.monday.0"],
        [{ schedules: { monday: ["24:00"] } }, "schedules.monday.0"],
        [{ notifications: { email: { active: true, input: "not an address" } } }, "notifications.email.input"],
        [{ notifications: { email: { active: true } } }, "notifications.email.input"],
        [{ notifications: { email: { active: true, input: Array.from({ length: 21 }, (_, i) => `u${i}@example.com`).join(";") } } }, "notifications.email.input"],
        [{ notifications: { sms: { active: 1, input: "call me" } } }, "notifications.sms.input"],
        [{ notifications: { webhook: { active: "1", input: "ftp://example.com/x" } } }, "notifications.webhook.input"],
        [{ notifications: { webhook: { active: true, input: "javascript:alert(1)" } } }, "notifications.webhook.input"],
        [{ notifications: { webhook: { active: true, input: "http://hooks.example.com/a\r\nX-Injected: 1" } } }, "notifications.webhook.input"],
        [{ notifications: { webhook: { active: true, input: "http://hooks.example.com/a b" } } }, "notifications.webhook.input"],
        [{ notifications: { command: { active: true, type: "selfDestruct" } } }, "notifications.command.type"],
        [{ command: { active: true, type: "selfDestruct" } }, "command.type"],
        [{ notifications: { email: { active: "maybe" } } }, "notifications.email.active"],
      ];
      for (const [fields, field] of cases) {
        expect(Object.keys(invalid(await h.post("/add_alert", { user, body: overspeed(device, fields) }))), JSON.stringify(fields)).toContain(field);
      }
      expect(await alertRows(h, user)).toHaveLength(0);
      // An inactive channel's input is kept as typed, unchecked.
      const id = await addAlert(h, user, overspeed(device, { notifications: { email: { active: false, input: "draft" } } }));
      expect((await alertItem(h, user, id)).notifications.email).toEqual({ active: false, input: "draft" });
    });

    it("reads the command at the body's top level, where the vendor's add_alert puts it, unless notifications name one", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const top = await addAlert(h, user, overspeed(device, { command: { active: 1, type: "engineStop" } }));
      expect((await alertItem(h, user, top)).notifications.command).toEqual({ active: true, type: "engineStop", key: null });
      const both = await addAlert(h, user, overspeed(device, { command: { active: 1, type: "engineStop" }, notifications: { command: { active: 1, type: "alarmArm" } } }));
      expect((await alertItem(h, user, both)).notifications.command).toEqual({ active: true, type: "alarmArm", key: null });
    });

    it("answers ids that are not the user's records alike, missing or foreign, on each field, and writes nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const device = await h.addDevice(a);
      const theirs = { device: await h.addDevice(b), geofence: await addGeofence(h, b, "B's"), event: await addCustomEvent(h, b), driver: await addDriver(h, b, await h.addDevice(b)), poi: await addPoi(h, b, "B's") };
      const missing = { device: 2_000_000_000, geofence: 2_000_000_000, event: 2_000_000_000, driver: 2_000_000_000, poi: 2_000_000_000 };
      const bodies = (r: typeof theirs): [Record<string, unknown>, string][] => [
        [overspeed(device, { devices: [device, r.device] }), "devices"],
        [overspeed(device, { zone: 1, zones: [r.geofence] }), "zones"],
        [{ name: "G", type: "geofence_out", devices: [device], geofences: [r.geofence] }, "geofences"],
        [{ name: "C", type: "custom", devices: [device], events_custom: [r.event] }, "events_custom"],
        [{ name: "D", type: "driver", devices: [device], drivers: [r.driver] }, "drivers"],
        [{ name: "P", type: "poi_stop_duration", devices: [device], pois: [r.poi], stop_duration: 10, distance_tolerance: 100 }, "pois"],
      ];
      const missingBodies = bodies(missing);
      for (const [i, [body, field]] of bodies(theirs).entries()) {
        const foreign = await h.post("/add_alert", { user: a, body });
        expect(invalid(foreign)).toEqual({ [field]: expect.any(String) });
        expect(foreign.body).toEqual((await h.post("/add_alert", { user: a, body: missingBodies[i]![0] })).body);
      }
      expect(await alertRows(h, a)).toHaveLength(0);
    });

    it("stores injection text as plain text", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const name = "'; DROP TABLE alerts; -- <script>";
      const id = await addAlert(h, user, overspeed(device, { name }));
      expect((await alertItem(h, user, id)).name).toBe(name);
      expect(Object.keys(invalid(await h.post("/add_alert", { user, body: overspeed(device, { overspeed: "90; DROP TABLE alerts" }) })))).toEqual(["overspeed"]);
      expect(Object.keys(invalid(await h.post("/add_alert", { user, body: overspeed(device, { devices: { $ne: 1 } }) })))).toEqual(["devices"]);
    });
  });

  describe("silence: notifications.silent", () => {
    it("stores the silence in the alert's notifications and shows it back in the vendor's shape; an edit keeps or replaces it", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const id = await addAlert(h, user, overspeed(device, { notifications: { silent: { active: 1, input: 10 } } }));
      expect((await alertRows(h, user))[0]!.notifications.silent).toEqual({ active: true, input: 10 });
      expect((await alertItem(h, user, id)).notifications.silent).toEqual({ active: true, input: 10 });
      expect(ok(await h.get("/get_alerts", { user }), GetAlertsResponseSchema).items.alerts[0]!.notifications.silent).toEqual({ active: true, input: 10 });

      // From a form, as the vendor's clients post it.
      const form = await addAlert(h, user, { name: "Form", type: "sos", "devices[]": device, "notifications[silent][active]": "1", "notifications[silent][input]": "30" }, "form");
      expect((await alertItem(h, user, form)).notifications.silent).toEqual({ active: true, input: 30 });

      const edit = async (notifications?: Record<string, unknown>) => ok(await h.post("/edit_alert", { user, body: { id, name: "Too fast", type: "overspeed", devices: [device], ...(notifications ? { notifications } : {}) } }), AlertOkResponseSchema);
      // Left out: kept. Turned off without minutes: the minutes are kept for next time.
      await edit();
      expect((await alertItem(h, user, id)).notifications.silent).toEqual({ active: true, input: 10 });
      await edit({ silent: { active: 0 } });
      expect((await alertItem(h, user, id)).notifications.silent).toEqual({ active: false, input: 10 });
      await edit({ silent: { active: 1 } });
      expect((await alertItem(h, user, id)).notifications.silent).toEqual({ active: true, input: 10 });
      await edit({ silent: { active: 1, input: 43_200 } });
      expect((await alertItem(h, user, id)).notifications.silent).toEqual({ active: true, input: 43_200 });
      // An empty form's silence: off, no minutes.
      await edit({ silent: { active: 0, input: 0 } });
      expect((await alertItem(h, user, id)).notifications.silent).toEqual({ active: false, input: 0 });
    });

    it("shows an alert that never set a silence as off with 0 minutes, without storing one", async () => {
      const user = await h.newUser();
      const id = await addAlert(h, user, overspeed(await h.addDevice(user)));
      expect((await alertRows(h, user))[0]!.notifications).not.toHaveProperty("silent");
      expect((await alertItem(h, user, id)).notifications.silent).toEqual({ active: false, input: 0 });
      const data = ok(await h.get("/edit_alert_data", { user, query: { alert_id: id } }), EditAlertDataResponseSchema);
      expect(data.notifications.find((n) => n.name === "silent")).toMatchObject({ active: false, input: "" });
    });

    it("refuses an active silence without whole minutes from 1 to 43200, and bad minutes whether active or not, with a 422 on the field, writing nothing", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const cases: [Record<string, unknown>, string][] = [
        [{ active: 1 }, "notifications.silent.input"],
        [{ active: true, input: 0 }, "notifications.silent.input"],
        [{ active: 1, input: 43_201 }, "notifications.silent.input"],
        [{ active: 0, input: -1 }, "notifications.silent.input"],
        [{ active: 1, input: 2.5 }, "notifications.silent.input"],
        [{ active: 1, input: "ten" }, "notifications.silent.input"],
        [{ active: "maybe", input: 5 }, "notifications.silent.active"],
      ];
      for (const [silent, field] of cases) {
        expect(Object.keys(invalid(await h.post("/add_alert", { user, body: overspeed(device, { notifications: { silent } }) }))), JSON.stringify(silent)).toEqual([field]);
      }
      // The whole failure body, as for the other channels.
      const refused = await h.post("/add_alert", { user, body: overspeed(device, { notifications: { silent: { active: 1 } } }) });
      expect([refused.status, refused.body]).toEqual([422, { status: 0, errors: { "notifications.silent.input": "Give the minutes to stay silent, 1 to 43200." } }]);
      expect(await alertRows(h, user)).toHaveLength(0);

      const id = await addAlert(h, user, overspeed(device, { notifications: { silent: { active: 1, input: 5 } } }));
      const before = await alertRows(h, user);
      for (const silent of [{ active: 1, input: 0 }, { active: 1, input: 50_000 }]) {
        expect(Object.keys(invalid(await h.post("/edit_alert", { user, body: { id, name: "X", type: "overspeed", devices: [device], notifications: { silent } } })))).toEqual(["notifications.silent.input"]);
      }
      expect(await alertRows(h, user)).toEqual(before);
    });
  });

  describe("edit_alert", () => {
    it("keeps what is left out, replaces what is given and changes type with its attributes", async () => {
      const user = await h.newUser();
      const [d1, d2] = [await h.addDevice(user), await h.addDevice(user)];
      const geofence = await addGeofence(h, user, "Zone");
      const id = await addAlert(h, user, overspeed(d1, { zone: 2, zones: [geofence], schedule: 1, schedules: { tuesday: ["10:00"] }, notifications: { sms: { active: 1, input: "+3701234567" } } }));
      const before = await alertItem(h, user, id);

      ok(await h.post("/edit_alert", { user, body: { id, name: "Renamed", type: "overspeed", devices: [d2, d1] } }), AlertOkResponseSchema);
      const kept = await alertItem(h, user, id);
      expect(kept).toEqual({ ...before, name: "Renamed", devices: [d1, d2], updated_at: kept.updated_at });

      // Toggling a channel off without its input keeps the input.
      ok(await h.post("/edit_alert", { user, body: { id, name: "Renamed", type: "overspeed", devices: [d1], notifications: { sms: { active: 0 } } } }), AlertOkResponseSchema);
      expect((await alertItem(h, user, id)).notifications.sms).toEqual({ active: false, input: "+3701234567" });

      // A new type needs its own attributes; the old type's go.
      expect(Object.keys(invalid(await h.post("/edit_alert", { user, body: { id, name: "Stops", type: "stop_duration", devices: [d1] } })))).toEqual(["stop_duration"]);
      ok(await h.post("/edit_alert", { user, body: { id, name: "Stops", type: "stop_duration", devices: [d1], stop_duration: 30, zone: 0, schedule: false, active: 0 } }), AlertOkResponseSchema);
      const changed = await alertItem(h, user, id);
      expect(changed).toMatchObject({ type: "stop_duration", stop_duration: 30, zone: 0, zones: [{ id: geofence, name: "Zone" }], schedule: false, active: 0 });
      expect(changed).not.toHaveProperty("overspeed");
    });

    it("stores a move_duration alert with or without its min_parking_duration, and refuses one out of bounds", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const body = (over: Record<string, unknown>) => ({ name: "Long drives", type: "move_duration", devices: [device], move_duration: 120, ...over });
      const withGrace = await addAlert(h, user, body({ min_parking_duration: 5 }));
      expect(await alertItem(h, user, withGrace)).toMatchObject({ type: "move_duration", move_duration: 120, min_parking_duration: 5 });
      const without = await addAlert(h, user, body({}));
      const item = await alertItem(h, user, without);
      expect(item).toMatchObject({ type: "move_duration", move_duration: 120 });
      expect(item).not.toHaveProperty("min_parking_duration");
      expect(Object.keys(invalid(await h.post("/add_alert", { user, body: body({ min_parking_duration: -1 }) })))).toEqual(["min_parking_duration"]);
      expect(Object.keys(invalid(await h.post("/add_alert", { user, body: body({ move_duration: undefined }) })))).toEqual(["move_duration"]);
    });

    it("stores a point-of-interest alert with its points, lists them on the form, and drops a deleted one", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const [depot, yard] = [await addPoi(h, user, "Depot"), await addPoi(h, user, "Yard")];
      const id = await addAlert(h, user, { name: "Long stops", type: "poi_stop_duration", devices: [device], pois: [depot, yard], stop_duration: 30, distance_tolerance: 150 });
      expect(await alertItem(h, user, id)).toMatchObject({ type: "poi_stop_duration", pois: [depot, yard], stop_duration: 30, distance_tolerance: 150 });
      const data = ok(await h.get("/add_alert_data", { user }), AddAlertDataResponseSchema);
      expect(data.types.find((t) => t.type === "poi_idle_duration")!.attributes.map((a) => [a.name, a.options])).toEqual([
        ["pois", [{ id: depot, value: "Depot" }, { id: yard, value: "Yard" }]],
        ["idle_duration", null],
        ["distance_tolerance", null],
      ]);
      expect(Object.keys(invalid(await h.post("/add_alert", { user, body: { name: "No points", type: "poi_idle_duration", devices: [device], idle_duration: 5, distance_tolerance: 50 } })))).toEqual(["pois"]);
      ok(await h.get("/destroy_map_icon", { user, query: { map_icon_id: yard } }), GeoOkSchema);
      expect((await alertItem(h, user, id)).pois).toEqual([depot]);
    });

    it("writes nothing when any part is refused", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const device = await h.addDevice(a);
      const id = await addAlert(h, a, overspeed(device));
      const before = await alertRows(h, a);
      const bad = [
        { id, name: "X", type: "overspeed", devices: [device, await h.addDevice(b)] },
        { id, name: "X", type: "overspeed", devices: [device], notifications: { webhook: { active: 1, input: "nope" } } },
        { id, name: "X", type: "overspeed", devices: [device], overspeed: 5000 },
      ];
      for (const body of bad) invalid(await h.post("/edit_alert", { user: a, body }));
      expect(await alertRows(h, a)).toEqual(before);
      expect((await h.db.select().from(schema.alertDevices)).filter((r) => r.alertId === id)).toEqual([{ alertId: id, deviceId: device, activeFrom: null, activeTo: null }]);
    });

    it("answers another user's alert as a missing one and leaves it alone", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const id = await addAlert(h, a, overspeed(await h.addDevice(a)));
      const before = await alertItem(h, a, id);
      const bDevice = await h.addDevice(b);
      for (const alertId of [id, 2_000_000_000]) {
        expect(failure(await h.post("/edit_alert", { user: b, body: overspeed(bDevice, { id: alertId }) }), 404)).toBe("Alert not found.");
        expect(failure(await h.get("/edit_alert_data", { user: b, query: { alert_id: alertId } }), 404)).toBe("Alert not found.");
        expect(failure(await h.get("/destroy_alert", { user: b, query: { alert_id: alertId } }), 404)).toBe("Alert not found.");
        expect(failure(await h.get("/set_alert_devices", { user: b, query: { alert_id: alertId, devices: bDevice } }), 404)).toBe("Alert not found.");
        expect(failure(await h.get("/change_active_alert", { user: b, query: { id: alertId, active: "false" } }), 404)).toBe("Alert not found.");
      }
      expect(await alertItem(h, a, id)).toEqual(before);
      expect(ok(await h.get("/get_alerts", { user: b }), GetAlertsResponseSchema).items.alerts).toEqual([]);
    });
  });

  describe("destroy, change_active_alert and set_alert_devices", () => {
    it("deletes the user's alert", async () => {
      const user = await h.newUser();
      const id = await addAlert(h, user, overspeed(await h.addDevice(user)));
      ok(await h.get("/destroy_alert", { user, query: { alert_id: id } }), AlertOkResponseSchema);
      expect(await alertRows(h, user)).toEqual([]);
      failure(await h.get("/destroy_alert", { user, query: { alert_id: id } }), 404);
    });

    it("turns alerts on and off by one id or many, all or nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const device = await h.addDevice(a);
      const [x, y] = [await addAlert(h, a, overspeed(device)), await addAlert(h, a, overspeed(device))];
      const theirs = await addAlert(h, b, overspeed(await h.addDevice(b)));
      const actives = async () => ok(await h.get("/get_alerts", { user: a }), GetAlertsResponseSchema).items.alerts.map((r) => r.active);

      ok(await h.get("/change_active_alert", { user: a, query: { id: x, active: "false" } }), AlertOkResponseSchema);
      expect(await actives()).toEqual([0, 1]);
      ok(await h.inject({ method: "GET", url: `/api/change_active_alert?lang=en&user_api_hash=${a.hash}&id[]=${x}&id[]=${y}&active=0` }), AlertOkResponseSchema);
      expect(await actives()).toEqual([0, 0]);
      ok(await h.post("/change_active_alert", { user: a, body: { id: [x, y], active: true } }), AlertOkResponseSchema);
      expect(await actives()).toEqual([1, 1]);
      expect(failure(await h.post("/change_active_alert", { user: a, body: { id: [x, theirs], active: false } }), 404)).toBe("Alert not found.");
      expect(await actives()).toEqual([1, 1]);
      // The vendor's body types active "boolean or null" and does not require it: null or left out is off.
      ok(await h.post("/change_active_alert", { user: a, body: { id: x, active: null } }), AlertOkResponseSchema);
      expect(await actives()).toEqual([0, 1]);
      ok(await h.get("/change_active_alert", { user: a, query: { id: y } }), AlertOkResponseSchema);
      expect(await actives()).toEqual([0, 0]);
      const queries: Record<string, string | number>[] = [{ id: x, active: "maybe" }, { id: "abc", active: "1" }, { id: 0, active: "1" }];
      for (const query of queries) invalid(await h.get("/change_active_alert", { user: a, query }));
    });

    it("replaces an alert's devices from the query or a body, refusing devices that are not the user's", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const [d1, d2, d3] = [await h.addDevice(a), await h.addDevice(a), await h.addDevice(a)];
      const id = await addAlert(h, a, overspeed(d1));
      ok(await h.inject({ method: "GET", url: `/api/set_alert_devices?lang=en&user_api_hash=${a.hash}&alert_id=${id}&devices[]=${d2}&devices[]=${d3}` }), AlertOkResponseSchema);
      expect((await alertItem(h, a, id)).devices).toEqual([d2, d3]);
      ok(await h.post("/set_alert_devices", { user: a, query: { alert_id: id }, body: { devices: [d1] } }), AlertOkResponseSchema);
      const item = await alertItem(h, a, id);
      expect(item.devices).toEqual([d1]);
      // The same set again is no change at all.
      const [row] = (await alertRows(h, a)).filter((r) => r.id === id);
      ok(await h.get("/set_alert_devices", { user: a, query: { alert_id: id, devices: d1 } }), AlertOkResponseSchema);
      const [after] = (await alertRows(h, a)).filter((r) => r.id === id);
      expect(after!.updatedAt).toEqual(row!.updatedAt);

      const foreign = await h.get("/set_alert_devices", { user: a, query: { alert_id: id, devices: await h.addDevice(b) } });
      expect(invalid(foreign)).toEqual({ devices: "The selected devices are invalid." });
      expect((await h.get("/set_alert_devices", { user: a, query: { alert_id: id, devices: 2_000_000_000 } })).body).toEqual(foreign.body);
      invalid(await h.post("/set_alert_devices", { user: a, query: { alert_id: id }, body: { devices: [] } }));
      expect((await alertItem(h, a, id)).devices).toEqual([d1]);
    });

    it("leaves records that are gone out of the alert's lists", async () => {
      const user = await h.newUser();
      const [d1, d2] = [await h.addDevice(user), await h.addDevice(user)];
      const event = await addCustomEvent(h, user);
      const other = await addCustomEvent(h, user, "Other");
      const id = await addAlert(h, user, { name: "C", type: "custom", devices: [d1, d2], events_custom: [event, other] });
      ok(await h.get("/destroy_custom_event", { user, query: { custom_event_id: event } }), AlertOkResponseSchema);
      ok(await h.get("/destroy_device", { user, query: { device_id: d2 } }), AlertOkResponseSchema);
      expect(await alertItem(h, user, id)).toMatchObject({ devices: [d1], events_custom: [other] });
      // An edit that keeps the type keeps the remaining events.
      ok(await h.post("/edit_alert", { user, body: { id, name: "C", type: "custom", devices: [d1] } }), AlertOkResponseSchema);
      expect((await alertItem(h, user, id)).events_custom).toEqual([other]);
    });
  });

  describe("get_custom_events_by_device", () => {
    it("groups the user's custom events by the protocols the devices report", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const [osmand, gt06, silent] = [await h.addDevice(a), await h.addDevice(a), await h.addDevice(a)];
      await h.live.putStates([
        { state: liveState(osmand, { protocol: "osmand" }), userIds: [a.id] },
        { state: liveState(gt06, { protocol: "gt06" }), userIds: [a.id] },
      ]);
      const e1 = await addCustomEvent(h, a, "Fast", "osmand");
      const e2 = await addCustomEvent(h, a, "Cut", "gt06");
      const e3 = await addCustomEvent(h, a, "Tilt", "teltonika");
      await addCustomEvent(h, b, "B's", "osmand");
      const get = async (query: Record<string, string | number> = {}) => {
        const res = await h.get("/get_custom_events_by_device", { user: a, query });
        expect(res.status, res.text).toBe(200);
        return res.body;
      };
      expect(await get({ devices: osmand })).toEqual([{ key: "osmand", name: "osmand", items: [{ id: e1, value: "Fast" }] }]);
      const both = await h.inject({ method: "GET", url: `/api/get_custom_events_by_device?lang=en&user_api_hash=${a.hash}&devices[]=${osmand}&devices[]=${gt06}&devices[]=${silent}` });
      expect(both.body).toEqual([
        { key: "gt06", name: "gt06", items: [{ id: e2, value: "Cut" }] },
        { key: "osmand", name: "osmand", items: [{ id: e1, value: "Fast" }] },
      ]);
      expect(await get({ devices: silent })).toEqual([]);
      expect((await get()) as unknown[]).toHaveLength(3);
      expect(JSON.stringify(await get())).toContain(`"id":${e3}`);
      const posted = await h.post("/get_custom_events_by_device", { user: a, body: { devices: [gt06] } });
      expect(posted.body).toEqual([{ key: "gt06", name: "gt06", items: [{ id: e2, value: "Cut" }] }]);
      const foreign = await h.get("/get_custom_events_by_device", { user: a, query: { devices: await h.addDevice(b) } });
      expect(invalid(foreign)).toEqual({ devices: "The selected devices are invalid." });
      expect((await h.get("/get_custom_events_by_device", { user: a, query: { devices: 2_000_000_000 } })).body).toEqual(foreign.body);
      expect(JSON.stringify(await get())).not.toContain("B's");
    });
  });
});

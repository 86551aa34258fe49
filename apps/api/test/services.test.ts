import { describe, expect, it } from "vitest";
import {
  AddServiceDataResponseSchema,
  AddServiceResponseSchema,
  EditServiceDataResponseSchema,
  GetDevicesLatestResponseSchema,
  GetDevicesResponseSchema,
  GetServicesResponseSchema,
  LiveServiceSchema,
  ServiceOkResponseSchema,
  userClock,
  type ServiceRecord,
} from "@fleet/contracts";
import { findUserService, services, type Service } from "@fleet/db";
import { todayIn } from "@fleet/sensors";
import { Type } from "@sinclair/typebox";
import { describeApi, expectSchema, failure, invalid, liveState, nextSecond, ok, type ApiHarness, type BodyEncoding, type TestUser } from "./fixture.js";

const REQUIRED = ["name", "expiration_by", "interval", "last_service", "trigger_event_left", "renew_after_expiration"];
const DAY_MS = 86_400_000;

/** A valid servicePost body (odometer, every 10000 from 6000, reminded 500 before); override or drop (undefined) any field. */
function serviceFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: "Oil change",
    expiration_by: "odometer",
    interval: "10000",
    last_service: "6000",
    trigger_event_left: "500",
    renew_after_expiration: 0,
    ...overrides,
  };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** `days` from today in the user's timezone, as `YYYY-MM-DD`. */
function dayFromToday(user: TestUser, days: number): string {
  return todayIn(Date.now() + days * DAY_MS, userClock(user));
}

async function addService(h: ApiHarness, user: TestUser, deviceId: number, overrides: Record<string, unknown> = {}, as: BodyEncoding = "json"): Promise<number> {
  return ok(await h.post("/add_service", { user, as, query: { device_id: deviceId }, body: serviceFields(overrides) }), AddServiceResponseSchema).id;
}

/** A device that reported 15000 km on the odometer and 250 engine hours. */
async function reportingDevice(h: ApiHarness, user: TestUser): Promise<number> {
  const id = await h.addDevice(user);
  await h.live.putStates([{ state: liveState(id, { odometerKm: 15_000, engineSeconds: 3600 * 250 }), userIds: [user.id] }]);
  return id;
}

async function item(h: ApiHarness, user: TestUser, serviceId: number): Promise<ServiceRecord> {
  return ok(await h.get("/edit_service_data", { user, query: { service_id: serviceId } }), EditServiceDataResponseSchema).item;
}

/** Every service row, for "nothing changed" checks (timestamps included). */
async function allRows(h: ApiHarness): Promise<Service[]> {
  return (await h.db.select().from(services)).sort((x, y) => x.id - y.id);
}

/** The stored row of one of the user's services. */
async function row(h: ApiHarness, user: TestUser, id: number): Promise<Service> {
  const found = await findUserService(h.db, user.id, id);
  expect(found, `service ${id}`).toBeDefined();
  return found!;
}

async function liveEntries(h: ApiHarness, user: TestUser, deviceId: number) {
  const groups = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema);
  return groups.flatMap((g) => g.items).find((i) => i.id === deviceId)!.services;
}

describeApi("maintenance services", (h) => {
  describe("add_service_data", () => {
    it("shows the device's current counters and the expiration_by options", async () => {
      const user = await h.newUser();
      const device = await reportingDevice(h, user);
      const data = ok(await h.get("/add_service_data", { user, query: { device_id: device } }), AddServiceDataResponseSchema);
      expect(data).toEqual({
        device_id: device,
        odometer_value: "15000",
        engine_hours_value: "250",
        expiration_by: { odometer: "Odometer", engine_hours: "Engine hours", days: "Days" },
        status: 1,
      });
    });

    it("counts 0 for a device that never reported, and shows miles to a user who counts in miles", async () => {
      const user = await h.newUser();
      const silent = await h.addDevice(user);
      expect(ok(await h.get("/add_service_data", { user, query: { device_id: silent } }), AddServiceDataResponseSchema)).toMatchObject({ odometer_value: "0", engine_hours_value: "0" });
      const miler = await h.newUser({ unitOfDistance: "mi" });
      const device = await reportingDevice(h, miler);
      expect(ok(await h.get("/add_service_data", { user: miler, query: { device_id: device } }), AddServiceDataResponseSchema).odometer_value).toBe("9320.57");
    });
  });

  describe("add_service", () => {
    it("creates a service from multipart, form or JSON, device_id in the query, the body or both", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const multipart = ok(await h.post("/add_service", { user, as: "multipart", query: { device_id: device }, body: serviceFields({ name: "A", renew_after_expiration: "1" }) }), AddServiceResponseSchema);
      const form = ok(await h.post("/add_service", { user, as: "form", body: serviceFields({ name: "B", device_id: device }) }), AddServiceResponseSchema);
      const json = ok(await h.post("/add_service", { user, query: { device_id: device }, body: serviceFields({ name: "C", device_id: device, renew_after_expiration: true }) }), AddServiceResponseSchema);
      expect(multipart).toEqual({ status: 1, id: expect.any(Number) });
      const rows = (await allRows(h)).filter((r) => r.userId === user.id);
      expect(rows.map((r) => [r.id, r.name, r.deviceId, r.renewAfterExpiration])).toEqual([
        [multipart.id, "A", device, true],
        [form.id, "B", device, false],
        [json.id, "C", device, true],
      ]);
      expect(rows[0]).toMatchObject({ expirationBy: "odometer", interval: 10_000, lastService: "6000", triggerEventLeft: 500, eventSent: false, email: "", mobilePhone: "" });
    });

    it("stores a days service's date, and email and phone lists", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const id = await addService(h, user, device, { expiration_by: "days", interval: "30", last_service: "2025-01-31", trigger_event_left: "7", email: "a@example.com, b@example.org", mobile_phone: "+370 600 00000" });
      expect(await row(h, user, id)).toMatchObject({ expirationBy: "days", interval: 30, lastService: "2025-01-31", triggerEventLeft: 7, email: "a@example.com,b@example.org", mobilePhone: "+370 600 00000" });
    });

    it("stores a mile user's odometer amounts in km and shows them back in miles", async () => {
      const user = await h.newUser({ unitOfDistance: "mi" });
      const device = await h.addDevice(user);
      const id = await addService(h, user, device, { interval: "5000", last_service: "1000", trigger_event_left: "250" });
      const stored = await row(h, user, id);
      expect(stored.interval).toBeCloseTo(8046.72, 6);
      expect(Number(stored.lastService)).toBeCloseTo(1609.344, 6);
      expect(await item(h, user, id)).toMatchObject({ interval: "5000", last_service: "1000", trigger_event_left: "250", expires: "6000", remind: "5750" });
    });

    it("refuses differing device ids in the query and the body, and a missing one", async () => {
      const user = await h.newUser();
      const [a, b] = [await h.addDevice(user), await h.addDevice(user)];
      const before = await allRows(h);
      expect(Object.keys(invalid(await h.post("/add_service", { user, query: { device_id: a }, body: serviceFields({ device_id: b }) })))).toEqual(["device_id"]);
      expect(invalid(await h.post("/add_service", { user, body: serviceFields() }))).toEqual({ device_id: "The device id field is required." });
      expect(await allRows(h)).toEqual(before);
    });
  });

  describe("computed state", () => {
    it("shows expires, remind and expired against the device's counters in edit_service_data", async () => {
      const user = await h.newUser();
      const device = await reportingDevice(h, user);
      const due = await addService(h, user, device, { interval: "10000", last_service: "6000", trigger_event_left: "500" });
      const over = await addService(h, user, device, { interval: "10000", last_service: "5000", trigger_event_left: "0" });
      const hours = await addService(h, user, device, { expiration_by: "engine_hours", interval: "100", last_service: "200", trigger_event_left: "60" });
      const data = ok(await h.get("/edit_service_data", { user, query: { service_id: due } }), EditServiceDataResponseSchema);
      expect(data).toMatchObject({ device_id: device, odometer_value: "15000", engine_hours_value: "250", expiration_by: { odometer: "Odometer" }, status: 1 });
      expect(data.item).toMatchObject({
        id: String(due),
        user_id: String(user.id),
        device_id: String(device),
        name: "Oil change",
        expiration_by: "odometer",
        interval: "10000",
        last_service: "6000",
        trigger_event_left: "500",
        renew_after_expiration: "0",
        expires: "16000",
        expires_date: null,
        remind: "15500",
        remind_date: null,
        event_sent: "0",
        expired: "0",
      });
      expect(data.item.device).toMatchObject({ id: String(device) });
      expect(await item(h, user, over)).toMatchObject({ expires: "15000", remind: "15000", expired: "1" });
      expect(await item(h, user, hours)).toMatchObject({ expires: "300", remind: "240", expired: "0" });
    });

    it("counts days from today in the user's timezone", async () => {
      // UTC+14:00 (id 113) is a day ahead of UTC for most of the day.
      const user = await h.newUser({ timezoneId: 113 });
      const device = await h.addDevice(user);
      const id = await addService(h, user, device, { expiration_by: "days", interval: "30", last_service: dayFromToday(user, -20), trigger_event_left: "15" });
      expect(await item(h, user, id)).toMatchObject({ expires: dayFromToday(user, 10), expires_date: dayFromToday(user, 10), remind: dayFromToday(user, -5), remind_date: dayFromToday(user, -5), expired: "0" });
      expect(await liveEntries(h, user, device)).toEqual([{ name: "Oil change", value: "10 days left", expiring: true }]);
    });

    it("rolls a renewing service on to its current cycle, read after read", async () => {
      const user = await h.newUser();
      const device = await reportingDevice(h, user);
      const id = await addService(h, user, device, { interval: "4000", last_service: "1000", trigger_event_left: "1000", renew_after_expiration: 1 });
      const first = await item(h, user, id);
      expect(first).toMatchObject({ last_service: "13000", expires: "17000", remind: "16000", expired: "0", renew_after_expiration: "1" });
      expect(await item(h, user, id)).toEqual(first);
      expect((await row(h, user, id)).lastService).toBe("1000");
    });

    it("shows event_sent for the cycle the rules service reminded of, and 0 once a renewing service rolled on", async () => {
      const user = await h.newUser();
      const device = await reportingDevice(h, user);
      const id = await addService(h, user, device, { interval: "4000", last_service: "1000", trigger_event_left: "1000", renew_after_expiration: 1 });
      // As the rules service marks a reminder: the flag and the cycle (its start in km) it went out for.
      await h.db.execute(`UPDATE services SET event_sent = true, notified_cycle = '13000' WHERE id = ${id}`);
      expect(await item(h, user, id)).toMatchObject({ last_service: "13000", event_sent: "1" });
      await h.live.putStates([{ state: liveState(device, { odometerKm: 17_200 }), userIds: [user.id] }]);
      expect(await item(h, user, id)).toMatchObject({ last_service: "17000", event_sent: "0" });
    });

    it("accepts the id as sensor_id, the spec's name for it", async () => {
      const user = await h.newUser();
      const id = await addService(h, user, await h.addDevice(user));
      expect(ok(await h.get("/edit_service_data", { user, query: { sensor_id: id } }), EditServiceDataResponseSchema).item.id).toBe(String(id));
      expect(invalid(await h.get("/edit_service_data", { user }))).toEqual({ service_id: "The service id field is required." });
    });
  });

  describe("live list", () => {
    it("lists each device's services with what is left and whether they are expiring", async () => {
      const user = await h.newUser();
      const device = await reportingDevice(h, user);
      const bare = await h.addDevice(user);
      await addService(h, user, device, { name: "Oil", interval: "10000", last_service: "6000", trigger_event_left: "500" });
      await addService(h, user, device, { name: "Tyres", interval: "10000", last_service: "5400", trigger_event_left: "500" });
      await addService(h, user, device, { name: "Brakes", interval: "10000", last_service: "5000" });
      await addService(h, user, device, { name: "Filter", expiration_by: "engine_hours", interval: "100", last_service: "200", trigger_event_left: "10" });
      const expected = [
        { name: "Oil", value: "1000 km left", expiring: false },
        { name: "Tyres", value: "400 km left", expiring: true },
        { name: "Brakes", value: "Expired", expiring: true },
        { name: "Filter", value: "50 h left", expiring: false },
      ];
      expect(await liveEntries(h, user, device)).toEqual(expected);
      expect(await liveEntries(h, user, bare)).toEqual([]);

      const latest = ok(await h.get("/get_devices_latest", { user }), GetDevicesLatestResponseSchema);
      const entry = latest.items.find((i) => i.id === device)!;
      expect(expectSchema(Type.Array(LiveServiceSchema), JSON.parse(entry.services), "services")).toEqual(expected);
    });

    it("shows miles to a user who counts in miles", async () => {
      const user = await h.newUser({ unitOfDistance: "mi" });
      const device = await reportingDevice(h, user);
      // 15000 km is 9320.57 mi: 679.43 mi to go, shown rounded up.
      await addService(h, user, device, { interval: "5000", last_service: "5000", trigger_event_left: "700" });
      expect(await liveEntries(h, user, device)).toEqual([{ name: "Oil change", value: "680 mi left", expiring: true }]);
    });

    it("tells get_devices_latest pollers about every service change", async () => {
      const user = await h.newUser();
      const [device, other] = [await h.addDevice(user), await h.addDevice(user)];
      const poll = async () => {
        await nextSecond();
        return ok(await h.get("/get_devices_latest", { user }), GetDevicesLatestResponseSchema).time;
      };
      const changed = async (since: number) => ok(await h.get("/get_devices_latest", { user, query: { time: since } }), GetDevicesLatestResponseSchema).items.map((i) => i.id).sort();

      let since = await poll();
      const id = await addService(h, user, device);
      expect(await changed(since)).toEqual([device]);

      since = await poll();
      ok(await h.post("/edit_service", { user, body: { id, ...serviceFields({ device_id: other }) } }), ServiceOkResponseSchema);
      expect(await changed(since)).toEqual([device, other].sort());

      since = await poll();
      ok(await h.get("/destroy_service", { user, query: { service_id: id } }), ServiceOkResponseSchema);
      expect(await changed(since)).toEqual([other]);
    });
  });

  describe("edit_service", () => {
    it("replaces the terms, clears the notification flag and can move the service to another device", async () => {
      const user = await h.newUser();
      const [device, other] = [await h.addDevice(user), await h.addDevice(user)];
      const id = await addService(h, user, device, { email: "old@example.com" });
      // What the rules service will do once it has notified the expiry. (Every row of the
      // suite's database: no test reads another test's flags.)
      await h.db.update(services).set({ eventSent: true });
      expect((await row(h, user, id)).eventSent).toBe(true);
      const body = { id, ...serviceFields({ device_id: device, name: "Inspection", expiration_by: "days", interval: "365", last_service: "2024-02-29", trigger_event_left: "30", renew_after_expiration: 1 }) };
      expect(ok(await h.post("/edit_service", { user, body }), ServiceOkResponseSchema)).toEqual({ status: 1 });
      expect(await row(h, user, id)).toMatchObject({ name: "Inspection", expirationBy: "days", interval: 365, lastService: "2024-02-29", triggerEventLeft: 30, renewAfterExpiration: true, eventSent: false, email: "" });

      ok(await h.post("/edit_service", { user, body: { ...body, device_id: other } }), ServiceOkResponseSchema);
      expect((await item(h, user, id)).device_id).toBe(String(other));
    });
  });

  describe("destroy_service and get_services", () => {
    it("pages a device's services and deletes one", async () => {
      const user = await h.newUser();
      const [device, other] = [await reportingDevice(h, user), await h.addDevice(user)];
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push(await addService(h, user, device, { name: `S${i}` }));
      await addService(h, user, other);

      const page = ok(await h.get("/get_services", { user, query: { device_id: device, per_page: 2 } }), GetServicesResponseSchema);
      expect(page).toMatchObject({ status: 1, total: 3, per_page: 2, current_page: 1, last_page: 2, from: 1, to: 2, prev_page_url: null });
      expect(page.next_page_url).toContain("page=2");
      expect(page.data.map((s) => s.id)).toEqual(ids.slice(0, 2).map(String));
      expect(page.data[0]).toMatchObject({ name: "S0", expires: "16000", remind: "15500", expired: "0" });
      const second = ok(await h.get("/get_services", { user, query: { device_id: device, per_page: 2, page: 2 } }), GetServicesResponseSchema);
      expect(second.data.map((s) => s.id)).toEqual([String(ids[2])]);

      expect(ok(await h.get("/destroy_service", { user, query: { service_id: ids[1]! } }), ServiceOkResponseSchema)).toEqual({ status: 1 });
      failure(await h.get("/edit_service_data", { user, query: { service_id: ids[1]! } }), 404);
      failure(await h.get("/destroy_service", { user, query: { service_id: ids[1]! } }), 404);
      const after = ok(await h.get("/get_services", { user, query: { device_id: device } }), GetServicesResponseSchema);
      expect(after.data.map((s) => s.id)).toEqual([ids[0], ids[2]].map(String));
      expect(after.total).toBe(2);
    });

    it("is an empty page for a device without services", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      expect(ok(await h.get("/get_services", { user, query: { device_id: device } }), GetServicesResponseSchema)).toMatchObject({ total: 0, data: [], from: 0, to: 0, last_page: 1 });
    });
  });

  describe("isolation", () => {
    it("answers another user's service and device ids with the same 404 as missing ones, changing nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await reportingDevice(h, a);
      const aService = await addService(h, a, aDevice);
      const bDevice = await h.addDevice(b);
      const bService = await addService(h, b, bDevice);
      const missing = 2_000_000_000;
      const before = await allRows(h);
      const aView = await item(h, a, aService);

      for (const [serviceId, what] of [[aService, "Service"], [missing, "Service"]] as const) {
        const expected = `${what} not found.`;
        expect(failure(await h.get("/edit_service_data", { user: b, query: { service_id: serviceId } }), 404)).toBe(expected);
        expect(failure(await h.get("/edit_service_data", { user: b, query: { sensor_id: serviceId } }), 404)).toBe(expected);
        expect(failure(await h.get("/destroy_service", { user: b, query: { service_id: serviceId } }), 404)).toBe(expected);
        expect(failure(await h.post("/edit_service", { user: b, body: { id: serviceId, ...serviceFields({ device_id: bDevice }) } }), 404)).toBe(expected);
      }
      for (const deviceId of [aDevice, missing]) {
        expect(failure(await h.get("/add_service_data", { user: b, query: { device_id: deviceId } }), 404)).toBe("Device not found.");
        expect(failure(await h.get("/get_services", { user: b, query: { device_id: deviceId } }), 404)).toBe("Device not found.");
        expect(failure(await h.post("/add_service", { user: b, query: { device_id: deviceId }, body: serviceFields() }), 404)).toBe("Device not found.");
        expect(failure(await h.post("/add_service", { user: b, as: "multipart", body: serviceFields({ device_id: deviceId }) }), 404)).toBe("Device not found.");
        // B's own service cannot be moved onto A's device.
        expect(failure(await h.post("/edit_service", { user: b, body: { id: bService, ...serviceFields({ device_id: deviceId }) } }), 404)).toBe("Device not found.");
      }

      expect(await allRows(h)).toEqual(before);
      expect(await item(h, a, aService)).toEqual(aView);
      expect(await liveEntries(h, b, bDevice)).toHaveLength(1);
      expect((await liveEntries(h, a, aDevice)).map((s) => s.name)).toEqual(["Oil change"]);
    });
  });

  describe("malformed input", () => {
    const bad: [string, Record<string, unknown>, string[]][] = [
      ["unknown expiration_by", { expiration_by: "weeks" }, ["expiration_by"]],
      ["negative interval", { interval: "-5" }, ["interval"]],
      ["zero interval", { interval: "0" }, ["interval"]],
      ["an interval that would read back 0", { interval: "0.001" }, ["interval"]],
      ["negative numbers", { last_service: "-1", trigger_event_left: "-1" }, ["last_service", "trigger_event_left"]],
      ["a date where a number belongs", { last_service: "2025-01-01" }, ["last_service"]],
      ["a number where a date belongs", { expiration_by: "days", last_service: "1000", interval: "30", trigger_event_left: "0" }, ["last_service"]],
      ["a date that does not exist", { expiration_by: "days", last_service: "2025-02-30", interval: "30", trigger_event_left: "0" }, ["last_service"]],
      ["fractional days", { expiration_by: "days", last_service: "2025-02-01", interval: "1.5", trigger_event_left: "0.5" }, ["interval", "trigger_event_left"]],
      ["words for numbers", { interval: "ten", trigger_event_left: "1e3" }, ["interval", "trigger_event_left"]],
      ["amounts out of range", { interval: "99999999999" }, ["interval"]],
      ["wrong types", { name: { first: "x" }, interval: [1, 2], renew_after_expiration: "yes" }, ["name", "interval", "renew_after_expiration"]],
      ["oversized strings", { name: "n".repeat(256), last_service: "1".repeat(33), email: `${"e".repeat(250)}@example.com`, mobile_phone: "1".repeat(65) }, ["name", "last_service", "email", "mobile_phone"]],
      ["a blank name", { name: "   " }, ["name"]],
      ["a bad email and phone", { email: "not-an-email", mobile_phone: "call me" }, ["email", "mobile_phone"]],
      ["injection strings", { interval: "1; DROP TABLE services", last_service: "0 OR 1=1", trigger_event_left: "' OR ''='" }, ["interval", "last_service", "trigger_event_left"]],
      // A schema error stops the request before the amounts are looked at, so it is reported alone.
      ["injection in device_id", { device_id: "1 OR 1=1", interval: "1; DROP TABLE services" }, ["device_id"]],
    ];

    it("refuses each required field missing, naming it, and writes nothing", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const id = await addService(h, user, device);
      const before = await allRows(h);
      for (const field of REQUIRED) {
        expect(Object.keys(invalid(await h.post("/add_service", { user, query: { device_id: device }, body: serviceFields({ [field]: undefined }) }))), field).toEqual([field]);
        expect(Object.keys(invalid(await h.post("/edit_service", { user, body: { id, device_id: device, ...serviceFields({ [field]: undefined }) } }))), field).toEqual([field]);
      }
      expect(Object.keys(invalid(await h.post("/edit_service", { user, body: serviceFields({ device_id: device }) })))).toEqual(["id"]);
      expect(Object.keys(invalid(await h.post("/edit_service", { user, body: { id, ...serviceFields() } })))).toEqual(["device_id"]);
      expect(await allRows(h)).toEqual(before);
    });

    it("refuses bad values on add_service and edit_service with 422 naming the fields, writing nothing", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const id = await addService(h, user, device);
      const before = await allRows(h);
      for (const [label, overrides, fields] of bad) {
        const add = invalid(await h.post("/add_service", { user, body: serviceFields({ device_id: device, ...overrides }) }));
        expect(Object.keys(add).sort(), label).toEqual([...fields].sort());
        const edit = invalid(await h.post("/edit_service", { user, body: { id, ...serviceFields({ device_id: device, ...overrides }) } }));
        expect(Object.keys(edit).sort(), label).toEqual([...fields].sort());
      }
      expect(await allRows(h)).toEqual(before);
    });

    it("stores a name that looks like SQL as plain text", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const name = "x'); DROP TABLE services; --";
      const id = await addService(h, user, device, { name });
      expect((await item(h, user, id)).name).toBe(name);
    });

    it("refuses ids that are not ids with 422", async () => {
      const user = await h.newUser();
      for (const bad of ["abc", "1.5", "-1", "0", "", "99999999999", "1 OR 1=1"]) {
        expect(Object.keys(invalid(await h.get("/edit_service_data", { user, query: { service_id: bad } }))), bad).toEqual(["service_id"]);
        expect(Object.keys(invalid(await h.get("/destroy_service", { user, query: { service_id: bad } }))), bad).toEqual(["service_id"]);
        expect(Object.keys(invalid(await h.get("/add_service_data", { user, query: { device_id: bad } }))), bad).toEqual(["device_id"]);
        expect(Object.keys(invalid(await h.get("/get_services", { user, query: { device_id: bad } }))), bad).toEqual(["device_id"]);
      }
      const device = await h.addDevice(user);
      expect(Object.keys(invalid(await h.get("/get_services", { user, query: { device_id: device, per_page: 1000 } })))).toEqual(["per_page"]);
    });

    it("refuses a JSON body that is not an object", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const before = await allRows(h);
      invalid(await h.post("/add_service", { user, query: { device_id: device }, body: [serviceFields()] }));
      invalid(await h.post("/edit_service", { user, body: "text" }));
      expect(await allRows(h)).toEqual(before);
    });
  });
});

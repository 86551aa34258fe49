import { describe, expect, it } from "vitest";
import { GetDevicesLatestResponseSchema, GetDevicesResponseSchema, TailItemSchema, type LiveDeviceItem, type TailPoint } from "@fleet/contracts";
import { deviceGroups } from "@fleet/db";
import { Type } from "@sinclair/typebox";
import { API_VERSION } from "../src/index.js";
import { OFFLINE_AFTER_MS, describeApi, expectSchema, invalid, liveState, nextSecond, ok, type ApiHarness, type TestUser } from "./fixture.js";
import { vendorErrors } from "./swagger.js";

const FIX = Date.UTC(2025, 0, 15, 10, 20, 30, 400);

function tail(n: number): TailPoint[] {
  return Array.from({ length: n }, (_, i) => ({ id: i + 1, fixTime: FIX - (n - i) * 1000, latitude: 54 + i / 100, longitude: 25 + i / 100 }));
}

async function items(h: ApiHarness, user: TestUser): Promise<Map<number, LiveDeviceItem>> {
  const groups = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema);
  return new Map(groups.flatMap((g) => g.items).map((i) => [i.id, i]));
}

async function latest(h: ApiHarness, user: TestUser, time?: number) {
  return ok(await h.get("/get_devices_latest", { user, ...(time === undefined ? {} : { query: { time } }) }), GetDevicesLatestResponseSchema);
}

describeApi("devices: live list", (h) => {
  describe("get_devices", () => {
    it("is an empty list for a user without devices", async () => {
      const user = await h.newUser();
      expect(ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema)).toEqual([]);
    });

    it("groups devices by device group, the ungrouped ones under Ungrouped, empty groups left out", async () => {
      const user = await h.newUser();
      const [vans] = await h.db.insert(deviceGroups).values({ userId: user.id, title: "Vans" }).returning();
      await h.db.insert(deviceGroups).values({ userId: user.id, title: "Empty" });
      const loose = await h.addDevice(user, { name: "Loose" });
      const van = await h.addDevice(user, { name: "Van", group_id: vans!.id });
      const groups = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema);
      expect(groups.map((g) => ({ title: g.title, ids: g.items.map((i) => i.id) }))).toEqual([
        { title: "Ungrouped", ids: [loose] },
        { title: "Vans", ids: [van] },
      ]);
    });

    it("answers as the vendor's Swagger describes get_devices and get_devices_latest, device_data.user_id null", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user, { name: "Checked" });
      await h.live.putStates([{ state: liveState(id, { latitude: 54.6872, longitude: 25.2797, speedKmh: 48.6, fixTime: FIX, serverTime: Date.now(), tail: tail(3) }), userIds: [user.id] }]);
      const listed = await h.get("/get_devices", { user });
      expect(vendorErrors("/get_devices", listed.body)).toEqual([]);
      expect((await items(h, user)).get(id)!.device_data.user_id).toBeNull();
      expect(vendorErrors("/get_devices_latest", (await h.get("/get_devices_latest", { user })).body)).toEqual([]);
    });

    it("shows a device that never reported as offline, with no time", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user, { icon_offline: "black" });
      const item = (await items(h, user)).get(id)!;
      expect(item).toMatchObject({ online: "offline", time: "-", timestamp: 0, lat: 0, lng: 0, speed: 0, tail: [], icon_color: "black" });
    });

    it("shows the latest live state in the user's timezone and units", async () => {
      // Timezone 65 is UTC+02:00.
      const user = await h.newUser({ timezoneId: 65 });
      const id = await h.addDevice(user, { tail_length: 3, icon_moving: "blue" });
      const now = Date.now();
      const state = liveState(id, { latitude: 54.6872, longitude: 25.2797, speedKmh: 48.6, course: 271.3, altitude: 112.4, fixTime: FIX, serverTime: now - 1000, tail: tail(6) });
      await h.live.putStates([{ state, userIds: [user.id] }]);

      const item = (await items(h, user)).get(id)!;
      expect(item).toMatchObject({
        online: "online",
        lat: 54.6872,
        lng: 25.2797,
        speed: 49,
        course: "271",
        altitude: 112,
        protocol: "osmand",
        time: "2025-01-15 12:20:30",
        timestamp: Math.floor(FIX / 1000),
        acktimestamp: Math.floor((now - 1000) / 1000),
        distance_unit_hour: "kph",
        unit_of_distance: "km",
        icon_color: "blue",
      });
      // The newest tail_length points, oldest first, as strings.
      expect(item.tail).toEqual(tail(6).slice(3).map((p) => ({ lat: String(p.latitude), lng: String(p.longitude) })));
    });

    it("shows times on the account's daylight-saving clock, as history does, in the device's own timezone when it has one", async () => {
      // Timezone 61 is UTC+01:00; the EU rule (country 3) adds an hour from 29 March to 25 October 2026.
      const user = await h.newUser({ timezoneId: 61 });
      ok(await h.post("/edit_setup", { user, body: { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 61, groups: [], sms_gateway: 0, dst_type: "automatic", dst_country_id: 3 } }), Type.Any());
      const winter = await h.addDevice(user);
      const summer = await h.addDevice(user);
      // Its own timezone 65 (UTC+02:00), with the account's rule: +03:00 in summer.
      const own = await h.addDevice(user, { timezone_id: 65 });
      const at = (id: number, fixTime: number) => ({ state: liveState(id, { fixTime, serverTime: Date.now() - 1000 }), userIds: [user.id] });
      await h.live.putStates([at(winter, Date.UTC(2026, 0, 15, 10, 0, 0)), at(summer, Date.UTC(2026, 6, 15, 10, 0, 0)), at(own, Date.UTC(2026, 6, 15, 10, 0, 0))]);

      const times = (list: { id: number; time: string }[]) => Object.fromEntries(list.map((i) => [i.id, i.time]));
      const expected = { [winter]: "2026-01-15 11:00:00", [summer]: "2026-07-15 12:00:00", [own]: "2026-07-15 13:00:00" };
      expect(times([...(await items(h, user)).values()])).toEqual(expected);
      expect(times((await latest(h, user)).items)).toEqual(expected);
    });

    it("shows a device offline once its last report is older than the offline window", async () => {
      const user = await h.newUser();
      const [fresh, stale] = [await h.addDevice(user), await h.addDevice(user, { icon_offline: "orange" })];
      const now = Date.now();
      await h.live.putStates([
        { state: liveState(fresh, { serverTime: now - OFFLINE_AFTER_MS + 30_000, speedKmh: 0, movedAt: now - 600_000 }), userIds: [user.id] },
        { state: liveState(stale, { serverTime: now - OFFLINE_AFTER_MS - 30_000 }), userIds: [user.id] },
      ]);
      const list = await items(h, user);
      // Online and standing still: the stopped colour, and how long it has stood.
      expect(list.get(fresh)).toMatchObject({ online: "online", speed: 0, icon_color: "red" });
      expect(list.get(fresh)!.stop_duration).toMatch(/^10min/);
      expect(list.get(stale)).toMatchObject({ online: "offline", icon_color: "orange" });
      expect(list.get(stale)!.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    it("shows tail_length 0 as no tail", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user, { tail_length: 0 });
      await h.live.putStates([{ state: liveState(id, { tail: tail(4) }), userIds: [user.id] }]);
      expect((await items(h, user)).get(id)!.tail).toEqual([]);
    });

    it("converts speed to miles per hour for a user who counts in miles", async () => {
      const user = await h.newUser({ unitOfDistance: "mi", unitOfAltitude: "ft" });
      const id = await h.addDevice(user);
      await h.live.putStates([{ state: liveState(id, { speedKmh: 100, altitude: 100 }), userIds: [user.id] }]);
      expect((await items(h, user)).get(id)).toMatchObject({ speed: 62, distance_unit_hour: "mph", unit_of_distance: "mi", unit_of_altitude: "ft", altitude: 328 });
    });

    it("shows a user only their own devices", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await h.addDevice(a);
      const bDevice = await h.addDevice(b);
      await h.live.putStates([{ state: liveState(aDevice), userIds: [a.id] }]);
      expect([...(await items(h, a)).keys()]).toEqual([aDevice]);
      expect([...(await items(h, b)).keys()]).toEqual([bDevice]);
    });
  });

  describe("filters and pages (the vendor's Swagger)", () => {
    /** A user with a van in group Vans reporting now, a car ungrouped that reported 2 h ago, and a truck that never reported. */
    async function fleet() {
      const user = await h.newUser();
      const [vans] = await h.db.insert(deviceGroups).values({ userId: user.id, title: "Vans" }).returning();
      const van = await h.addDevice(user, { name: "Van", imei: `van-${user.id}`, plate_number: "VAN 1", sim_number: "+37060000001", group_id: vans!.id });
      const car = await h.addDevice(user, { name: "Car", imei: `car-${user.id}`, plate_number: "CAR 1", vin: "WVWZZZ1JZXW000001", device_model: "FMB920" });
      const truck = await h.addDevice(user, { name: "Truck", imei: `truck-${user.id}`, object_owner: "Acme" });
      const now = Date.now();
      await h.live.putStates([
        { state: liveState(van, { serverTime: now - 1000 }), userIds: [user.id] },
        { state: liveState(car, { serverTime: now - 2 * 3600_000 }), userIds: [user.id] },
      ]);
      return { user, vans: vans!.id, van, car, truck };
    }
    const listed = async (user: TestUser, query: Record<string, string | number>) =>
      ok(await h.get("/get_devices", { user, query }), GetDevicesResponseSchema).map((g) => [g.title, g.items.map((i) => i.name)]);

    it("keeps the devices whose fields hold each value given, and ignores empty ones", async () => {
      const f = await fleet();
      expect(await listed(f.user, { imei: `van-${f.user.id}` })).toEqual([["Vans", ["Van"]]]);
      expect(await listed(f.user, { id: f.car })).toEqual([["Ungrouped", ["Car"]]]);
      expect(await listed(f.user, { plate_number: "CAR 1", vin: "WVWZZZ1JZXW000001", device_model: "FMB920" })).toEqual([["Ungrouped", ["Car"]]]);
      expect(await listed(f.user, { plate_number: "CAR 1", vin: "other" })).toEqual([]);
      expect(await listed(f.user, { msisdn: "+37060000001" })).toEqual([["Vans", ["Van"]]]);
      expect(await listed(f.user, { sim_number: "+37060000001", object_owner: "" })).toEqual([["Vans", ["Van"]]]);
      expect(await listed(f.user, { object_owner: "Acme" })).toEqual([["Ungrouped", ["Truck"]]]);
      expect(await listed(f.user, { group_id: f.vans })).toEqual([["Vans", ["Van"]]]);
      expect(await listed(f.user, { group_id: 0 })).toEqual([["Ungrouped", ["Car", "Truck"]]]);
      expect(await listed(f.user, { imei: "", group_id: "" })).toEqual([["Ungrouped", ["Car", "Truck"]], ["Vans", ["Van"]]]);
    });

    it("searches `s` in any case in the name, IMEI, SIM, VIN, plate, registration number, owner and model", async () => {
      const f = await fleet();
      expect(await listed(f.user, { s: "ca" })).toEqual([["Ungrouped", ["Car"]]]);
      expect(await listed(f.user, { s: "acm" })).toEqual([["Ungrouped", ["Truck"]]]);
      expect(await listed(f.user, { s: "fmb9" })).toEqual([["Ungrouped", ["Car"]]]);
      expect(await listed(f.user, { s: "370600" })).toEqual([["Vans", ["Van"]]]);
      expect(await listed(f.user, { s: "1", plate_number: "VAN 1" })).toEqual([["Vans", ["Van"]]]);
      expect(await listed(f.user, { s: "nothing like it" })).toEqual([]);
      expect(ok(await h.get("/get_devices_latest", { user: f.user, query: { "filter[s]": "truck" } }), GetDevicesLatestResponseSchema).items.map((i) => i.name)).toEqual(["Truck"]);
    });

    it("keeps devices by status and by how long ago they last reported", async () => {
      const f = await fleet();
      expect(await listed(f.user, { status: "online" })).toEqual([["Vans", ["Van"]]]);
      // status[]= repeated, as a form sends an array.
      const statuses = async (...values: string[]) => {
        const url = `/api/get_devices?lang=en&user_api_hash=${encodeURIComponent(f.user.hash)}&${values.map((v) => `status[]=${v}`).join("&")}`;
        return ok(await h.inject({ method: "GET", url }), GetDevicesResponseSchema).map((g) => [g.title, g.items.map((i) => i.name)]);
      };
      expect(await statuses("offline")).toEqual([["Ungrouped", ["Car", "Truck"]]]);
      expect(await statuses("online", "offline")).toEqual([["Ungrouped", ["Car", "Truck"]], ["Vans", ["Van"]]]);
      // Reported within the last 3 hours: the van and the car; silent for 60 minutes or more: the car and the truck.
      expect(await listed(f.user, { online: 180 })).toEqual([["Ungrouped", ["Car"]], ["Vans", ["Van"]]]);
      expect(await listed(f.user, { offline: 60 })).toEqual([["Ungrouped", ["Car", "Truck"]]]);
    });

    it("pages the devices in the list's order with limit and page, and lists every device without them", async () => {
      const f = await fleet();
      expect(await listed(f.user, {})).toEqual([["Ungrouped", ["Car", "Truck"]], ["Vans", ["Van"]]]);
      expect(await listed(f.user, { limit: 2 })).toEqual([["Ungrouped", ["Car", "Truck"]]]);
      expect(await listed(f.user, { limit: 2, page: 2 })).toEqual([["Vans", ["Van"]]]);
      expect(await listed(f.user, { limit: 2, page: 3 })).toEqual([]);
      expect(await listed(f.user, { page: 1 })).toEqual([["Ungrouped", ["Car", "Truck"]], ["Vans", ["Van"]]]);
      // Filtered first, then paged.
      expect(await listed(f.user, { offline: 60, limit: 1, page: 2 })).toEqual([["Ungrouped", ["Truck"]]]);
    });

    it("filters get_devices_latest by filter[...] alike", async () => {
      const f = await fleet();
      const names = async (query: Record<string, string | number>) => ok(await h.get("/get_devices_latest", { user: f.user, query }), GetDevicesLatestResponseSchema).items.map((i) => i.name);
      expect(await names({ "filter[plate_number]": "VAN 1" })).toEqual(["Van"]);
      expect(await names({ "filter[status]": "offline" })).toEqual(["Car", "Truck"]);
      expect(await names({ "filter[group_id]": 0, "filter[offline]": 60 })).toEqual(["Car", "Truck"]);
    });

    it("answers another user's device or group id exactly as a missing one: nothing listed", async () => {
      const f = await fleet();
      const other = await fleet();
      const missing = 2_000_000_000;
      expect(await listed(other.user, { id: f.van })).toEqual(await listed(other.user, { id: missing }));
      expect(await listed(other.user, { id: f.van })).toEqual([]);
      expect(await listed(other.user, { group_id: f.vans })).toEqual(await listed(other.user, { group_id: missing }));
      expect(await listed(other.user, { group_id: f.vans })).toEqual([]);
      const latestIds = async (id: number) => ok(await h.get("/get_devices_latest", { user: other.user, query: { "filter[id]": id } }), GetDevicesLatestResponseSchema).items;
      expect(await latestIds(f.van)).toEqual(await latestIds(missing));
      expect(await latestIds(f.van)).toEqual([]);
    });

    it("refuses a filter or page that is not one, naming it", async () => {
      const user = await h.newUser();
      for (const [key, value] of [["id", "abc"], ["group_id", "-1"], ["online", "soon"], ["limit", "0"], ["limit", "1001"], ["page", "0"]] as const) {
        expect(Object.keys(invalid(await h.get("/get_devices", { user, query: { [key]: value } }))), key).toEqual([key]);
      }
      expect(Object.keys(invalid(await h.get("/get_devices_latest", { user, query: { "filter[colour]": "red" } })))).toEqual(["filter"]);
    });
  });

  describe("after the live store lost its states", () => {
    it("shows each device at its last stored position at once, and keeps it in the live store", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user, {});
      const never = await h.addDevice(user, {});
      const row = (n: number, latitude: number) => ({ id: 7000 + n, deviceId: id, uniqueId: `imei-${id}`, protocol: "osmand", latitude, longitude: 25.3, altitude: 100, course: 90, speedKmh: 30, distanceKm: 1.5, fixTime: FIX + n * 1000, serverTime: FIX + n * 1000 + 5, valid: true, engineOn: true, attributes: { sat: n } });
      await h.history.insert([row(1, 54.1), row(2, 54.2), row(3, 54.3)]);

      const item = (await items(h, user)).get(id)!;
      expect(item).toMatchObject({ lat: 54.3, lng: 25.3, speed: 30, timestamp: Math.floor((FIX + 3000) / 1000) });
      expect((await items(h, user)).get(never)).toMatchObject({ time: "-", lat: 0, lng: 0 });
      const kept = (await h.live.getStates([id, never])).get(id);
      // The odometer is the track's length (0.2° of latitude), not the stored steps' sum.
      expect(kept).toMatchObject({ positionId: 7003, odometerKm: expect.closeTo((0.2 * 6371.0088 * Math.PI) / 180, 5), engineSeconds: 2, tail: [{ id: 7001 }, { id: 7002 }, { id: 7003 }] });
      expect((await h.live.getStates([never])).size).toBe(0);
    });
  });

  describe("get_devices_latest", () => {
    it("returns every device without time, stamped with the server's clock and version", async () => {
      const user = await h.newUser();
      const [moving, silent] = [await h.addDevice(user), await h.addDevice(user)];
      await h.live.putStates([{ state: liveState(moving, { tail: tail(2) }), userIds: [user.id] }]);
      const before = Math.floor(Date.now() / 1000);
      const res = await latest(h, user);
      expect(res.time).toBeGreaterThanOrEqual(before);
      expect(res.time).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      expect(res.version).toBe(API_VERSION);
      expect(res.events).toEqual([]);
      expect(res.items.map((i) => i.id).sort((x, y) => x - y)).toEqual([moving, silent].sort((x, y) => x - y));

      const item = res.items.find((i) => i.id === moving)!;
      expect(item.online).toBe("online");
      // sensors, services and tail travel as JSON text.
      expect(JSON.parse(item.sensors)).toEqual([]);
      expect(JSON.parse(item.services)).toEqual([]);
      const parsedTail = expectSchema(Type.Array(TailItemSchema), JSON.parse(item.tail), "tail");
      expect(parsedTail).toEqual(tail(2).map((p) => ({ lat: String(p.latitude), lng: String(p.longitude) })));
      expect(res.items.find((i) => i.id === silent)).toMatchObject({ online: "offline", tail: "[]" });
    });

    it("shows the engine setting, engine hours, total distance and parameter names the Swagger lists on its items", async () => {
      const user = await h.newUser({ unitOfDistance: "mi" });
      const [reporting, silent] = [await h.addDevice(user), await h.addDevice(user)];
      ok(await h.post("/edit_device", { user, body: { device_id: reporting, detect_engine: "acc" } }), Type.Object({ status: Type.Literal(1) }));
      const attributes = { power: 12.5, ignition: true, io239: 1 };
      await h.live.putStates([{ state: liveState(reporting, { odometerKm: 1609.344, engineSeconds: 5400, attributes }), userIds: [user.id] }]);
      const items = new Map((await latest(h, user)).items.map((i) => [i.id, i]));
      const fields = (id: number) => {
        const { detect_engine, engine_hours, total_distance, parameters } = items.get(id)!;
        return { detect_engine, engine_hours, total_distance, parameters };
      };
      expect(fields(reporting)).toEqual({ detect_engine: "acc", engine_hours: "1.50", total_distance: "1000.00", parameters: ["ignition", "io239", "power"] });
      expect(fields(silent)).toEqual({ detect_engine: "gps", engine_hours: "0.00", total_distance: "0.00", parameters: [] });
    });

    it("returns only what changed since the time it handed out", async () => {
      const user = await h.newUser();
      const [a, b, c] = [await h.addDevice(user), await h.addDevice(user), await h.addDevice(user)];
      // Changes in the second a response is stamped with are sent again on the next poll
      // (time is whole seconds and nothing may be missed), so step past the additions.
      await nextSecond();
      const first = await latest(h, user);
      expect(first.items).toHaveLength(3);

      await h.live.putStates([{ state: liveState(b, { speedKmh: 30 }), userIds: [user.id] }]);
      await nextSecond();
      const second = await latest(h, user, first.time);
      expect(second.items.map((i) => i.id)).toEqual([b]);
      expect(second.items[0]).toMatchObject({ speed: 30, online: "online" });
      expect(second.time).toBeGreaterThan(first.time);

      const third = await latest(h, user, second.time);
      expect(third.items).toEqual([]);
      expect(third.time).toBeGreaterThanOrEqual(second.time);

      // A device added since counts as changed.
      const d = await h.addDevice(user);
      expect((await latest(h, user, third.time)).items.map((i) => i.id)).toEqual([d]);
      expect([a, c]).not.toContain(d);
    });

    it("answers a poll from further back than the change index keeps with every device", async () => {
      const user = await h.newUser();
      const [a, b] = [await h.addDevice(user), await h.addDevice(user)];
      await nextSecond();
      const now = (await latest(h, user)).time;
      // Nothing changed since `now`; a client back after two days cannot know what the
      // index forgot, so it is told about everything rather than nothing.
      expect((await latest(h, user, now)).items).toEqual([]);
      const stale = await latest(h, user, now - 2 * 24 * 3600);
      expect(stale.items.map((i) => i.id).sort((x, y) => x - y)).toEqual([a, b].sort((x, y) => x - y));
    });

    it("never hands one user another user's devices", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await h.addDevice(a);
      const bDevice = await h.addDevice(b);
      const start = (await latest(h, b)).time;
      expect((await latest(h, b)).items.map((i) => i.id)).toEqual([bDevice]);
      // Even a change index that wrongly names B for A's device does not leak it.
      await h.live.putStates([{ state: liveState(aDevice), userIds: [a.id, b.id] }]);
      expect((await latest(h, b, start)).items.map((i) => i.id)).not.toContain(aDevice);
      expect((await latest(h, a, start)).items.map((i) => i.id)).toContain(aDevice);
    });

    it("refuses a time that is not a whole unix second", async () => {
      const user = await h.newUser();
      for (const time of ["abc", "1.5", "-1", "99999999999999"]) {
        const errors = invalid(await h.get("/get_devices_latest", { user, query: { time } }));
        expect(Object.keys(errors), time).toEqual(["time"]);
      }
    });

    it("reads an empty time, as a first poll may send it, as none: every device", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      for (const time of ["", " "]) expect(ok(await h.get("/get_devices_latest", { user, query: { time } }), GetDevicesLatestResponseSchema).items.map((i) => i.id), JSON.stringify(time)).toEqual([device]);
    });
  });
});

import { describe, expect, it } from "vitest";
import {
  AddDeviceDataSchema,
  ChangeActiveDeviceResponseSchema,
  DestroyDeviceResponseSchema,
  EditDeviceDataResponseSchema,
  EditDeviceResponseSchema,
  GetDevicesLatestResponseSchema,
  GetDevicesResponseSchema,
  type LiveDeviceItem,
} from "@fleet/contracts";
import { deviceGroups, drivers, userDevices } from "@fleet/db";
import { describeApi, deviceFields, failure, invalid, newImei, nextSecond, ok, type ApiHarness, type CallOptions, type TestUser } from "./fixture.js";

async function group(h: ApiHarness, user: TestUser, title: string): Promise<number> {
  const [row] = await h.db.insert(deviceGroups).values({ userId: user.id, title }).returning();
  return row!.id;
}

async function driver(h: ApiHarness, user: TestUser, deviceId: number): Promise<number> {
  const [row] = await h.db.insert(drivers).values({ userId: user.id, deviceId, name: "Jonas" }).returning();
  return row!.id;
}

async function driverDevice(h: ApiHarness, id: number): Promise<number | null | undefined> {
  return (await h.db.query.drivers.findFirst({ where: (d, { eq }) => eq(d.id, id) }))?.deviceId;
}

/** The device row and all its pivot rows, updated_at included: equal means nothing was written. */
async function rows(h: ApiHarness, deviceId: number) {
  const device = await h.db.query.devices.findFirst({ where: (d, { eq }) => eq(d.id, deviceId) });
  const pivots = await h.db.query.userDevices.findMany({ where: (p, { eq }) => eq(p.deviceId, deviceId), orderBy: (p, { asc }) => asc(p.userId) });
  return { device, pivots };
}

/** The live list item of one device and the title of the group it is listed under. */
async function listed(h: ApiHarness, user: TestUser, id: number): Promise<{ group: string; item: LiveDeviceItem } | undefined> {
  const groups = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema);
  return groups.flatMap((g) => g.items.map((item) => ({ group: g.title, item }))).find((x) => x.item.id === id);
}

async function latest(h: ApiHarness, user: TestUser, time?: number) {
  return ok(await h.get("/get_devices_latest", { user, ...(time === undefined ? {} : { query: { time } }) }), GetDevicesLatestResponseSchema);
}

/** A poll `time` after which nothing of `user` has changed yet. */
async function quietPoll(h: ApiHarness, user: TestUser): Promise<number> {
  await nextSecond();
  const time = (await latest(h, user)).time;
  expect((await latest(h, user, time)).items).toEqual([]);
  return time;
}

const edit = (h: ApiHarness, user: TestUser, deviceId: number, body: Record<string, unknown>, opts: CallOptions = {}) =>
  h.post("/edit_device", { user, query: { device_id: deviceId }, body, ...opts });
const editData = (h: ApiHarness, user: TestUser, deviceId: number | string) => h.get("/edit_device_data", { user, query: { device_id: deviceId } });
const destroy = (h: ApiHarness, user: TestUser, deviceId: number | string) => h.get("/destroy_device", { user, query: { device_id: deviceId } });
const setActive = (h: ApiHarness, user: TestUser, id: number | string, active: string | number) => h.get("/change_active_device", { user, query: { id, active } });

/** A GET with a raw query string, for repeated and bracketed keys the helpers cannot express. */
const rawGet = (h: ApiHarness, user: TestUser, path: string, query: string) => h.inject({ method: "GET", url: `/api${path}?lang=en&user_api_hash=${user.hash}&${query}` });

describeApi("devices: edit, destroy, activate", (h) => {
  describe("edit_device_data", () => {
    it("returns add_device_data's lists, the device and the engine option lists", async () => {
      const user = await h.newUser();
      const vans = await group(h, user, "Vans");
      const id = await h.addDevice(user, { name: "Van 1", group_id: vans, additional_notes: "spare key in the office", icon_moving: "blue", device_icons_type: "arrow" });
      const data = ok(await editData(h, user, id), EditDeviceDataResponseSchema);
      const { item, engine_hours, detect_engine, ...lists } = data;

      expect(lists).toEqual(ok(await h.get("/add_device_data", { user }), AddDeviceDataSchema));
      expect(engine_hours.map((o) => o.id)).toEqual(["gps", "engine_hours"]);
      expect(detect_engine.map((o) => o.id)).toEqual(["gps", "ignition", "acc", "engine"]);
      // The same Device record the live list embeds, plus what the edit form also shows.
      const live = (await listed(h, user, id))!.item.device_data;
      expect(item).toMatchObject(live);
      expect(item).toMatchObject({ id: String(id), name: "Van 1", group_id: String(vans), engine_hours: "gps", detect_engine: "gps", tail_color: "#33cc33" });
      expect(item.pivot).toEqual({ user_id: String(user.id), device_id: String(id), group_id: String(vans), current_driver_id: "0", active: "1", timezone_id: null });
      expect(item).toMatchObject({
        additional_notes: "spare key in the office",
        device_icons_type: "arrow",
        icon_colors: { moving: "blue", stopped: "red", offline: "red", engine: "yellow" },
      });
    });

    it("wants a device id that is a positive integer", async () => {
      const user = await h.newUser();
      expect(invalid(await h.get("/edit_device_data", { user }))).toEqual({ device_id: expect.stringContaining("required") });
      for (const bad of ["abc", "0", "-3", "1.5", "1e400", "1 OR 1=1", "1; DROP TABLE devices"]) {
        expect(Object.keys(invalid(await editData(h, user, bad))), bad).toEqual(["device_id"]);
      }
      // Well-formed but no such device, even beyond what a database id can hold.
      for (const missing of ["2147483647", "3000000000", "99999999999999999999"]) failure(await editData(h, user, missing), 404);
    });
  });

  describe("edit_device", () => {
    it("moves a device into a group that edit_setup removes at the same moment without a server error", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      const setup = { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, sms_gateway: 0, groups: [] };
      for (let i = 0; i < 15; i++) {
        const doomed = await group(h, user, `Doomed ${i}`);
        const [removed, moved] = await Promise.all([h.post("/edit_setup", { user, body: setup }), h.post("/edit_device", { user, query: { device_id: id }, body: { group_id: doomed } })]);
        expect(removed.status, removed.text).toBe(200);
        // Either the move came first (and the removal then ungrouped the device) or the group was already gone.
        expect([200, 422], moved.text).toContain(moved.status);
        expect((await listed(h, user, id))?.item.device_data.group_id).toBeNull();
      }
    });

    it("changes only the fields it is given", async () => {
      const user = await h.newUser();
      const tz = 65;
      const id = await h.addDevice(user, { name: "Before", plate_number: "ABC-123", icon_stopped: "black", fuel_price: 1.5 });
      ok(await edit(h, user, id, { timezone_id: tz }), EditDeviceResponseSchema);
      const before = ok(await editData(h, user, id), EditDeviceDataResponseSchema).item;

      ok(await edit(h, user, id, { name: "After", icon_moving: "orange" }), EditDeviceResponseSchema);
      const after = ok(await editData(h, user, id), EditDeviceDataResponseSchema).item;
      expect(after).toEqual({ ...before, name: "After", icon_colors: { ...before.icon_colors, moving: "orange" }, updated_at: after.updated_at });
      // The timezone was not sent, so add_device's default of 0 must not have reset it.
      expect(after.pivot.timezone_id).toBe(String(tz));
    });

    it("shows the edit at once in get_devices and in the next get_devices_latest poll", async () => {
      const user = await h.newUser();
      const vans = await group(h, user, "Vans");
      const id = await h.addDevice(user, { name: "Old name", icon_id: 1 });
      const other = await h.addDevice(user);
      const time = await quietPoll(h, user);

      const colours = { icon_moving: "blue", icon_stopped: "black", icon_offline: "orange", icon_engine: "green" };
      ok(await edit(h, user, id, { name: "New name", icon_id: 3, group_id: vans, device_icons_type: "rotating", ...colours }), EditDeviceResponseSchema);

      const found = (await listed(h, user, id))!;
      expect(found.group).toBe("Vans");
      expect(found.item).toMatchObject({ name: "New name", icon_type: "rotating", icon_colors: { moving: "blue", stopped: "black", offline: "orange", engine: "green" }, icon_color: "orange" });
      expect(found.item.device_data).toMatchObject({ name: "New name", icon_id: "3", group_id: String(vans), pivot: { group_id: String(vans) } });

      const polled = await latest(h, user, time);
      expect(polled.items.map((i) => i.id)).toEqual([id]);
      expect(polled.items[0]).toMatchObject({ name: "New name", icon_type: "rotating", icon_colors: found.item.icon_colors });
      expect(polled.items[0]!.device_data).toMatchObject({ icon_id: "3", group_id: String(vans) });
      expect((await listed(h, user, other))?.group).toBe("Ungrouped");

      // Group 0 is "Ungrouped", as add_device_data offers it.
      ok(await edit(h, user, id, { group_id: 0 }), EditDeviceResponseSchema);
      expect((await listed(h, user, id))?.group).toBe("Ungrouped");
    });

    it("stores the edit-only settings and the user's timezone", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      const body = { engine_hours: "engine_hours", detect_engine: "acc", tail_color: "#FF8800", timezone_id: 65, tail_length: 12, min_moving_speed: 4.5, fuel_quantity: 60, sim_number: "+37060000000", additional_notes: "" };
      ok(await edit(h, user, id, body), EditDeviceResponseSchema);
      const item = ok(await editData(h, user, id), EditDeviceDataResponseSchema).item;
      expect(item).toMatchObject({ engine_hours: "engine_hours", detect_engine: "acc", tail_color: "#FF8800", tail_length: "12", min_moving_speed: "4.5", fuel_quantity: "60.00", sim_number: "+37060000000" });
      expect(item.pivot.timezone_id).toBe("65");
      // 0 is the "Default" option: kept as chosen, so the form shows what was picked.
      ok(await edit(h, user, id, { timezone_id: 0 }), EditDeviceResponseSchema);
      expect(ok(await editData(h, user, id), EditDeviceDataResponseSchema).item.pivot.timezone_id).toBe("0");
    });

    it.each(["form", "multipart"] as const)("takes a %s body with device_id in it", async (as) => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      const body = { device_id: String(id), name: `Edited by ${as}`, tail_length: "9", group_id: "0", icon_engine: "red" };
      ok(await h.post("/edit_device", { user, as, body }), EditDeviceResponseSchema);
      const item = ok(await editData(h, user, id), EditDeviceDataResponseSchema).item;
      expect(item).toMatchObject({ name: `Edited by ${as}`, tail_length: "9", group_id: null, icon_colors: { engine: "red" } });
    });

    it("takes device_id from the query or the body, refuses two different ones, and wants it somewhere", async () => {
      const user = await h.newUser();
      const [a, b] = [await h.addDevice(user, { name: "A" }), await h.addDevice(user, { name: "B" })];
      expect(invalid(await h.post("/edit_device", { user, query: { device_id: a }, body: { device_id: b, name: "A2" } }))).toHaveProperty("device_id");
      expect((await listed(h, user, a))?.item.name).toBe("A");
      ok(await h.post("/edit_device", { user, query: { device_id: a }, body: { device_id: a, name: "A2" } }), EditDeviceResponseSchema);
      ok(await h.post("/edit_device", { user, body: { device_id: b, name: "B2" } }), EditDeviceResponseSchema);
      expect((await listed(h, user, a))?.item.name).toBe("A2");
      expect((await listed(h, user, b))?.item.name).toBe("B2");
      expect(invalid(await h.post("/edit_device", { user, body: { name: "nowhere" } }))).toEqual({ device_id: expect.stringContaining("required") });
      // Nothing but the query: an empty edit, which changes nothing and is fine.
      const before = await rows(h, a);
      ok(await h.post("/edit_device", { user, query: { device_id: a } }), EditDeviceResponseSchema);
      expect(await rows(h, a)).toEqual(before);
    });

    it("refuses an IMEI another device has, and keeps its own", async () => {
      const [user, other] = [await h.newUser(), await h.newUser()];
      const taken = newImei();
      await h.addDevice(other, { imei: taken });
      const own = newImei();
      const id = await h.addDevice(user, { imei: own });
      const before = await rows(h, id);
      expect(invalid(await edit(h, user, id, { imei: taken, name: "Renamed" }))).toEqual({ imei: expect.any(String) });
      expect(await rows(h, id)).toEqual(before);

      ok(await edit(h, user, id, { imei: own }), EditDeviceResponseSchema);
      const fresh = newImei();
      ok(await edit(h, user, id, { imei: fresh }), EditDeviceResponseSchema);
      expect((await listed(h, user, id))?.item.device_data.imei).toBe(fresh);
      // The old IMEI is free again.
      await h.addDevice(other, { imei: own });
    });

    it("refuses unknown catalogue ids and another user's group, changing nothing", async () => {
      const [user, other] = [await h.newUser(), await h.newUser()];
      const theirs = await group(h, other, "Theirs");
      const id = await h.addDevice(user);
      const before = await rows(h, id);
      const cases: [Record<string, unknown>, string][] = [
        [{ icon_id: 999 }, "icon_id"],
        [{ fuel_measurement_id: 42 }, "fuel_measurement_id"],
        [{ group_id: theirs }, "group_id"],
        [{ group_id: 999_999 }, "group_id"],
        [{ group_id: 3_000_000_000 }, "group_id"],
      ];
      for (const [body, field] of cases) {
        expect(Object.keys(invalid(await edit(h, user, id, { name: "Changed", ...body }))), JSON.stringify(body)).toEqual([field]);
      }
      expect(await rows(h, id)).toEqual(before);
    });

    it("ignores expiration_date from a user, as it ignores any field it does not know", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      ok(await edit(h, user, id, { expiration_date: "2030-01-01", deleted: 1, user_id: 1, active: 0, name: "Still mine" }), EditDeviceResponseSchema);
      const { device } = await rows(h, id);
      expect(device).toMatchObject({ name: "Still mine", expirationDate: null, deleted: false, userId: user.id, active: true });
    });

    it("refuses wrong types, unknown options and oversized strings, changing nothing", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      const before = await rows(h, id);
      const cases: [Record<string, unknown>, string][] = [
        [{ name: "x".repeat(10_000) }, "name"],
        [{ name: "" }, "name"],
        [{ name: "   " }, "name"],
        [{ name: { $ne: null } }, "name"],
        [{ imei: "12 34" }, "imei"],
        [{ imei: "1".repeat(65) }, "imei"],
        [{ additional_notes: "n".repeat(5001) }, "additional_notes"],
        [{ tail_length: "abc" }, "tail_length"],
        [{ tail_length: 31 }, "tail_length"],
        [{ min_moving_speed: -1 }, "min_moving_speed"],
        // Numbers a form can spell that are not finite: AJV lets them past maximum.
        [{ fuel_price: "1e400" }, "fuel_price"],
        [{ min_moving_speed: "Infinity" }, "min_moving_speed"],
        [{ tail_length: "-1e400" }, "tail_length"],
        [{ timezone_id: "1e400" }, "timezone_id"],
        [{ icon_moving: "purple" }, "icon_moving"],
        [{ device_icons_type: "square" }, "device_icons_type"],
        [{ engine_hours: "sensor" }, "engine_hours"],
        [{ detect_engine: "GPS" }, "detect_engine"],
        [{ detect_engine: null }, "detect_engine"],
        [{ tail_color: "red" }, "tail_color"],
        [{ tail_color: "#12345" }, "tail_color"],
        [{ tail_color: "#1234567" }, "tail_color"],
        [{ timezone_id: 114 }, "timezone_id"],
        [{ group_id: "1 OR 1=1" }, "group_id"],
        [{ icon_id: "1; DROP TABLE devices" }, "icon_id"],
      ];
      for (const [body, field] of cases) {
        expect(Object.keys(invalid(await edit(h, user, id, body))), JSON.stringify(body).slice(0, 80)).toEqual([field]);
      }
      for (const bad of ["abc", "0", "1 OR 1=1"]) expect(Object.keys(invalid(await edit(h, user, id, { name: "x" }, { query: { device_id: bad } }))), bad).toEqual(["device_id"]);
      // A body that is no object, with the id in the query.
      invalid(await h.post("/edit_device", { user, query: { device_id: id }, body: [{ name: "x" }] }));
      invalid(await h.post("/edit_device", { user, query: { device_id: id }, body: null }));
      expect(await rows(h, id)).toEqual(before);
    });

    it("stores injection-looking text as plain text", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      const name = "'); DROP TABLE devices; -- <script>alert(1)</script> ${process.env}";
      ok(await edit(h, user, id, { name, plate_number: "' OR '1'='1" }), EditDeviceResponseSchema);
      expect((await listed(h, user, id))?.item.device_data).toMatchObject({ name, plate_number: "' OR '1'='1" });
    });

    it("refuses bytes that are not UTF-8 in a form body, changing nothing", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      const before = await rows(h, id);
      const bad = Buffer.from([0x54, 0x72, 0xff, 0xfe, 0x6b]);
      const payload = Buffer.concat([Buffer.from(`device_id=${id}&name=`), bad]);
      const url = `/api/edit_device?lang=en&user_api_hash=${user.hash}`;
      failure(await h.inject({ method: "POST", url, headers: { "content-type": "application/x-www-form-urlencoded" }, payload }), 400);
      const json = Buffer.concat([Buffer.from(`{"device_id": ${id}, "name": "`), bad, Buffer.from('"}')]);
      failure(await h.inject({ method: "POST", url, headers: { "content-type": "application/json" }, payload: json }), 400);
      expect(await rows(h, id)).toEqual(before);
    });
  });

  describe("destroy_device", () => {
    it("deletes a device only this user has: gone from the list, its IMEI free, its id not found", async () => {
      const user = await h.newUser();
      const imei = newImei();
      const id = await h.addDevice(user, { imei });
      const assigned = await driver(h, user, id);
      const time = await quietPoll(h, user);

      ok(await destroy(h, user, id), DestroyDeviceResponseSchema);
      expect(await listed(h, user, id)).toBeUndefined();
      expect((await latest(h, user, time)).items).toEqual([]);
      expect((await rows(h, id)).device).toMatchObject({ deleted: true });
      expect(await driverDevice(h, assigned)).toBeNull();

      for (const res of [await editData(h, user, id), await edit(h, user, id, { name: "Ghost" }), await destroy(h, user, id), await setActive(h, user, id, 0)]) {
        expect(failure(res, 404)).toBe("Device not found.");
      }
      // The IMEI may be registered again, as a new device.
      const again = await h.addDevice(user, { imei });
      expect(again).not.toBe(id);
      expect((await listed(h, user, again))?.item.device_data.imei).toBe(imei);
    });

    it("takes a shared device away from this user only, until its last user removes it", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const imei = newImei();
      const id = await h.addDevice(a, { imei });
      await h.db.insert(userDevices).values({ userId: b.id, deviceId: id });
      const [aDriver, bDriver] = [await driver(h, a, id), await driver(h, b, id)];

      ok(await destroy(h, a, id), DestroyDeviceResponseSchema);
      expect(await listed(h, a, id)).toBeUndefined();
      expect((await listed(h, b, id))?.item.device_data.imei).toBe(imei);
      expect((await rows(h, id)).device).toMatchObject({ deleted: false });
      expect(await driverDevice(h, aDriver)).toBeNull();
      expect(await driverDevice(h, bDriver)).toBe(id);
      // Still b's, so still taken.
      expect(invalid(await h.post("/add_device", { user: a, body: deviceFields({ imei }) }))).toEqual({ imei: expect.any(String) });
      failure(await destroy(h, a, id), 404);

      ok(await destroy(h, b, id), DestroyDeviceResponseSchema);
      expect((await rows(h, id)).device).toMatchObject({ deleted: true });
      expect(await driverDevice(h, bDriver)).toBeNull();
      await h.addDevice(a, { imei });
    });

    it("deletes a shared device whose owners leave at the same time, rather than orphaning it", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const id = await h.addDevice(a);
      await h.db.insert(userDevices).values({ userId: b.id, deviceId: id });
      const replies = await Promise.all([destroy(h, a, id), destroy(h, b, id)]);
      for (const res of replies) ok(res, DestroyDeviceResponseSchema);
      expect(await rows(h, id)).toMatchObject({ device: { deleted: true }, pivots: [] });
    });

    it("wants a device id that is a positive integer", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      expect(invalid(await h.get("/destroy_device", { user }))).toEqual({ device_id: expect.any(String) });
      for (const bad of ["abc", "-1", `${id} OR 1=1`]) expect(Object.keys(invalid(await destroy(h, user, bad)))).toEqual(["device_id"]);
      failure(await destroy(h, user, "3000000000"), 404);
      expect(await listed(h, user, id)).toBeDefined();
    });
  });

  describe("change_active_device", () => {
    const activeOf = async (user: TestUser, id: number) => (await listed(h, user, id))?.item.device_data.pivot.active;

    it("deactivates and activates one device, shown at once in both lists", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      const time = await quietPoll(h, user);

      ok(await setActive(h, user, id, "false"), ChangeActiveDeviceResponseSchema);
      expect((await listed(h, user, id))?.item.device_data).toMatchObject({ active: "0", pivot: { active: "0" } });
      const polled = await latest(h, user, time);
      expect(polled.items.map((i) => i.id)).toEqual([id]);
      expect(polled.items[0]!.device_data.active).toBe("0");

      for (const [value, expected] of [["1", "1"], [0, "0"], ["true", "1"]] as const) {
        ok(await setActive(h, user, id, value), ChangeActiveDeviceResponseSchema);
        expect(await activeOf(user, id), String(value)).toBe(expected);
      }
    });

    it("takes a list of ids from the query or the body", async () => {
      const user = await h.newUser();
      const [a, b, c] = [await h.addDevice(user), await h.addDevice(user), await h.addDevice(user)];
      const states = async () => [await activeOf(user, a), await activeOf(user, b), await activeOf(user, c)];

      ok(await rawGet(h, user, "/change_active_device", `id[]=${a}&id[]=${b}&active=false`), ChangeActiveDeviceResponseSchema);
      expect(await states()).toEqual(["0", "0", "1"]);
      ok(await rawGet(h, user, "/change_active_device", `id[0]=${b}&id[1]=${c}&id[2]=${b}&active=0`), ChangeActiveDeviceResponseSchema);
      expect(await states()).toEqual(["0", "0", "0"]);
      ok(await rawGet(h, user, "/change_active_device", `id=${a}&id=${c}&active=1`), ChangeActiveDeviceResponseSchema);
      expect(await states()).toEqual(["1", "0", "1"]);
      ok(await h.post("/change_active_device", { user, body: { id: [a, b, c], active: false } }), ChangeActiveDeviceResponseSchema);
      expect(await states()).toEqual(["0", "0", "0"]);
      ok(await h.post("/change_active_device", { user, body: { id: b, active: true } }), ChangeActiveDeviceResponseSchema);
      expect(await states()).toEqual(["0", "1", "0"]);
      ok(await h.post("/change_active_device", { user, as: "form", body: { "id[0]": a, "id[1]": c, active: "true" } }), ChangeActiveDeviceResponseSchema);
      expect(await states()).toEqual(["1", "1", "1"]);
      ok(await h.post("/change_active_device", { user, as: "multipart", query: { id: c }, body: { active: "0" } }), ChangeActiveDeviceResponseSchema);
      expect(await states()).toEqual(["1", "1", "0"]);
      // active left out is off, as for the other change_active_* calls (an unchecked box is not sent).
      ok(await rawGet(h, user, "/change_active_device", `id=${a}`), ChangeActiveDeviceResponseSchema);
      expect(await states()).toEqual(["0", "1", "0"]);
    });

    it("changes nothing when any id is not one of the user's devices", async () => {
      const [user, other] = [await h.newUser(), await h.newUser()];
      const [a, b] = [await h.addDevice(user), await h.addDevice(user)];
      const theirs = await h.addDevice(other);
      const gone = await h.addDevice(user);
      ok(await destroy(h, user, gone), DestroyDeviceResponseSchema);
      const before = await Promise.all([a, b, theirs].map((id) => rows(h, id)));

      for (const stranger of [theirs, gone, 2_147_483_647, 3_000_000_000]) {
        expect(failure(await h.post("/change_active_device", { user, body: { id: [a, stranger, b], active: false } }), 404), String(stranger)).toBe("Device not found.");
        failure(await rawGet(h, user, "/change_active_device", `id[]=${a}&id[]=${stranger}&active=0`), 404);
      }
      expect(await Promise.all([a, b, theirs].map((id) => rows(h, id)))).toEqual(before);
    });

    it("refuses malformed ids and flags, changing nothing", async () => {
      const user = await h.newUser();
      const id = await h.addDevice(user);
      const before = await rows(h, id);
      const cases: [unknown, string[]][] = [
        [{ id, active: "yes" }, ["active"]],
        [{ id, active: null }, ["active"]],
        [{ id, active: 2 }, ["active"]],
        [{ id, active: "" }, ["active"]],
        [{ active: false }, ["id"]],
        [{ id: "abc", active: false }, ["id"]],
        [{ id: [], active: false }, ["id"]],
        [{ id: 0, active: false }, ["id"]],
        [{ id: { $gt: 0 }, active: false }, ["id"]],
        [{ id: `${id} OR 1=1`, active: false }, ["id"]],
        [{ id: ["1e400"], active: false }, ["id"]],
      ];
      for (const [body, fields] of cases) {
        const errors = invalid(await h.post("/change_active_device", { user, body }));
        expect(Object.keys(errors).filter((k) => !k.startsWith("id.")), JSON.stringify(body)).toEqual(fields);
      }
      expect(Object.keys(invalid(await setActive(h, user, `${id}'--`, 0))).filter((k) => !k.startsWith("id."))).toEqual(["id"]);
      expect(Object.keys(invalid(await rawGet(h, user, "/change_active_device", `id=${id}&active=maybe`)))).toEqual(["active"]);
      expect(await rows(h, id)).toEqual(before);
    });
  });

  it("lists the four endpoints in the OpenAPI document with their schemas", async () => {
    const res = await h.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.status).toBe(200);
    const paths = (res.body as { paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown; parameters?: unknown[] }>> }).paths;
    for (const [path, method] of [["edit_device_data", "get"], ["edit_device", "post"], ["destroy_device", "get"], ["change_active_device", "get"], ["change_active_device", "post"]] as const) {
      const op = paths[`/api/${path}`]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(["200", "404", "422"]));
    }
    expect(paths["/api/edit_device"]!.post!.requestBody).toBeDefined();
    expect(JSON.stringify(paths["/api/change_active_device"]!.get!.parameters)).toContain('"active"');
  });

  describe("isolation", () => {
    it("answers another user's device exactly as a missing one, on every endpoint, and leaves it alone", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const id = await h.addDevice(a, { name: "A's truck" });
      const before = await rows(h, id);
      const missing = 2_147_483_000;
      for (const target of [id, missing]) {
        const replies = [
          await editData(h, b, target),
          await edit(h, b, target, { name: "Hijacked" }),
          await h.post("/edit_device", { user: b, as: "form", body: { device_id: target, name: "Hijacked" } }),
          await destroy(h, b, target),
          await setActive(h, b, target, 0),
          await h.post("/change_active_device", { user: b, body: { id: [target], active: false } }),
        ];
        for (const res of replies) expect(res.body, res.label).toEqual({ status: 0, error: "Device not found." });
        for (const res of replies) expect(res.status, res.label).toBe(404);
      }
      expect(await rows(h, id)).toEqual(before);
      expect((await listed(h, a, id))?.item).toMatchObject({ name: "A's truck", device_data: { active: "1" } });
      expect(await listed(h, b, id)).toBeUndefined();
    });
  });
});

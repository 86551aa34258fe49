import { describe, expect, it } from "vitest";
import { AddDeviceDataSchema, AddDeviceResponseSchema, GetDevicesResponseSchema, UTC_TIMEZONE_ID } from "@fleet/contracts";
import { countUserDevices, deviceGroups, devices, userDevices } from "@fleet/db";
import { describeApi, deviceFields, invalid, liveState, newImei, ok, type ApiHarness, type TestUser } from "./fixture.js";

const REQUIRED = ["name", "imei", "icon_id", "fuel_measurement_id", "tail_length", "min_moving_speed", "min_fuel_fillings", "min_fuel_thefts"];

async function group(h: ApiHarness, user: TestUser, title: string): Promise<number> {
  const [row] = await h.db.insert(deviceGroups).values({ userId: user.id, title }).returning();
  return row!.id;
}

/** Rows in both device tables: a failed add_device must leave both unchanged. */
async function deviceRows(h: ApiHarness): Promise<{ devices: number; pivots: number }> {
  return { devices: (await h.db.select().from(devices)).length, pivots: (await h.db.select().from(userDevices)).length };
}

/** The live list item of one device, wherever it is grouped. */
async function listed(h: ApiHarness, user: TestUser, id: number) {
  const groups = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema);
  return groups.flatMap((g) => g.items.map((item) => ({ group: g.title, item }))).find((x) => x.item.id === id);
}

describeApi("devices: add", (h) => {
  describe("add_device_data", () => {
    it("offers the option lists add_device takes", async () => {
      const user = await h.newUser();
      const vans = await group(h, user, "Vans");
      const other = await h.newUser();
      await group(h, other, "Not yours");
      const data = ok(await h.get("/add_device_data", { user }), AddDeviceDataSchema);

      expect(data.status).toBe(1);
      expect(data.device_groups).toEqual([
        { id: 0, value: "Ungrouped" },
        { id: vans, value: "Vans" },
      ]);
      expect(data.timezones[0]).toEqual({ id: 0, value: expect.any(String) });
      expect(data.timezones).toContainEqual({ id: UTC_TIMEZONE_ID, value: "UTC +00:00" });
      expect(data.timezones).toContainEqual({ id: 65, value: "UTC +02:00" });
      expect(new Set(data.timezones.map((t) => t.id)).size).toBe(data.timezones.length);
      expect(data.device_icons.length).toBeGreaterThan(0);
      expect(data.device_icons.map((i) => i.id)).toContain("1");
      expect(data.device_fuel_measurements.map((f) => f.id)).toContain("1");
      expect(data.device_fuel_measurements.find((f) => f.id === "1")).toMatchObject({ title: "l/100km", fuel_title: "liter" });
      expect(Object.keys(data.expiration_date_select).sort()).toEqual(["0000-00-00", "1"]);
      expect(data.users).toEqual([]);
    });

    it("lists the users to an administrator", async () => {
      const user = await h.newUser();
      const data = ok(await h.get("/add_device_data", { user: h.admin }), AddDeviceDataSchema);
      expect(data.users).toContainEqual({ id: user.id, email: user.email });
      expect(data.users).toContainEqual({ id: h.admin.id, email: h.admin.email });
    });
  });

  describe("add_device", () => {
    it("creates a device that appears in get_devices with the defaults applied", async () => {
      const user = await h.newUser();
      const fields = deviceFields({ name: "Truck 7", plate_number: "ABC-123" });
      const res = ok(await h.post("/add_device", { user, body: fields }), AddDeviceResponseSchema);
      expect(res).toEqual({ status: 1, id: expect.any(Number) });
      expect(await countUserDevices(h.db, user.id)).toBe(1);

      const found = await listed(h, user, res.id);
      expect(found?.group).toBe("Ungrouped");
      const item = found!.item;
      expect(item).toMatchObject({ id: res.id, name: "Truck 7", icon_type: "icon" });
      expect(item.icon_colors).toEqual({ moving: "green", stopped: "red", offline: "red", engine: "yellow" });
      expect(item.users).toEqual([{ id: user.id, email: user.email }]);
      expect(item.device_data).toMatchObject({
        id: String(res.id),
        user_id: null,
        name: "Truck 7",
        imei: fields.imei,
        icon_id: "1",
        fuel_measurement_id: "1",
        tail_length: "5",
        min_moving_speed: "6",
        fuel_quantity: "0.00",
        fuel_price: "0.00",
        plate_number: "ABC-123",
        sim_number: "",
        active: "1",
        deleted: "0",
        group_id: null,
        pivot: { user_id: String(user.id), device_id: String(res.id), group_id: null, current_driver_id: "0", active: "1", timezone_id: null },
      });
      expect(item.device_data.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    it("keeps the options it is given", async () => {
      const user = await h.newUser();
      const vans = await group(h, user, "Vans");
      const fields = deviceFields({
        group_id: vans,
        device_icons_type: "arrow",
        icon_moving: "blue",
        icon_stopped: "black",
        icon_offline: "orange",
        icon_engine: "green",
        fuel_quantity: 12.5,
        fuel_price: 1.75,
        icon_id: 0,
        fuel_measurement_id: 2,
        vin: "WVWZZZ1JZXW000001",
        timezone_id: 65,
      });
      const id = ok(await h.post("/add_device", { user, body: fields }), AddDeviceResponseSchema).id;
      const found = await listed(h, user, id);
      expect(found?.group).toBe("Vans");
      expect(found!.item.icon_type).toBe("arrow");
      expect(found!.item.icon_colors).toEqual({ moving: "blue", stopped: "black", offline: "orange", engine: "green" });
      expect(found!.item.device_data).toMatchObject({ fuel_quantity: "12.50", fuel_price: "1.75", icon_id: "0", fuel_measurement_id: "2", vin: fields.vin, group_id: String(vans) });
      expect(found!.item.device_data.pivot.timezone_id).toBe("65");
    });

    it("shows a device's fix time in the timezone chosen for it, else in the user's", async () => {
      const user = await h.newUser({ timezoneId: 57 }); // UTC
      const own = ok(await h.post("/add_device", { user, body: deviceFields({ timezone_id: 65 }) }), AddDeviceResponseSchema).id; // UTC+02:00
      const plain = ok(await h.post("/add_device", { user, body: deviceFields() }), AddDeviceResponseSchema).id;
      const fixTime = Date.UTC(2026, 10, 21, 10, 30, 0);
      await h.live.putStates([own, plain].map((id) => ({ state: liveState(id, { fixTime }), userIds: [user.id] })));
      expect((await listed(h, user, own))!.item.time).toBe("2026-11-21 12:30:00");
      expect((await listed(h, user, plain))!.item.time).toBe("2026-11-21 10:30:00");
    });

    it.each(["form", "multipart"] as const)("accepts numeric strings from a %s body", async (as) => {
      const user = await h.newUser();
      const body = { ...deviceFields(), tail_length: "7", min_moving_speed: "4.5", group_id: "0", fuel_quantity: "3" };
      const id = ok(await h.post("/add_device", { user, as, body }), AddDeviceResponseSchema).id;
      const found = await listed(h, user, id);
      expect(found?.group).toBe("Ungrouped");
      expect(found!.item.device_data).toMatchObject({ tail_length: "7", min_moving_speed: "4.5", fuel_quantity: "3.00" });
    });

    it("names every missing required field, whatever the body type", async () => {
      const user = await h.newUser();
      const before = await deviceRows(h);
      expect(Object.keys(invalid(await h.post("/add_device", { user, body: {} }))).sort()).toEqual([...REQUIRED].sort());
      expect(Object.keys(invalid(await h.post("/add_device", { user, as: "multipart", body: { vin: "x" } }))).sort()).toEqual([...REQUIRED].sort());
      for (const field of REQUIRED) {
        const errors = invalid(await h.post("/add_device", { user, as: "form", body: deviceFields({ [field]: undefined }) }));
        expect(errors, field).toEqual({ [field]: expect.stringContaining("required") });
      }
      expect(await deviceRows(h)).toEqual(before);
    });

    it("refuses wrong types, unknown options, out-of-range numbers and oversized strings", async () => {
      const user = await h.newUser();
      const before = await deviceRows(h);
      const cases: [Record<string, unknown>, string][] = [
        [{ tail_length: "abc" }, "tail_length"],
        [{ tail_length: 2.5 }, "tail_length"],
        [{ tail_length: 31 }, "tail_length"],
        [{ min_moving_speed: -1 }, "min_moving_speed"],
        [{ min_fuel_fillings: "lots" }, "min_fuel_fillings"],
        [{ icon_moving: "purple" }, "icon_moving"],
        [{ icon_engine: "" }, "icon_engine"],
        [{ device_icons_type: "square" }, "device_icons_type"],
        [{ name: "x".repeat(256) }, "name"],
        [{ name: "" }, "name"],
        [{ imei: "1".repeat(65) }, "imei"],
        [{ imei: "12 34" }, "imei"],
        [{ plate_number: "P".repeat(65) }, "plate_number"],
        [{ additional_notes: "n".repeat(5001) }, "additional_notes"],
        [{ icon_id: 999 }, "icon_id"],
        [{ icon_id: -1 }, "icon_id"],
        [{ fuel_measurement_id: 42 }, "fuel_measurement_id"],
        [{ timezone_id: 500 }, "timezone_id"],
        [{ group_id: "first" }, "group_id"],
        [{ group_id: 999_999 }, "group_id"],
        // Beyond a 32-bit id: must read as "no such group", not reach the database.
        [{ group_id: 3_000_000_000 }, "group_id"],
      ];
      for (const [override, field] of cases) {
        const errors = invalid(await h.post("/add_device", { user, body: deviceFields(override) }));
        expect(Object.keys(errors), JSON.stringify(override)).toEqual([field]);
      }
      const both = invalid(await h.post("/add_device", { user, body: deviceFields({ tail_length: "abc", icon_moving: "purple" }) }));
      expect(both).toEqual({ tail_length: "The tail length must be an integer.", icon_moving: "The selected icon moving is invalid." });
      expect(await deviceRows(h)).toEqual(before);
    });

    it("refuses an IMEI that is already registered, to anyone", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const imei = newImei();
      await h.addDevice(a, { imei });
      const before = await deviceRows(h);
      expect(invalid(await h.post("/add_device", { user: a, body: deviceFields({ imei }) }))).toEqual({ imei: expect.any(String) });
      expect(invalid(await h.post("/add_device", { user: b, as: "multipart", body: deviceFields({ imei }) }))).toEqual({ imei: expect.any(String) });
      expect(await deviceRows(h)).toEqual(before);
      expect(await countUserDevices(h.db, b.id)).toBe(0);
    });

    it("holds an account to its devices_limit", async () => {
      const user = await h.newUser({ devicesLimit: 1 });
      await h.addDevice(user);
      const before = await deviceRows(h);
      const errors = invalid(await h.post("/add_device", { user, body: deviceFields() }));
      expect(Object.keys(errors)).toHaveLength(1);
      expect(await deviceRows(h)).toEqual(before);
      expect(await countUserDevices(h.db, user.id)).toBe(1);
      // Unlimited accounts (null) are not held to anything.
      const free = await h.newUser();
      for (let i = 0; i < 3; i++) await h.addDevice(free);
      expect(await countUserDevices(h.db, free.id)).toBe(3);
    });

    it("does not let concurrent adds slip past devices_limit", async () => {
      const user = await h.newUser({ devicesLimit: 2 });
      const results = await Promise.all(Array.from({ length: 6 }, () => h.post("/add_device", { user, body: deviceFields() })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(2);
      expect(results.filter((r) => r.status === 422)).toHaveLength(4);
      expect(await countUserDevices(h.db, user.id)).toBe(2);
    });

    it("files a device into its own group, never into another user's", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aGroup = await group(h, a, "A's vans");
      const bGroup = await group(h, b, "B's vans");
      const before = await deviceRows(h);
      expect(invalid(await h.post("/add_device", { user: b, body: deviceFields({ group_id: aGroup }) }))).toEqual({ group_id: expect.any(String) });
      expect(await deviceRows(h)).toEqual(before);
      expect(await countUserDevices(h.db, b.id)).toBe(0);

      const id = await h.addDevice(b, { group_id: bGroup });
      expect((await listed(h, b, id))?.group).toBe("B's vans");
      // group_id 0 is "Ungrouped", as add_device_data offers it.
      const loose = await h.addDevice(b, { group_id: 0 });
      expect((await listed(h, b, loose))?.group).toBe("Ungrouped");
    });
  });
});

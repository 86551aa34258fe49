import { describe, expect, it } from "vitest";
import {
  AddUserDriverDataResponseSchema,
  AddUserDriverResponseSchema,
  DriverChangedResponseSchema,
  EditUserDriverDataResponseSchema,
  GetDevicesLatestResponseSchema,
  GetDevicesResponseSchema,
  GetUserDriversResponseSchema,
  userClock,
  type DriverRecord,
} from "@fleet/contracts";
import { findUserDevice, findUserDriver } from "@fleet/db";
import { describeApi, failure, invalid, nextSecond, ok, type ApiHarness, type BodyEncoding, type TestUser, signedLink } from "./fixture.js";

type Fields = Record<string, string | number>;

async function addDriver(h: ApiHarness, user: TestUser, deviceId: number, fields: Fields = {}, as: BodyEncoding = "json") {
  const res = await h.post("/add_user_driver", { user, as, body: { device_id: deviceId, name: `Driver ${Math.random().toString(36).slice(2, 8)}`, ...fields } });
  return ok(res, AddUserDriverResponseSchema).item;
}

async function list(h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) {
  return ok(await h.get("/get_user_drivers", { user, query }), GetUserDriversResponseSchema).items.drivers;
}

async function editData(h: ApiHarness, user: TestUser, id: number) {
  return ok(await h.get("/edit_user_driver_data", { user, query: { user_driver_id: id } }), EditUserDriverDataResponseSchema);
}

/** What get_devices shows as each device's driver. */
async function liveDrivers(h: ApiHarness, user: TestUser): Promise<Map<number, string>> {
  const groups = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema);
  return new Map(groups.flatMap((g) => g.items).map((i) => [i.id, i.driver]));
}

async function currentDriverId(h: ApiHarness, user: TestUser, deviceId: number): Promise<number | null> {
  return (await findUserDevice(h.db, user.id, deviceId))!.pivot.currentDriverId;
}

describeApi("drivers", (h) => {
  describe("get_user_drivers", () => {
    it("is an empty page for a user without drivers", async () => {
      const user = await h.newUser();
      expect(await list(h, user)).toEqual({
        total: 0,
        per_page: 10,
        current_page: 1,
        last_page: 1,
        from: 0,
        to: 0,
        next_page_url: null,
        prev_page_url: null,
        url: "/api/get_user_drivers",
        data: [],
      });
    });

    it("returns records as the spec types them, timestamps in the user's timezone", async () => {
      // Timezone 65 is UTC+02:00.
      const user = await h.newUser({ timezoneId: 65 });
      const device = await h.addDevice(user);
      const added = await addDriver(h, user, device, { name: "Jonas", rfid: "AB12", phone: "+37060000000", email: "jonas@example.com", description: "night shift" });
      const row = (await findUserDriver(h.db, user.id, added.id))!;
      const stamp = userClock({ timezoneId: 65 }).format(row.createdAt.getTime());
      expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect((await list(h, user)).data).toEqual([
        {
          id: added.id,
          user_id: user.id,
          device_id: device,
          device_port: null,
          name: "Jonas",
          rfid: "AB12",
          phone: "+37060000000",
          email: "jonas@example.com",
          description: "night shift",
          created_at: stamp,
          updated_at: userClock({ timezoneId: 65 }).format(row.updatedAt.getTime()),
        } satisfies DriverRecord,
      ]);
    });

    it("pages 25 drivers by id, 10 a page, with next and prev links that work once signed, carrying no api hash", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const ids: number[] = [];
      for (let i = 0; i < 25; i++) ids.push((await addDriver(h, user, device, { name: `D${i}` })).id);

      const first = await list(h, user);
      expect(first).toMatchObject({ total: 25, per_page: 10, current_page: 1, last_page: 3, from: 1, to: 10, prev_page_url: null, url: "/api/get_user_drivers" });
      expect(first.data.map((d) => d.id)).toEqual(ids.slice(0, 10));

      const follow = async (link: string | null) => {
        expect(link).toEqual(expect.stringMatching(/^\/api\/get_user_drivers\?/));
        // A link in a body is logged and shared: it carries no credential, and the client adds its own.
        return ok(await h.inject({ method: "GET", url: signedLink(link, user.hash) }), GetUserDriversResponseSchema).items.drivers;
      };
      const second = await follow(first.next_page_url);
      expect(second).toMatchObject({ current_page: 2, from: 11, to: 20 });
      expect(second.data.map((d) => d.id)).toEqual(ids.slice(10, 20));
      const third = await follow(second.next_page_url);
      expect(third).toMatchObject({ current_page: 3, last_page: 3, from: 21, to: 25, next_page_url: null });
      expect(third.data.map((d) => d.id)).toEqual(ids.slice(20));
      const back = await follow(third.prev_page_url);
      expect(back.data.map((d) => d.id)).toEqual(ids.slice(10, 20));
      expect((await follow(back.prev_page_url)).data.map((d) => d.id)).toEqual(ids.slice(0, 10));

      // per_page carries into the links; a page past the end is empty.
      const sevens = await list(h, user, { per_page: 7, page: 4 });
      expect(sevens).toMatchObject({ per_page: 7, last_page: 4, from: 22, to: 25, next_page_url: null });
      expect((await follow(sevens.prev_page_url)).data.map((d) => d.id)).toEqual(ids.slice(14, 21));
      expect(await list(h, user, { page: 9 })).toMatchObject({ total: 25, current_page: 9, from: 0, to: 0, data: [] });
    });

    it("refuses page and per_page that are not in range", async () => {
      const user = await h.newUser();
      const queries: Record<string, string | number>[] = [{ page: 0 }, { page: "abc" }, { per_page: 0 }, { per_page: 101 }, { per_page: "1.5" }];
      for (const query of queries) {
        expect(Object.keys(invalid(await h.get("/get_user_drivers", { user, query }))), JSON.stringify(query)).toHaveLength(1);
      }
    });

    it("never lists another user's drivers", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDriver = await addDriver(h, a, await h.addDevice(a));
      const bDriver = await addDriver(h, b, await h.addDevice(b));
      expect((await list(h, a)).data.map((d) => d.id)).toEqual([aDriver.id]);
      expect((await list(h, b)).data.map((d) => d.id)).toEqual([bDriver.id]);
      expect((await list(h, b)).total).toBe(1);
    });
  });

  describe("add_user_driver_data", () => {
    it("maps the user's own devices' ids to their names", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      expect(ok(await h.get("/add_user_driver_data", { user: a }), AddUserDriverDataResponseSchema)).toEqual({ devices: {}, status: 1 });
      const van = await h.addDevice(a, { name: "Van" });
      const truck = await h.addDevice(a, { name: "Truck" });
      await h.addDevice(b, { name: "Not yours" });
      expect(ok(await h.get("/add_user_driver_data", { user: a }), AddUserDriverDataResponseSchema)).toEqual({ devices: { [van]: "Van", [truck]: "Truck" }, status: 1 });
    });
  });

  describe("add_user_driver", () => {
    it("creates a driver from JSON, form and multipart bodies", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      for (const as of ["json", "form", "multipart"] as const) {
        const item = await addDriver(h, user, device, { name: `By ${as}`, rfid: `rfid-${as}`, email: "" }, as);
        expect(item).toMatchObject({ name: `By ${as}`, user_id: user.id });
        expect(item.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        expect((await editData(h, user, item.id)).item).toMatchObject({ name: `By ${as}`, rfid: `rfid-${as}`, email: "", phone: "", description: "", device_id: device });
      }
      expect((await list(h, user)).total).toBe(3);
    });

    it("makes the new driver its device's current driver, set by hand", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const item = await addDriver(h, user, device, { name: "Ona" });
      const { pivot } = (await findUserDevice(h.db, user.id, device))!;
      expect(pivot).toMatchObject({ currentDriverId: item.id, currentDriverSince: null });
    });

    it("refuses a device that is not the user's, creating nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const bDevice = await h.addDevice(b);
      await h.addDevice(a);
      for (const deviceId of [bDevice, 2_000_000_000, 99_999_999_999]) {
        const errors = invalid(await h.post("/add_user_driver", { user: a, body: { device_id: deviceId, name: "Sneaky" } }));
        expect(errors, String(deviceId)).toEqual({ device_id: "The selected device id is invalid." });
      }
      expect((await list(h, a)).total).toBe(0);
      expect(await currentDriverId(h, b, bDevice)).toBeNull();
    });

    it("refuses invalid fields with 422 naming them, creating nothing", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const cases: [Record<string, unknown>, string][] = [
        [{ device_id: device }, "name"],
        [{ name: "No device" }, "device_id"],
        [{ device_id: device, name: "" }, "name"],
        [{ device_id: device, name: "   " }, "name"],
        [{ device_id: device, name: { first: "A" } }, "name"],
        [{ device_id: device, name: ["a", "b"] }, "name"],
        [{ device_id: "abc", name: "Typed" }, "device_id"],
        [{ device_id: 1.5, name: "Typed" }, "device_id"],
        [{ device_id: device, name: "x".repeat(10_000) }, "name"],
        [{ device_id: device, name: "Mail", email: "not-an-email" }, "email"],
        [{ device_id: device, name: "Mail", email: "a@b" }, "email"],
        [{ device_id: device, name: "Card", rfid: "r".repeat(65) }, "rfid"],
        [{ device_id: device, name: "Long", description: "d".repeat(5001) }, "description"],
      ];
      for (const [body, field] of cases) {
        expect(invalid(await h.post("/add_user_driver", { user, body })), `${JSON.stringify(body).slice(0, 80)}`).toHaveProperty(field);
      }
      expect((await list(h, user)).total).toBe(0);
      expect(await currentDriverId(h, user, device)).toBeNull();
    });

    it("stores injection-looking text verbatim", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const fields = {
        name: "Robert'); DROP TABLE drivers;--",
        rfid: "' OR '1'='1",
        phone: "${jndi:ldap://x}",
        email: "o'brien@example.com",
        description: "<script>alert(1)</script> {{7*7}} \\x00 ü ☃",
      };
      const item = await addDriver(h, user, device, fields);
      expect((await editData(h, user, item.id)).item).toMatchObject(fields);
      expect((await list(h, user)).data[0]).toMatchObject(fields);
    });
  });

  describe("edit_user_driver_data", () => {
    it("returns the driver and the user's devices", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user, { name: "Bus" });
      const item = await addDriver(h, user, device, { name: "Rita", rfid: "77" });
      const data = await editData(h, user, item.id);
      expect(data).toMatchObject({ status: 1, devices: { [device]: "Bus" } });
      expect(data.item).toMatchObject({ id: item.id, user_id: user.id, device_id: device, device_port: null, name: "Rita", rfid: "77", created_at: item.created_at });
    });

    it("answers a missing id, another user's and a malformed one alike, or with 422", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDriver = await addDriver(h, a, await h.addDevice(a));
      const missing = failure(await h.get("/edit_user_driver_data", { user: b, query: { user_driver_id: 2_000_000_000 } }), 404);
      expect(failure(await h.get("/edit_user_driver_data", { user: b, query: { user_driver_id: aDriver.id } }), 404)).toBe(missing);
      expect(failure(await h.get("/edit_user_driver_data", { user: b, query: { user_driver_id: 99_999_999_999 } }), 404)).toBe(missing);
      expect(invalid(await h.get("/edit_user_driver_data", { user: b }))).toHaveProperty("user_driver_id");
      expect(invalid(await h.get("/edit_user_driver_data", { user: b, query: { user_driver_id: "abc" } }))).toHaveProperty("user_driver_id");
    });
  });

  describe("edit_user_driver", () => {
    it("updates the driver; optional fields left out keep their values", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const item = await addDriver(h, user, device, { name: "Old", rfid: "keep-me", phone: "123", description: "was" });
      const res = await h.post("/edit_user_driver", { user, as: "multipart", body: { id: item.id, device_id: device, name: "New", phone: "", description: "is" } });
      expect(ok(res, DriverChangedResponseSchema)).toEqual({ status: 1 });
      expect((await editData(h, user, item.id)).item).toMatchObject({ name: "New", rfid: "keep-me", phone: "", description: "is", created_at: item.created_at });
    });

    it("moves the driver to another device: current there, no longer on the old one", async () => {
      const user = await h.newUser();
      const [van, truck] = [await h.addDevice(user), await h.addDevice(user)];
      const item = await addDriver(h, user, van, { name: "Mover" });
      ok(await h.post("/edit_user_driver", { user, body: { id: item.id, device_id: truck, name: "Mover" } }), DriverChangedResponseSchema);
      expect(await currentDriverId(h, user, van)).toBeNull();
      expect(await currentDriverId(h, user, truck)).toBe(item.id);
      expect((await editData(h, user, item.id)).item.device_id).toBe(truck);
    });

    it("answers another user's driver with 404 and leaves it unchanged", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await h.addDevice(a);
      const bDevice = await h.addDevice(b);
      const aDriver = await addDriver(h, a, aDevice, { name: "Alice's" });
      const before = await editData(h, a, aDriver.id);
      const missing = failure(await h.post("/edit_user_driver", { user: b, body: { id: 2_000_000_000, device_id: bDevice, name: "Mine now" } }), 404);
      expect(failure(await h.post("/edit_user_driver", { user: b, body: { id: aDriver.id, device_id: bDevice, name: "Mine now" } }), 404)).toBe(missing);
      expect(await editData(h, a, aDriver.id)).toEqual(before);
      expect(await currentDriverId(h, b, bDevice)).toBeNull();
      expect(await currentDriverId(h, a, aDevice)).toBe(aDriver.id);
    });

    it("refuses another user's device and invalid fields, changing nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await h.addDevice(a);
      const bDevice = await h.addDevice(b);
      const item = await addDriver(h, a, aDevice, { name: "Steady", email: "steady@example.com" });
      const before = await editData(h, a, item.id);
      expect(invalid(await h.post("/edit_user_driver", { user: a, body: { id: item.id, device_id: bDevice, name: "Moved" } }))).toEqual({ device_id: "The selected device id is invalid." });
      const cases: [Record<string, unknown>, string][] = [
        [{ device_id: aDevice, name: "No id" }, "id"],
        [{ id: item.id, name: "No device" }, "device_id"],
        [{ id: item.id, device_id: aDevice }, "name"],
        [{ id: "x", device_id: aDevice, name: "Typed" }, "id"],
        [{ id: item.id, device_id: aDevice, name: "x".repeat(10_000) }, "name"],
        [{ id: item.id, device_id: aDevice, name: "Mail", email: "nope" }, "email"],
      ];
      for (const [body, field] of cases) {
        expect(invalid(await h.post("/edit_user_driver", { user: a, body })), JSON.stringify(body).slice(0, 80)).toHaveProperty(field);
      }
      expect(await editData(h, a, item.id)).toEqual(before);
      expect(await currentDriverId(h, b, bDevice)).toBeNull();
    });
  });

  describe("destroy_user_driver", () => {
    it("deletes the driver; its device has no current driver", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const keep = await addDriver(h, user, device);
      const gone = await addDriver(h, user, device);
      expect(ok(await h.get("/destroy_user_driver", { user, query: { user_driver_id: gone.id } }), DriverChangedResponseSchema)).toEqual({ status: 1 });
      expect((await list(h, user)).data.map((d) => d.id)).toEqual([keep.id]);
      expect(await currentDriverId(h, user, device)).toBeNull();
      // Gone means gone: a second delete is a 404 like any unknown id.
      failure(await h.get("/destroy_user_driver", { user, query: { user_driver_id: gone.id } }), 404);
    });

    it("answers another user's driver with 404 and keeps it", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await h.addDevice(a);
      const aDriver = await addDriver(h, a, aDevice);
      const before = await editData(h, a, aDriver.id);
      const missing = failure(await h.get("/destroy_user_driver", { user: b, query: { user_driver_id: 2_000_000_000 } }), 404);
      expect(failure(await h.get("/destroy_user_driver", { user: b, query: { user_driver_id: aDriver.id } }), 404)).toBe(missing);
      expect(await editData(h, a, aDriver.id)).toEqual(before);
      expect(await currentDriverId(h, a, aDevice)).toBe(aDriver.id);
      expect(invalid(await h.get("/destroy_user_driver", { user: b, query: { user_driver_id: -1 } }))).toHaveProperty("user_driver_id");
    });
  });

  describe("the live list", () => {
    it("shows the current driver's name after add and edit, and '-' after destroy", async () => {
      const user = await h.newUser();
      const [van, idle] = [await h.addDevice(user), await h.addDevice(user)];
      expect(await liveDrivers(h, user)).toEqual(new Map([[van, "-"], [idle, "-"]]));
      const item = await addDriver(h, user, van, { name: "Greta" });
      expect(await liveDrivers(h, user)).toEqual(new Map([[van, "Greta"], [idle, "-"]]));
      ok(await h.post("/edit_user_driver", { user, body: { id: item.id, device_id: van, name: "Greta B." } }), DriverChangedResponseSchema);
      expect((await liveDrivers(h, user)).get(van)).toBe("Greta B.");
      ok(await h.get("/destroy_user_driver", { user, query: { user_driver_id: item.id } }), DriverChangedResponseSchema);
      expect((await liveDrivers(h, user)).get(van)).toBe("-");
    });

    it("hands each driver change to get_devices_latest pollers", async () => {
      const user = await h.newUser();
      const [van, idle] = [await h.addDevice(user), await h.addDevice(user)];
      const poll = async (time: number) => ok(await h.get("/get_devices_latest", { user, query: { time } }), GetDevicesLatestResponseSchema);
      await nextSecond();
      let since = ok(await h.get("/get_devices_latest", { user }), GetDevicesLatestResponseSchema).time;
      expect((await poll(since)).items).toEqual([]);

      const item = await addDriver(h, user, van, { name: "Paulius" });
      let res = await poll(since);
      expect(res.items.map((i) => [i.id, i.driver])).toEqual([[van, "Paulius"]]);

      await nextSecond();
      since = res.time + 1;
      ok(await h.post("/edit_user_driver", { user, body: { id: item.id, device_id: idle, name: "Paulius" } }), DriverChangedResponseSchema);
      res = await poll(since);
      expect(new Map(res.items.map((i) => [i.id, i.driver]))).toEqual(new Map([[van, "-"], [idle, "Paulius"]]));

      await nextSecond();
      since = res.time + 1;
      ok(await h.get("/destroy_user_driver", { user, query: { user_driver_id: item.id } }), DriverChangedResponseSchema);
      expect((await poll(since)).items.map((i) => [i.id, i.driver])).toEqual([[idle, "-"]]);
    });

    it("does not show one user's driver on another's list", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      await addDriver(h, a, await h.addDevice(a), { name: "Private" });
      const bDevice = await h.addDevice(b);
      expect(await liveDrivers(h, b)).toEqual(new Map([[bDevice, "-"]]));
    });
  });
});

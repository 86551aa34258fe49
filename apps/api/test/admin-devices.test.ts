import { expect, it } from "vitest";
import {
  AdminClientDevicesResponseSchema,
  AdminClientResponseSchema,
  AdminDeviceResponseSchema,
  AdminDevicesResponseSchema,
  AdminDeviceUsersResponseSchema,
  GeoOkSchema as OkSchema,
  GetDevicesResponseSchema,
  LoginResponseSchema,
  UserDataSchema,
} from "@fleet/contracts";
import { describeApi, failure, invalid, liveState, ok, type ApiHarness, type TestUser } from "./fixture.js";

/* Administrators across accounts: every device of the platform and who has it, and clients' accounts. */

/** The ids of the devices a user's live list shows. */
const seen = async (h: ApiHarness, user: TestUser) => ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema).flatMap((g) => g.items.map((i) => i.id));

describeApi("admin devices and clients", (h) => {
  it("lists and searches every device of the platform, and shows one with its latest motion", async () => {
    const [a, b] = [await h.newUser(), await h.newUser()];
    const tag = `${Date.now()}`;
    const van = await h.addDevice(a, { name: `Van ${tag}`, plate_number: `PL-${tag}` });
    const car = await h.addDevice(b, { name: `Car ${tag}` });
    await h.live.putStates([{ state: liveState(van, { speedKmh: 0, odometerKm: 1234.567, movedAt: Date.now() - 90_000 }), userIds: [a.id] }]);
    const found = ok(await h.get("/admin/devices", { user: h.admin, query: { s: tag } }), AdminDevicesResponseSchema);
    expect(found.data.map((d) => [d.id, d.name, d.protocol])).toEqual([
      [van, `Van ${tag}`, "osmand"],
      [car, `Car ${tag}`, null],
    ]);
    expect(found.pagination.total).toBe(2);
    expect(ok(await h.get("/admin/devices", { user: h.admin, query: { s: `pl-${tag}`, property: "plate_number" } }), AdminDevicesResponseSchema).data.map((d) => d.id)).toEqual([van]);
    expect(ok(await h.get("/admin/devices", { user: h.admin, query: { s: `PL-${tag}`, property: "name" } }), AdminDevicesResponseSchema).data).toEqual([]);
    const one = ok(await h.get(`/admin/device/${van}`, { user: h.admin }), AdminDeviceResponseSchema).data;
    expect(one).toMatchObject({ id: van, active: true, name: `Van ${tag}`, total_distance: 1234.57, stop_duration_sec: expect.any(Number), expiration_date: null });
    expect(one.stop_duration_sec).toBeGreaterThanOrEqual(89);
    failure(await h.get(`/admin/device/${car + 1_000_000}`, { user: h.admin }), 404);
  });

  it("gives a device to a user and takes it away; the last one out deletes it", async () => {
    const [owner, other] = [await h.newUser(), await h.newUser()];
    const van = await h.addDevice(owner);
    ok(await h.post(`/admin/device/${van}/user`, { user: h.admin, body: { email: other.email.toUpperCase() } }), OkSchema);
    expect(await seen(h, other)).toEqual([van]);
    const users = ok(await h.get(`/admin/device/${van}/users`, { user: h.admin }), AdminDeviceUsersResponseSchema);
    expect(users.data).toEqual([
      { id: owner.id, email: owner.email, active: 1 },
      { id: other.id, email: other.email, active: 1 },
    ]);
    expect(ok(await h.get(`/admin/client/${other.id}/devices`, { user: h.admin }), AdminClientDevicesResponseSchema).data).toEqual([{ id: van, name: expect.any(String) }]);
    ok(await h.request("DELETE", `/admin/device/${van}/user`, { user: h.admin, query: { user_id: owner.id } }), OkSchema);
    expect(await seen(h, owner)).toEqual([]);
    expect(await seen(h, other)).toEqual([van]);
    // Taking it from a user who does not have it is a miss; from the last one deletes the device.
    failure(await h.request("DELETE", `/admin/device/${van}/user`, { user: h.admin, body: { user_id: owner.id } }), 404);
    ok(await h.request("DELETE", `/admin/device/${van}/user`, { user: h.admin, body: { user_id: other.id } }), OkSchema);
    failure(await h.get(`/admin/device/${van}`, { user: h.admin }), 404);
    failure(await h.post(`/admin/device/${van}/user`, { user: h.admin, body: { user_id: owner.id } }), 404);
    // Naming no user is a 422, as naming no client is on /admin/client/status.
    const car = await h.addDevice(owner);
    expect(Object.keys(invalid(await h.post(`/admin/device/${car}/user`, { user: h.admin, body: {} })))).toEqual(["user_id"]);
    expect(Object.keys(invalid(await h.request("DELETE", `/admin/device/${car}/user`, { user: h.admin })))).toEqual(["user_id"]);
    failure(await h.post(`/admin/device/${car}/user`, { user: h.admin, body: { user_id: owner.id + 1_000_000 } }), 404);
  });

  it("names the device by id or IMEI on the user and status paths, as the vendor documents them", async () => {
    const [owner, other] = [await h.newUser(), await h.newUser()];
    const imei = `35${Date.now()}`.slice(0, 15);
    const van = await h.addDevice(owner, { imei });
    ok(await h.post(`/admin/device/${imei}/user`, { user: h.admin, body: { user_id: other.id } }), OkSchema);
    expect(await seen(h, other)).toEqual([van]);
    ok(await h.post(`/admin/device/${imei}/status`, { user: h.admin, body: { active: 0 } }), OkSchema);
    expect(ok(await h.get(`/admin/device/${van}`, { user: h.admin }), AdminDeviceResponseSchema).data.active).toBe(false);
    ok(await h.request("DELETE", `/admin/device/${imei}/user`, { user: h.admin, query: { user_id: other.id } }), OkSchema);
    expect(await seen(h, other)).toEqual([]);
    expect(failure(await h.post(`/admin/device/not-an-imei-${imei}/status`, { user: h.admin, body: { active: 1 } }), 404)).toBe("Device not found.");
  });

  it("turns a device off and sets its expiry for everyone who has it", async () => {
    const user = await h.newUser();
    const van = await h.addDevice(user);
    ok(await h.post(`/admin/device/${van}/status`, { user: h.admin, body: { active: 0 } }), OkSchema);
    const listed = async () => ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema)[0]!.items[0]!.device_data;
    expect((await listed()).active).toBe("0");
    ok(await h.post(`/admin/device/${van}/status`, { user: h.admin, body: { active: true } }), OkSchema);
    expect((await listed()).active).toBe("1");
    ok(await h.post(`/admin/device/${van}/expiration`, { user: h.admin, body: { expiration_date: Date.UTC(2031, 4, 6) / 1000 } }), OkSchema);
    expect(ok(await h.get(`/admin/device/${van}`, { user: h.admin }), AdminDeviceResponseSchema).data.expiration_date).toBe("2031-05-06 00:00:00");
    expect((await listed()).expiration_date).toBe("2031-05-06");
    ok(await h.post(`/admin/device/${van}/expiration`, { user: h.admin, body: { expiration_date: "2032-01-02" } }), OkSchema);
    expect((await listed()).expiration_date).toBe("2032-01-02");
    ok(await h.post(`/admin/device/${van}/expiration`, { user: h.admin, body: { expiration_date: 0 } }), OkSchema);
    expect((await listed()).expiration_date).toBe("0000-00-00");
    expect(invalid(await h.post(`/admin/device/${van}/expiration`, { user: h.admin, body: { expiration_date: "2032-02-30" } }))).toEqual({ expiration_date: "The expiration date is not a valid date." });
    // A leap second passes the date-time format; no Date holds it.
    expect(invalid(await h.post(`/admin/device/${van}/expiration`, { user: h.admin, body: { expiration_date: "2030-12-31T23:59:60Z" } }))).toEqual({ expiration_date: "The expiration date is not a valid date." });
  });

  it("changes a client's account: email, password, limits, and its devices as a whole list", async () => {
    const client = await h.newUser({ password: "client-pw-1" });
    const [mine, spare] = [await h.addDevice(client), await h.addDevice(await h.newUser())];
    const email = `renamed-${client.id}@example.com`;
    ok(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: client.id, email, password: "client-pw-2", password_confirmation: "client-pw-2", devices_limit: 5, expiration_date: "2099-01-01", objects: [spare] } }), OkSchema);
    // The new password issues a new api hash: the old one stops working.
    failure(await h.get("/get_user_data", { user: client }), 401);
    const login = ok(await h.post("/login", { body: { email, password: "client-pw-2" } }), LoginResponseSchema);
    expect(ok(await h.get("/get_user_data", { hash: login.user_api_hash }), UserDataSchema)).toMatchObject({ email, devices_limit: 5, expiration_date: "2099-01-01 00:00:00" });
    expect(ok(await h.get(`/admin/client/${client.id}/devices`, { user: h.admin }), AdminClientDevicesResponseSchema).data.map((d) => d.id)).toEqual([spare]);
    failure(await h.get(`/admin/device/${mine}`, { user: h.admin }), 404);
    // More devices than the limit, or one that does not exist: refused before anything is written.
    const another = await h.addDevice(await h.newUser());
    expect(invalid(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: client.id, devices_limit: 1, objects: [spare, another] } }))).toEqual({ objects: "The objects may hold at most 1." });
    expect(invalid(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: client.id, email: "x@example.com", objects: [spare + 1_000_000] } }))).toEqual({ objects: "The selected objects are invalid." });
    expect(ok(await h.get("/get_user_data", { hash: login.user_api_hash }), UserDataSchema).email).toBe(email);
    ok(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: client.id, enable_devices_limit: false, enable_expiration_date: 0 } }), OkSchema);
    expect(ok(await h.get("/get_user_data", { hash: login.user_api_hash }), UserDataSchema)).toMatchObject({ expiration_date: null });
    expect(invalid(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: client.id, email: h.admin.email } }))).toEqual({ email: "The email has already been taken." });
    failure(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: client.id + 1_000_000, active: true } }), 404);
  });

  it("creates a client with its devices and the enable switches, all or nothing", async () => {
    const other = await h.newUser();
    const [van, car] = [await h.addDevice(other), await h.addDevice(other)];
    const email = `with-objects-${other.id}@example.com`;
    const body = { email, password: "client-pw-1", password_confirmation: "client-pw-1", devices_limit: 1, objects: [van, car] };
    expect(invalid(await h.post("/admin/client", { user: h.admin, body }))).toEqual({ objects: "The objects may hold at most 1." });
    expect(invalid(await h.post("/admin/client", { user: h.admin, body: { ...body, devices_limit: 5, objects: [van, car + 1_000_000] } }))).toEqual({ objects: "The selected objects are invalid." });
    // Nothing was made by the refusals: the email is still free.
    const made = ok(await h.post("/admin/client", { user: h.admin, body: { ...body, enable_devices_limit: false, enable_expiration_date: false, expiration_date: "2020-01-01" } }), AdminClientResponseSchema).item;
    expect(made).toMatchObject({ email, devices_limit: null, subscription_expiration: "0000-00-00 00:00:00" });
    expect(ok(await h.get(`/admin/client/${made.id}/devices`, { user: h.admin }), AdminClientDevicesResponseSchema).data.map((d) => d.id)).toEqual([van, car]);
    const login = ok(await h.post("/login", { body: { email, password: "client-pw-1" } }), LoginResponseSchema);
    expect((await seen(h, { ...other, hash: login.user_api_hash })).sort((a, b) => a - b)).toEqual([van, car]);
  });

  it("locks a client out by id or email and lets them in again; deletes clients with the devices only they had", async () => {
    const client = await h.newUser({ password: "client-pw-1" });
    ok(await h.post("/admin/client/status", { user: h.admin, body: { email: client.email, status: false } }), OkSchema);
    failure(await h.get("/get_user_data", { user: client }), 401);
    ok(await h.post("/admin/client/status", { user: h.admin, body: { id: client.id, status: "1" } }), OkSchema);
    ok(await h.get("/get_user_data", { user: client }), UserDataSchema);
    failure(await h.post("/admin/client/status", { user: h.admin, body: { email: "nobody-here@example.com", status: true } }), 404);
    expect(Object.keys(invalid(await h.post("/admin/client/status", { user: h.admin, body: { status: true } })))).toEqual(["id"]);

    const [x, y, z] = [await h.newUser(), await h.newUser(), await h.newUser()];
    const only = await h.addDevice(x);
    const shared = await h.addDevice(y);
    ok(await h.post(`/admin/device/${shared}/user`, { user: h.admin, body: { user_id: z.id } }), OkSchema);
    // All or none: one missing id deletes nobody.
    failure(await h.request("DELETE", "/admin/clients", { user: h.admin, body: { ids: [x.id, y.id + 1_000_000] } }), 404);
    ok(await h.get("/get_user_data", { user: x }), UserDataSchema);
    ok(await h.request("DELETE", "/admin/clients", { user: h.admin, body: { ids: [x.id, y.id] } }), OkSchema);
    failure(await h.get("/get_user_data", { user: x }), 401);
    failure(await h.get(`/admin/device/${only}`, { user: h.admin }), 404);
    expect(await seen(h, z)).toEqual([shared]);
    ok(await h.request("DELETE", `/admin/client/${z.id}`, { user: h.admin }), OkSchema);
    failure(await h.get(`/admin/device/${shared}`, { user: h.admin }), 404);
    failure(await h.request("DELETE", `/admin/client/${z.id}`, { user: h.admin }), 404);
    failure(await h.get(`/admin/client/${z.id}/devices`, { user: h.admin }), 404);
  });

  it("never lets an administrator lock, demote or delete their own account, and refuses everyone else", async () => {
    expect(failure(await h.post("/admin/client/status", { user: h.admin, body: { id: h.admin.id, status: false } }), 403)).toBe("You cannot deactivate your own account.");
    failure(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: h.admin.id, group_id: 2 } }), 403);
    failure(await h.request("DELETE", `/admin/client/${h.admin.id}`, { user: h.admin }), 403);
    expect(failure(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: h.admin.id, expiration_date: "2020-01-01" } }), 403)).toBe("You cannot expire your own account.");
    ok(await h.get("/get_user_data", { user: h.admin }), UserDataSchema);

    const user = await h.newUser();
    const van = await h.addDevice(user);
    const calls = [
      h.request("PUT", "/admin/client", { user, body: { id: user.id, group_id: 1 } }),
      h.post("/admin/client/status", { user, body: { id: user.id, status: true } }),
      h.request("DELETE", `/admin/client/${user.id}`, { user }),
      h.request("DELETE", "/admin/clients", { user, body: { ids: [user.id] } }),
      h.get(`/admin/client/${user.id}/devices`, { user }),
      h.get("/admin/devices", { user }),
      h.get(`/admin/device/${van}`, { user }),
      h.post(`/admin/device/${van}/user`, { user, body: { user_id: user.id } }),
      h.request("DELETE", `/admin/device/${van}/user`, { user, query: { user_id: user.id } }),
      h.post(`/admin/device/${van}/status`, { user, body: { active: false } }),
      h.post(`/admin/device/${van}/expiration`, { user, body: { expiration_date: 0 } }),
      h.get(`/admin/device/${van}/users`, { user }),
    ];
    for (const res of await Promise.all(calls)) expect(failure(res, 403)).toBe("This action is for administrators only.");
    expect(await seen(h, user)).toEqual([van]);
    expect(ok(await h.get("/get_user_data", { user }), UserDataSchema).group_id).toBe(2);
  });
});

import { expect, it } from "vitest";
import { GeoOkSchema, NO_DATE, SharedDevicesResponseSchema, SharingListResponseSchema, SharingResponseSchema } from "@fleet/contracts";
import { describeApi, failure, invalid, liveState, ok, type ApiHarness, type TestUser } from "./fixture.js";

/* The vendor's Sharing: links to some of a user's devices, and what such a link shows to anyone holding it. */


const create = async (h: ApiHarness, user: TestUser, body: Record<string, unknown>) => ok(await h.post("/sharing", { user, body }), SharingResponseSchema);
const view = (h: ApiHarness, token: string) => h.inject({ method: "GET", url: "/api/shared_devices", query: { token } });
const shown = async (h: ApiHarness, token: string) => ok(await view(h, token), SharedDevicesResponseSchema);

describeApi("sharing", (h) => {
  it("shares the chosen devices: the link shows them live in the sharer's units and clock, and nothing of their records", async () => {
    const user = await h.newUser({ unitOfDistance: "mi", timezoneId: 0 });
    const [van, car, hidden] = [await h.addDevice(user, { name: "Van" }), await h.addDevice(user, { name: "Car" }), await h.addDevice(user, { name: "Hidden" })];
    await h.live.putStates([van, car, hidden].map((id) => ({ state: liveState(id, { speedKmh: 100, latitude: 54.7, longitude: 25.3 }), userIds: [user.id] })));
    const s = await create(h, user, { name: "For the customer", devices: [car, van] });
    expect(s).toMatchObject({ status: 1, user_id: user.id, name: "For the customer", active: 1, delete_after_expiration: 0, expiration_date: NO_DATE, devices: [van, car] });
    expect(s.hash).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const seen = await shown(h, s.hash);
    expect(seen.name).toBe("For the customer");
    expect(seen.items.map((i) => [i.id, i.name, i.online, i.speed, i.distance_unit_hour, i.lat, i.lng])).toEqual([
      [van, "Van", "online", 62, "mph", 54.7, 25.3],
      [car, "Car", "online", 62, "mph", 54.7, 25.3],
    ]);
    expect(Object.keys(seen.items[0]!)).not.toContain("device_data");
    expect(JSON.stringify(seen)).not.toContain("imei");

    expect(ok(await h.get(`/sharing/${s.id}`, { user }), SharingResponseSchema)).toEqual(s);
    expect(ok(await h.get("/sharing", { user }), SharingListResponseSchema)).toEqual({
      status: 1,
      data: [expect.objectContaining({ id: s.id, hash: s.hash, devices: [van, car] })],
      pagination: { total: 1, per_page: 10, current_page: 1, last_page: 1, next_page_url: null, prev_page_url: null, url: "/api/sharing" },
    });
  });

  it("edits by PUT: fields left out keep their values, devices are replaced whole, and the link follows", async () => {
    const user = await h.newUser();
    const [a, b] = [await h.addDevice(user), await h.addDevice(user)];
    const s = await create(h, user, { name: "Trip", devices: [a] });
    const renamed = ok(await h.request("PUT", `/sharing/${s.id}`, { user, body: { name: "Trip 2" } }), SharingResponseSchema);
    expect(renamed).toMatchObject({ name: "Trip 2", devices: [a], active: 1, hash: s.hash });
    expect(ok(await h.request("PUT", `/sharing/${s.id}/devices`, { user, body: { devices: [b] } }), SharingResponseSchema).devices).toEqual([b]);
    expect((await shown(h, s.hash)).items.map((i) => i.id)).toEqual([b]);
    // Off, the link shows nothing, exactly like a wrong one; on again, it shows them again.
    ok(await h.request("PUT", `/sharing/${s.id}`, { user, body: { active: false } }), SharingResponseSchema);
    expect(failure(await view(h, s.hash), 404)).toBe(failure(await view(h, "no-such-hash-at-all"), 404));
    ok(await h.request("PUT", `/sharing/${s.id}`, { user, body: { active: "1" } }), SharingResponseSchema);
    expect((await shown(h, s.hash)).items.map((i) => i.id)).toEqual([b]);
  });

  it("expires: a past expiry shows nothing, a future one is shown in the user's clock, turning it off removes it", async () => {
    const user = await h.newUser({ timezoneId: 0 });
    const device = await h.addDevice(user);
    const s = await create(h, user, { name: "Soon", devices: [device], enable_expiration_date: true, expiration_date: "2099-03-01 12:00:00" });
    expect(s.expiration_date).toBe("2099-03-01 12:00:00");
    // The vendor's own example of "until revoked".
    expect((await create(h, user, { name: "Long", expiration_date: "2124-03-01 00:00:00" })).expiration_date).toBe("2124-03-01 00:00:00");
    expect((await shown(h, s.hash)).expiration_date).toBe("2099-03-01 12:00:00");
    ok(await h.request("PUT", `/sharing/${s.id}`, { user, body: { expiration_date: "2020-01-01 00:00:00" } }), SharingResponseSchema);
    failure(await view(h, s.hash), 404);
    // Expired but not to be deleted: still the user's, to renew.
    expect(ok(await h.get(`/sharing/${s.id}`, { user }), SharingResponseSchema).expiration_date).toBe("2020-01-01 00:00:00");
    const renewed = ok(await h.request("PUT", `/sharing/${s.id}`, { user, body: { enable_expiration_date: 0, expiration_date: "2020-01-01 00:00:00" } }), SharingResponseSchema);
    expect(renewed.expiration_date).toBe(NO_DATE);
    expect((await shown(h, s.hash)).items.map((i) => i.id)).toEqual([device]);
  });

  it("deletes a sharing once expired when asked to, and on DELETE: its link shows nothing from then on", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    const gone = await create(h, user, { name: "Once", devices: [device], enable_expiration_date: "1", expiration_date: "2021-06-01T00:00:00Z", delete_after_expiration: true });
    failure(await h.request("DELETE", `/sharing/${gone.id}`, { user }), 404);
    failure(await h.get(`/sharing/${gone.id}`, { user }), 404);
    failure(await view(h, gone.hash), 404);
    const kept = await create(h, user, { name: "Kept", devices: [device] });
    expect(ok(await h.get("/sharing", { user }), SharingListResponseSchema).data.map((s) => s.id)).toEqual([kept.id]);
    ok(await h.request("DELETE", `/sharing/${kept.id}`, { user }), GeoOkSchema);
    failure(await view(h, kept.hash), 404);
    failure(await h.request("DELETE", `/sharing/${kept.id}`, { user }), 404);
    // A device that leaves the account leaves the link.
    const other = await h.addDevice(user);
    const s = await create(h, user, { name: "Two", devices: [device, other] });
    ok(await h.get("/destroy_device", { user, query: { device_id: other } }), GeoOkSchema);
    expect((await shown(h, s.hash)).items.map((i) => i.id)).toEqual([device]);
    expect(ok(await h.get(`/sharing/${s.id}`, { user }), SharingResponseSchema).devices).toEqual([device]);
  });

  it("stops showing a sharer locked out by an administrator, and a device that left the account even once it is back", async () => {
    const user = await h.newUser();
    const [van, car] = [await h.addDevice(user), await h.addDevice(user)];
    const s = await create(h, user, { name: "Both", devices: [van, car] });
    ok(await h.post("/admin/client/status", { user: h.admin, body: { id: user.id, status: false } }), GeoOkSchema);
    failure(await view(h, s.hash), 404);
    ok(await h.post("/admin/client/status", { user: h.admin, body: { id: user.id, status: true } }), GeoOkSchema);
    expect((await shown(h, s.hash)).items.map((i) => i.id)).toEqual([van, car]);
    // Taken away and given back (another user keeps it meanwhile): the link does not publish it again unasked.
    ok(await h.post(`/admin/device/${car}/user`, { user: h.admin, body: { user_id: (await h.newUser()).id } }), GeoOkSchema);
    ok(await h.request("DELETE", `/admin/device/${car}/user`, { user: h.admin, query: { user_id: user.id } }), GeoOkSchema);
    ok(await h.post(`/admin/device/${car}/user`, { user: h.admin, body: { user_id: user.id } }), GeoOkSchema);
    expect((await shown(h, s.hash)).items.map((i) => i.id)).toEqual([van]);
    expect(ok(await h.get(`/sharing/${s.id}`, { user }), SharingResponseSchema).devices).toEqual([van]);
  });

  it("refuses another user's sharing exactly like a missing one, and another user's devices without writing anything", async () => {
    const [owner, other] = [await h.newUser(), await h.newUser()];
    const mine = await h.addDevice(owner);
    const theirs = await h.addDevice(other);
    const s = await create(h, owner, { name: "Mine", devices: [mine] });
    const missing = s.id + 1_000_000;
    for (const id of [s.id, missing]) {
      expect(failure(await h.get(`/sharing/${id}`, { user: other }), 404)).toBe("Sharing not found.");
      failure(await h.request("PUT", `/sharing/${id}`, { user: other, body: { name: "Taken" } }), 404);
      failure(await h.request("PUT", `/sharing/${id}/devices`, { user: other, body: { devices: [theirs] } }), 404);
      failure(await h.request("DELETE", `/sharing/${id}`, { user: other }), 404);
    }
    expect(invalid(await h.post("/sharing", { user: owner, body: { name: "Sneaky", devices: [mine, theirs] } }))).toEqual({ devices: "The selected devices are invalid." });
    expect(invalid(await h.request("PUT", `/sharing/${s.id}/devices`, { user: owner, body: { devices: [theirs] } }))).toEqual({ devices: "The selected devices are invalid." });
    const list = ok(await h.get("/sharing", { user: owner }), SharingListResponseSchema).data;
    expect(list.map((x) => [x.name, x.devices])).toEqual([["Mine", [mine]]]);
    expect(ok(await h.get("/sharing", { user: other }), SharingListResponseSchema).data).toEqual([]);
  });

  it("names what is wrong with a body", async () => {
    const user = await h.newUser();
    expect(Object.keys(invalid(await h.post("/sharing", { user, body: { devices: [] } })))).toEqual(["name"]);
    expect(invalid(await h.post("/sharing", { user, body: { name: "x", enable_expiration_date: true } }))).toEqual({ expiration_date: "The expiration date is required when enable expiration date is on." });
    expect(invalid(await h.post("/sharing", { user, body: { name: "x", expiration_date: "2021-02-30 10:00:00" } }))).toEqual({ expiration_date: "The expiration date is not a valid date-time between 1970 and 9999." });
    expect(Object.keys(invalid(await h.post("/sharing", { user, body: { name: "x", devices: ["a"] } })))).toEqual(["devices.0"]);
    expect(ok(await h.get("/sharing", { user }), SharingListResponseSchema).data).toEqual([]);
    failure(await h.inject({ method: "GET", url: "/api/sharing", query: { lang: "en" } }), 401);
    expect(Object.keys(invalid(await h.inject({ method: "GET", url: "/api/shared_devices" })))).toEqual(["token"]);
  });
});

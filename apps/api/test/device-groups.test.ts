import { describe, expect, it } from "vitest";
import { AddDeviceDataSchema, EditSetupDataResponseSchema, GeoCreatedSchema, GetDevicesLatestResponseSchema, GetDevicesResponseSchema, GroupsResponseSchema, OkSchema } from "@fleet/contracts";
import { describeApi, failure, invalid, nextSecond, ok, type ApiHarness, type TestUser } from "./fixture.js";

/* devices_groups: the vendor's device groups, which get_devices lists the devices by and edit_setup's `groups` also writes. */

async function store(h: ApiHarness, user: TestUser, body: Record<string, unknown>): Promise<number> {
  return ok(await h.post("/devices_groups/store", { user, body }), GeoCreatedSchema).id;
}

const put = (h: ApiHarness, user: TestUser, id: number | string, body: unknown) =>
  h.inject({ method: "PUT", url: `/api/devices_groups/update/${id}`, query: { lang: "en", user_api_hash: user.hash }, headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });

/** get_devices as `[group id, title, [device ids]]`. */
async function liveGroups(h: ApiHarness, user: TestUser) {
  return ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema).map((g) => [g.id, g.title, g.items.map((i) => i.id)]);
}

async function listed(h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) {
  return ok(await h.get("/devices_groups", { user, query }), GroupsResponseSchema);
}

describeApi("device groups", (h) => {
  it("stores a group with the user's devices: get_devices lists them under it, and the device forms offer it", async () => {
    const user = await h.newUser();
    const [van, car] = [await h.addDevice(user, { name: "Van" }), await h.addDevice(user, { name: "Car" })];
    const group = await store(h, user, { title: "Vans", open: true, devices: [van] });
    expect(await liveGroups(h, user)).toEqual([
      [0, "Ungrouped", [car]],
      [group, "Vans", [van]],
    ]);
    expect(await listed(h, user)).toEqual({
      status: 1,
      data: [{ id: group, user_id: user.id, title: "Vans", open: false }],
      pagination: { total: 1, per_page: 10, current_page: 1, last_page: 1, next_page_url: null, prev_page_url: null, url: "/api/devices_groups" },
    });
    expect(ok(await h.get("/add_device_data", { user }), AddDeviceDataSchema).device_groups).toContainEqual({ id: group, value: "Vans" });
    expect(ok(await h.get("/edit_setup_data", { user }), EditSetupDataResponseSchema).groups).toEqual([{ id: group, title: "Vans" }]);
    // A group without devices is listed here, and (like edit_setup's) left out of get_devices.
    const empty = await store(h, user, { title: "Trucks" });
    expect((await listed(h, user)).data.map((g) => g.id)).toEqual([group, empty]);
    expect((await liveGroups(h, user)).map(([id]) => id)).toEqual([0, group]);
  });

  it("lists groups edit_setup wrote, and edit_setup sees the groups stored here", async () => {
    const user = await h.newUser();
    const setup = { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, sms_gateway: 0, groups: [{ title: "From setup" }] };
    ok(await h.post("/edit_setup", { user, body: setup }), OkSchema);
    const fromSetup = (await listed(h, user)).data[0]!.id;
    const van = await h.addDevice(user, { group_id: fromSetup });
    const stored = await store(h, user, { title: "Stored" });
    ok(await h.post(`/devices_groups/update/${fromSetup}`, { user, body: { title: "Renamed here" } }), GeoCreatedSchema);
    expect(ok(await h.get("/edit_setup_data", { user }), EditSetupDataResponseSchema).groups).toEqual([
      { id: fromSetup, title: "Renamed here" },
      { id: stored, title: "Stored" },
    ]);
    expect(await liveGroups(h, user)).toEqual([[fromSetup, "Renamed here", [van]]]);
  });

  it("updates by PUT or POST: renames, replaces the devices (those left out are ungrouped), keeps what is left out", async () => {
    const user = await h.newUser();
    const [a, b] = [await h.addDevice(user), await h.addDevice(user)];
    const group = await store(h, user, { title: "Old", devices: [a] });
    expect(ok(await put(h, user, group, { title: "New", devices: [b] }), GeoCreatedSchema)).toEqual({ status: 1, id: group });
    expect(await liveGroups(h, user)).toEqual([
      [0, "Ungrouped", [a]],
      [group, "New", [b]],
    ]);
    // Title left out keeps it; a form's empty `devices=` empties the group.
    ok(await h.post(`/devices_groups/update/${group}`, { user, as: "form", body: { devices: "" } }), GeoCreatedSchema);
    expect(await liveGroups(h, user)).toEqual([[0, "Ungrouped", [a, b]]]);
    ok(await h.post(`/devices_groups/update/${group}`, { user, as: "form", body: { "devices[]": String(a) } }), GeoCreatedSchema);
    expect(await liveGroups(h, user)).toEqual([
      [0, "Ungrouped", [b]],
      [group, "New", [a]],
    ]);
  });

  it("puts the moved devices, and only those, in the next get_devices_latest poll with their new group", async () => {
    const user = await h.newUser();
    const [a, b, c] = [await h.addDevice(user), await h.addDevice(user), await h.addDevice(user)];
    await nextSecond();
    const poll = async (time?: number) => ok(await h.get("/get_devices_latest", { user, query: time === undefined ? {} : { time } }), GetDevicesLatestResponseSchema);
    let { time } = await poll();
    await nextSecond();
    const group = await store(h, user, { title: "Vans", devices: [a, b] });
    // Past the store's second, which a poll returning a time in it would send again.
    await nextSecond();
    let next = await poll(time);
    expect(next.items.map((i) => [i.id, i.device_data.group_id])).toEqual([
      [a, String(group)],
      [b, String(group)],
    ]);
    ({ time } = next);
    await nextSecond();
    ok(await h.post(`/devices_groups/update/${group}`, { user, body: { devices: [b, c] } }), GeoCreatedSchema);
    next = await poll(time);
    expect(next.items.map((i) => [i.id, i.device_data.group_id])).toEqual([
      [a, null],
      [c, String(group)],
    ]);
  });

  it("searches, filters, sorts (also as sorting[...]) and pages", async () => {
    const user = await h.newUser();
    const ids: Record<string, number> = {};
    for (const title of ["Beta", "alpha", "Gamma 100%", "Delta_1"]) ids[title] = await store(h, user, { title });
    const titles = async (query: Record<string, string | number>) => (await listed(h, user, query)).data.map((g) => g.title);
    expect(await titles({ sort_by: "title" })).toEqual(["alpha", "Beta", "Delta_1", "Gamma 100%"]);
    expect(await titles({ "sorting[sort_by]": "title", "sorting[sort]": "desc" })).toEqual(["Gamma 100%", "Delta_1", "Beta", "alpha"]);
    expect(await titles({ sort: "desc", "sorting[sort]": "asc" })).toEqual(["Delta_1", "Gamma 100%", "alpha", "Beta"]);
    expect(await titles({ search_phrase: "%" })).toEqual(["Gamma 100%"]);
    expect(await titles({ "filter[title]": "BETA" })).toEqual(["Beta"]);
    expect(await titles({ "filter[title]": "Bet" })).toEqual([]);
    expect(await titles({ "filter[id]": ids.alpha! })).toEqual(["alpha"]);
    const second = await listed(h, user, { limit: 3, page: 2 });
    expect(second.data.map((g) => g.title)).toEqual(["Delta_1"]);
    expect(second.pagination).toMatchObject({ total: 4, per_page: 3, current_page: 2, last_page: 2, next_page_url: null });
    const queries: Record<string, string | number>[] = [{ sort_by: "user_id" }, { "sorting[sort]": "up" }, { "filter[user_id]": user.id }, { "filter[id]": "abc" }, { limit: 0 }, { limit: 101 }, { page: 0 }];
    for (const query of queries) invalid(await h.get("/devices_groups", { user, query }));
  });

  describe("other users' records", () => {
    it("refuses another user's devices (422) and answers another user's group as a missing one (404), changing nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await h.addDevice(a);
      const aGroup = await store(h, a, { title: "A's", devices: [aDevice] });
      const bDevice = await h.addDevice(b);
      const bGroup = await store(h, b, { title: "B's" });
      const before = [await liveGroups(h, a), await liveGroups(h, b), (await listed(h, b)).data];
      expect(invalid(await h.post("/devices_groups/store", { user: b, body: { title: "Steal", devices: [bDevice, aDevice] } }))).toEqual({ devices: "The selected devices are invalid." });
      expect(invalid(await h.post(`/devices_groups/update/${bGroup}`, { user: b, body: { devices: [aDevice] } }))).toEqual({ devices: "The selected devices are invalid." });
      const missing = failure(await h.post("/devices_groups/update/2000000000", { user: b, body: { title: "X" } }), 404);
      expect(missing).toBe("Device group not found.");
      expect(failure(await put(h, b, aGroup, { title: "X", devices: [] }), 404)).toBe(missing);
      expect(failure(await h.get(`/devices_groups/destroy/${aGroup}`, { user: b }), 404)).toBe(missing);
      for (const body of [{ title: "" }, { title: " " }, { title: "x".repeat(256) }, { devices: ["abc"] }, { devices: [0] }, { open: "maybe" }]) invalid(await h.post("/devices_groups/store", { user: b, body }));
      expect(invalid(await h.get("/devices_groups/destroy/abc", { user: b }))).toHaveProperty("id");
      expect([await liveGroups(h, a), await liveGroups(h, b), (await listed(h, b)).data]).toEqual(before);
      expect(ok(await h.get("/devices_groups", { user: b, query: { search_phrase: "A's" } }), GroupsResponseSchema).data).toEqual([]);
    });
  });

  it("destroys a group; its devices stay, ungrouped", async () => {
    const user = await h.newUser();
    const van = await h.addDevice(user);
    const group = await store(h, user, { title: "Gone", devices: [van] });
    expect(ok(await h.get(`/devices_groups/destroy/${group}`, { user }), GeoCreatedSchema)).toEqual({ status: 1, id: group });
    expect(await liveGroups(h, user)).toEqual([[0, "Ungrouped", [van]]]);
    expect((await listed(h, user)).data).toEqual([]);
    failure(await h.get(`/devices_groups/destroy/${group}`, { user }), 404);
  });
});

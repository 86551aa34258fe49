import { expect, it } from "vitest";
import { GeoCreatedSchema, GeoOkSchema, GetUserMapIconsResponseSchema, GroupsResponseSchema, UserMapIconSchema } from "@fleet/contracts";
import { findUserMapIcon, mapIconGroups, userMapIcons } from "@fleet/db";
import { describeApi, failure, invalid, ok, type ApiHarness, type TestUser } from "./fixture.js";
import { mapIconBody, put } from "./matrix/geo.js";

/*
 * pois_groups: groups of the user's map icons (the vendor's POIs). The User map icon
 * record has no group in the vendor's swagger, so no read shows the membership; these
 * tests read it from the records store.
 */

async function addIcon(h: ApiHarness, user: TestUser, name = "Depot"): Promise<number> {
  return ok(await h.post("/add_map_icon", { user, body: mapIconBody({ name }) }), GeoCreatedSchema).id;
}

async function store(h: ApiHarness, user: TestUser, body: Record<string, unknown>): Promise<number> {
  return ok(await h.post("/pois_groups/store", { user, body }), GeoCreatedSchema).id;
}

async function groupsOf(h: ApiHarness, user: TestUser, ids: number[]) {
  return Promise.all(ids.map(async (id) => (await findUserMapIcon(h.db, user.id, id))?.groupId));
}

async function listed(h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) {
  return ok(await h.get("/pois_groups", { user, query }), GroupsResponseSchema);
}

async function allRows(h: ApiHarness) {
  const [m, g] = await Promise.all([h.db.select().from(userMapIcons), h.db.select().from(mapIconGroups)]);
  return { icons: m.sort((x, y) => x.id - y.id), groups: g.sort((x, y) => x.id - y.id) };
}

describeApi("map icon groups", (h) => {
  it("stores a group with the user's map icons and lists it; get_user_map_icons keeps the vendor's record", async () => {
    const user = await h.newUser();
    const [x, y] = [await addIcon(h, user), await addIcon(h, user)];
    const group = await store(h, user, { title: "Depots", open: true, pois: [x] });
    expect(await groupsOf(h, user, [x, y])).toEqual([group, null]);
    expect(await listed(h, user)).toEqual({
      status: 1,
      data: [{ id: group, user_id: user.id, title: "Depots", open: false }],
      pagination: { total: 1, per_page: 10, current_page: 1, last_page: 1, next_page_url: null, prev_page_url: null, url: "/api/pois_groups" },
    });
    const icons = ok(await h.get("/get_user_map_icons", { user }), GetUserMapIconsResponseSchema).items.mapIcons;
    expect(Object.keys(icons[0]!).sort()).toEqual(Object.keys(UserMapIconSchema.properties).sort());
  });

  it("updates by PUT or POST: renames and replaces the map icons; edit_map_icon keeps the group", async () => {
    const user = await h.newUser();
    const [x, y] = [await addIcon(h, user), await addIcon(h, user)];
    const group = await store(h, user, { title: "Old", pois: [x] });
    expect(ok(await put(h, user, `/pois_groups/update/${group}`, { title: "New", pois: [y, y] }), GeoCreatedSchema)).toEqual({ status: 1, id: group });
    expect(await groupsOf(h, user, [x, y])).toEqual([null, group]);
    ok(await h.post("/edit_map_icon", { user, body: mapIconBody({ id: y, name: "Renamed" }) }), GeoOkSchema);
    expect(await groupsOf(h, user, [x, y])).toEqual([null, group]);
    ok(await h.post(`/pois_groups/update/${group}`, { user, as: "form", body: { "pois[0]": String(x), "pois[1]": String(y) } }), GeoCreatedSchema);
    expect(await groupsOf(h, user, [x, y])).toEqual([group, group]);
    ok(await h.post(`/pois_groups/update/${group}`, { user, as: "multipart", body: { pois: "" } }), GeoCreatedSchema);
    expect(await groupsOf(h, user, [x, y])).toEqual([null, null]);
    expect((await listed(h, user, { "filter[id]": group })).data.map((g) => g.title)).toEqual(["New"]);
  });

  it("refuses another user's map icons (422) and answers another user's group as a missing one (404), changing nothing", async () => {
    const [a, b] = [await h.newUser(), await h.newUser()];
    const aIcon = await addIcon(h, a, "A's depot");
    const aGroup = await store(h, a, { title: "A's depots", pois: [aIcon] });
    const bIcon = await addIcon(h, b);
    const bGroup = await store(h, b, { title: "B's" });
    const before = await allRows(h);
    expect(invalid(await h.post("/pois_groups/store", { user: b, body: { title: "Steal", pois: [bIcon, aIcon] } }))).toEqual({ pois: "The selected pois are invalid." });
    invalid(await h.post(`/pois_groups/update/${bGroup}`, { user: b, body: { pois: [aIcon] } }));
    const missing = failure(await h.post("/pois_groups/update/2000000000", { user: b, body: { title: "X" } }), 404);
    expect(missing).toBe("Map icon group not found.");
    expect(failure(await put(h, b, `/pois_groups/update/${aGroup}`, { title: "X", pois: [] }), 404)).toBe(missing);
    expect(failure(await h.get(`/pois_groups/destroy/${aGroup}`, { user: b }), 404)).toBe(missing);
    for (const body of [{ title: "" }, { pois: [1.5] }, { title: "T", pois: Array.from({ length: 10_001 }, (_, i) => i + 1) }]) invalid(await h.post("/pois_groups/store", { user: b, body }));
    expect(await allRows(h)).toEqual(before);
    expect((await listed(h, b)).data.map((g) => g.id)).toEqual([bGroup]);
  });

  it("destroys a group; its map icons stay, ungrouped", async () => {
    const user = await h.newUser();
    const x = await addIcon(h, user);
    const group = await store(h, user, { title: "Gone", pois: [x] });
    expect(ok(await h.get(`/pois_groups/destroy/${group}`, { user }), GeoCreatedSchema)).toEqual({ status: 1, id: group });
    expect(await groupsOf(h, user, [x])).toEqual([null]);
    expect((await listed(h, user)).data).toEqual([]);
    ok(await h.get("/destroy_map_icon", { user, query: { map_icon_id: x } }), GeoOkSchema);
  });
});

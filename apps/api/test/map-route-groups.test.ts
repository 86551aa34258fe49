import { expect, it } from "vitest";
import { GeoCreatedSchema, GeoOkSchema, GetRoutesResponseSchema, GroupsResponseSchema } from "@fleet/contracts";
import { routeGroups, routes } from "@fleet/db";
import { describeApi, failure, invalid, ok, type ApiHarness, type TestUser } from "./fixture.js";
import { put, routeBody } from "./matrix/geo.js";

/* routes_groups: groups of the routes a user draws on the map; get_routes shows each route's group_id. */

async function addRoute(h: ApiHarness, user: TestUser, name = "Road"): Promise<number> {
  return ok(await h.post("/add_route", { user, body: routeBody({ name }) }), GeoCreatedSchema).id;
}

async function store(h: ApiHarness, user: TestUser, body: Record<string, unknown>): Promise<number> {
  return ok(await h.post("/routes_groups/store", { user, body }), GeoCreatedSchema).id;
}

/** get_routes as `[route id, group_id]`. */
async function grouping(h: ApiHarness, user: TestUser) {
  return ok(await h.get("/get_routes", { user, query: { per_page: 100 } }), GetRoutesResponseSchema).data.map((r) => [r.id, r.group_id]);
}

async function listed(h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) {
  return ok(await h.get("/routes_groups", { user, query }), GroupsResponseSchema);
}

async function allRows(h: ApiHarness) {
  const [r, g] = await Promise.all([h.db.select().from(routes), h.db.select().from(routeGroups)]);
  return { routes: r.sort((x, y) => x.id - y.id), groups: g.sort((x, y) => x.id - y.id) };
}

describeApi("route groups", (h) => {
  it("stores a group with the user's routes; get_routes shows their group_id, 0 for the ungrouped", async () => {
    const user = await h.newUser();
    const [x, y] = [await addRoute(h, user), await addRoute(h, user)];
    const group = await store(h, user, { title: "Deliveries", open: true, routes: [x] });
    expect(await grouping(h, user)).toEqual([
      [x, group],
      [y, 0],
    ]);
    expect(await listed(h, user)).toEqual({
      status: 1,
      data: [{ id: group, user_id: user.id, title: "Deliveries", open: false }],
      pagination: { total: 1, per_page: 10, current_page: 1, last_page: 1, next_page_url: null, prev_page_url: null, url: "/api/routes_groups" },
    });
  });

  it("updates by PUT or POST: renames and replaces the routes; edit_route and change_active_route keep the group", async () => {
    const user = await h.newUser();
    const [x, y] = [await addRoute(h, user), await addRoute(h, user)];
    const group = await store(h, user, { title: "Old", routes: [x] });
    expect(ok(await put(h, user, `/routes_groups/update/${group}`, { title: "New", routes: [y] }), GeoCreatedSchema)).toEqual({ status: 1, id: group });
    expect(await grouping(h, user)).toEqual([
      [x, 0],
      [y, group],
    ]);
    expect((await listed(h, user)).data.map((g) => g.title)).toEqual(["New"]);
    ok(await h.post("/edit_route", { user, body: routeBody({ id: y, name: "Renamed" }) }), GeoOkSchema);
    ok(await h.get("/change_active_route", { user, query: { id: y, active: 0 } }), GeoOkSchema);
    expect(await grouping(h, user)).toEqual([
      [x, 0],
      [y, group],
    ]);
    // A form's empty `routes=` empties the group; the title left out stays.
    ok(await h.post(`/routes_groups/update/${group}`, { user, as: "form", body: { routes: "" } }), GeoCreatedSchema);
    expect(await grouping(h, user)).toEqual([
      [x, 0],
      [y, 0],
    ]);
    expect((await listed(h, user)).data.map((g) => g.title)).toEqual(["New"]);
  });

  it("searches, filters, sorts and pages", async () => {
    const user = await h.newUser();
    for (const title of ["Beta", "alpha", "Gamma 100%"]) await store(h, user, { title });
    const titles = async (query: Record<string, string | number>) => (await listed(h, user, query)).data.map((g) => g.title);
    expect(await titles({ sort_by: "title", sort: "desc" })).toEqual(["Gamma 100%", "Beta", "alpha"]);
    expect(await titles({ search_phrase: "A 1" })).toEqual(["Gamma 100%"]);
    expect(await titles({ "filter[title]": "ALPHA" })).toEqual(["alpha"]);
    expect((await listed(h, user, { limit: 2, page: 2 })).data.map((g) => g.title)).toEqual(["Gamma 100%"]);
    const queries: Record<string, string | number>[] = [{ sort_by: "name" }, { limit: 101 }, { search_phrase: "x".repeat(256) }];
    for (const query of queries) invalid(await h.get("/routes_groups", { user, query }));
  });

  it("refuses another user's routes (422) and answers another user's group as a missing one (404), changing nothing", async () => {
    const [a, b] = [await h.newUser(), await h.newUser()];
    const aRoute = await addRoute(h, a, "A's road");
    const aGroup = await store(h, a, { title: "A's trips", routes: [aRoute] });
    const bRoute = await addRoute(h, b);
    const bGroup = await store(h, b, { title: "B's" });
    const before = await allRows(h);
    expect(invalid(await h.post("/routes_groups/store", { user: b, body: { title: "Steal", routes: [bRoute, aRoute] } }))).toEqual({ routes: "The selected routes are invalid." });
    invalid(await h.post(`/routes_groups/update/${bGroup}`, { user: b, body: { routes: [aRoute] } }));
    const missing = failure(await h.post("/routes_groups/update/2000000000", { user: b, body: { title: "X" } }), 404);
    expect(missing).toBe("Route group not found.");
    expect(failure(await put(h, b, `/routes_groups/update/${aGroup}`, { title: "X", routes: [] }), 404)).toBe(missing);
    expect(failure(await h.get(`/routes_groups/destroy/${aGroup}`, { user: b }), 404)).toBe(missing);
    for (const body of [{ title: "" }, { routes: ["abc"] }, { routes: "1,2" }, { open: "maybe" }]) invalid(await h.post("/routes_groups/store", { user: b, body }));
    expect(await allRows(h)).toEqual(before);
    expect((await listed(h, b)).data.map((g) => g.id)).toEqual([bGroup]);
    expect(await grouping(h, b)).toEqual([[bRoute, 0]]);
  });

  it("destroys a group; its routes stay, ungrouped", async () => {
    const user = await h.newUser();
    const x = await addRoute(h, user);
    const group = await store(h, user, { title: "Gone", routes: [x] });
    expect(ok(await h.get(`/routes_groups/destroy/${group}`, { user }), GeoCreatedSchema)).toEqual({ status: 1, id: group });
    expect(await grouping(h, user)).toEqual([[x, 0]]);
    expect((await listed(h, user)).data).toEqual([]);
  });
});

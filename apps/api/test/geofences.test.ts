import { describe, expect, it } from "vitest";
import { GeoCreatedSchema, GeofenceGroupsResponseSchema, GeoOkSchema, GetGeofencesResponseSchema, MAX_POLYGON_POINTS, userClock, type GeofenceRecord } from "@fleet/contracts";
import { findUserGeofence, geofenceGroups, geofences } from "@fleet/db";
import { describeApi, failure, invalid, ok, type ApiHarness, type BodyEncoding, type TestUser } from "./fixture.js";
import { SQUARE, geofenceBody } from "./matrix/geo.js";

type Point = { lat: number; lng: number };

async function add(h: ApiHarness, user: TestUser, extra: Record<string, unknown> = {}, as: BodyEncoding = "json"): Promise<number> {
  return ok(await h.post("/add_geofence", { user, as, body: geofenceBody(extra) }), GeoCreatedSchema).id;
}

async function list(h: ApiHarness, user: TestUser) {
  return ok(await h.get("/get_geofences", { user }), GetGeofencesResponseSchema).items;
}

async function record(h: ApiHarness, user: TestUser, id: number): Promise<GeofenceRecord | undefined> {
  return (await list(h, user)).geofences.find((g) => g.id === id);
}

async function addGroup(h: ApiHarness, user: TestUser, body: Record<string, unknown>): Promise<number> {
  return ok(await h.post("/geofences_groups/store", { user, body }), GeoCreatedSchema).id;
}

/** Every geofence and group row, for "nothing changed" checks (timestamps included). */
async function allRows(h: ApiHarness) {
  const [g, gg] = await Promise.all([h.db.select().from(geofences), h.db.select().from(geofenceGroups)]);
  return { geofences: g.sort((x, y) => x.id - y.id), groups: gg.sort((x, y) => x.id - y.id) };
}

/** Form fields `polygon[i][lat]` / `polygon[i][lng]` for `points`. */
function polygonFields(points: Point[]): Record<string, string> {
  return Object.fromEntries(points.flatMap((p, i) => [[`polygon[${i}][lat]`, String(p.lat)], [`polygon[${i}][lng]`, String(p.lng)]]));
}

/** A closed ring of `n` distinct points on a small circle: simple, so only its size can be wrong. */
function ringOf(n: number): Point[] {
  const pts = Array.from({ length: n }, (_, i) => ({ lat: 54 + 0.01 * Math.sin((2 * Math.PI * i) / n), lng: 25 + 0.01 * Math.cos((2 * Math.PI * i) / n) }));
  return [...pts, pts[0]!];
}

describeApi("geofences", (h) => {
  describe("add_geofence and get_geofences", () => {
    it("lists nothing for a new user", async () => {
      expect(await list(h, await h.newUser())).toEqual({ geofences: [], groups: [] });
    });

    it("creates a polygon and returns the Geofence record, coordinates as JSON text", async () => {
      // Timezone 65 is UTC+02:00.
      const user = await h.newUser({ timezoneId: 65 });
      const id = await add(h, user, { name: "Old town" });
      const row = (await findUserGeofence(h.db, user.id, id))!;
      expect(await record(h, user, id)).toEqual({
        id,
        user_id: user.id,
        group_id: null,
        active: 1,
        name: "Old town",
        type: "polygon",
        polygon_color: "#00AB33",
        coordinates: JSON.stringify(SQUARE),
        center: { lat: 54.69, lng: 25.28 },
        radius: null,
        speed_limit: null,
        created_at: userClock({ timezoneId: 65 }).format(row.createdAt.getTime()),
        updated_at: userClock({ timezoneId: 65 }).format(row.updatedAt.getTime()),
      } satisfies GeofenceRecord);
      expect(JSON.parse((await record(h, user, id))!.coordinates)).toEqual(SQUARE);
    });

    it("takes the polygon as JSON text in a form, or as bracketed multipart fields", async () => {
      const user = await h.newUser();
      const fromText = await add(h, user, { polygon: JSON.stringify(SQUARE) }, "form");
      const { polygon: _, ...rest } = geofenceBody();
      const fromFields = ok(await h.post("/add_geofence", { user, as: "multipart", body: { ...rest, ...polygonFields(SQUARE) } }), GeoCreatedSchema).id;
      expect((await record(h, user, fromText))!.coordinates).toBe(JSON.stringify(SQUARE));
      expect((await record(h, user, fromFields))!.coordinates).toBe(JSON.stringify(SQUARE));
    });

    it("creates a circle: centre and radius in metres, no coordinates", async () => {
      const user = await h.newUser();
      const id = await add(h, user, { type: "circle", polygon: undefined, center: { lat: 54.69, lng: 25.28 }, radius: 250.5 });
      expect(await record(h, user, id)).toMatchObject({ type: "circle", coordinates: "[]", center: { lat: 54.69, lng: 25.28 }, radius: 250.5 });
      // Forms send it as center[lat], center[lng]; a polygon sent along is ignored.
      const fromForm = ok(
        await h.post("/add_geofence", { user, as: "form", body: { name: "C", polygon_color: "#ffffff", type: "circle", "center[lat]": "-33.9", "center[lng]": "151.2", radius: "1000", polygon: "ignored" } }),
        GeoCreatedSchema,
      ).id;
      expect(await record(h, user, fromForm)).toMatchObject({ center: { lat: -33.9, lng: 151.2 }, radius: 1000, coordinates: "[]" });
    });

    it("drops points repeating the one before, and accepts the largest polygon allowed", async () => {
      const user = await h.newUser();
      const doubled = [SQUARE[0]!, SQUARE[1]!, SQUARE[1]!, SQUARE[2]!, SQUARE[3]!, SQUARE[4]!, SQUARE[4]!];
      const id = await add(h, user, { polygon: doubled });
      expect(JSON.parse((await record(h, user, id))!.coordinates)).toEqual(SQUARE);
      const big = await add(h, user, { polygon: ringOf(MAX_POLYGON_POINTS - 1) });
      expect(JSON.parse((await record(h, user, big))!.coordinates)).toHaveLength(MAX_POLYGON_POINTS);
    });

    it("puts the geofence in one of the user's groups, and active off when asked", async () => {
      const user = await h.newUser();
      const group = await addGroup(h, user, { title: "Depots" });
      const id = await add(h, user, { group_id: group, active: "0" });
      expect(await record(h, user, id)).toMatchObject({ group_id: group, active: 0 });
      expect(await record(h, user, await add(h, user, { group_id: 0 }))).toMatchObject({ group_id: null });
    });

    it("refuses polygons that are open, too small, crossing or touching themselves, or out of range", async () => {
      const user = await h.newUser();
      const before = await allRows(h);
      const [a, b, c, d] = SQUARE as [Point, Point, Point, Point];
      const bad: unknown[] = [
        [a, b, c, d], // open
        [a, b, a], // two corners
        [a, b, b, a], // two corners once repeats are dropped
        [a, c, b, d, a], // a bow tie
        [a, b, { lat: 54.69, lng: 25.28 }, { lat: 54.68, lng: 25.28 }, a], // a spike folding back onto an edge
        [{ lat: 91, lng: 0 }, b, c, { lat: 91, lng: 0 }],
        [{ lat: 0, lng: -181 }, b, c, { lat: 0, lng: -181 }],
        JSON.stringify([{ lat: 91, lng: 0 }, b, c, { lat: 91, lng: 0 }]),
        // JSON.parse reads 1e400 as Infinity.
        JSON.stringify([{ lat: 0, lng: 0 }, b, c, { lat: 0, lng: 0 }]).replaceAll('"lat":0', '"lat":1e400'),
        "not json",
        JSON.stringify({ lat: 1, lng: 2 }),
        JSON.stringify([a, b, "x", a]),
        ringOf(MAX_POLYGON_POINTS),
        JSON.stringify(ringOf(MAX_POLYGON_POINTS)),
        [],
      ];
      for (const polygon of bad) {
        const errors = invalid(await h.post("/add_geofence", { user, body: geofenceBody({ polygon }) }));
        expect(Object.keys(errors).every((k) => k.startsWith("polygon")), JSON.stringify(polygon).slice(0, 200)).toBe(true);
      }
      expect(invalid(await h.post("/add_geofence", { user, body: geofenceBody({ polygon: undefined }) }))).toHaveProperty("polygon");
      expect(await allRows(h)).toEqual(before);
    });

    it("refuses circles without a centre or with a radius out of bounds", async () => {
      const user = await h.newUser();
      const before = await allRows(h);
      const circle = (extra: Record<string, unknown>) => geofenceBody({ type: "circle", polygon: undefined, center: { lat: 1, lng: 2 }, radius: 100, ...extra });
      expect(Object.keys(invalid(await h.post("/add_geofence", { user, body: circle({ center: undefined, radius: undefined }) }))).sort()).toEqual(["center", "radius"]);
      for (const radius of [0, -5, 1_000_001, "abc", "1e400"]) expect(invalid(await h.post("/add_geofence", { user, body: circle({ radius }) })), String(radius)).toHaveProperty("radius");
      for (const center of [{ lat: 95, lng: 0 }, { lat: 0, lng: 190 }, "54,25", { lat: "x", lng: 1 }]) {
        expect(Object.keys(invalid(await h.post("/add_geofence", { user, body: circle({ center }) })))[0], JSON.stringify(center)).toMatch(/^center/);
      }
      expect(await allRows(h)).toEqual(before);
    });

    it("refuses bad names, colours, types and groups, naming the field and creating nothing", async () => {
      const [user, other] = [await h.newUser(), await h.newUser()];
      const theirs = await addGroup(h, other, { title: "Theirs" });
      const before = await allRows(h);
      const cases: [Record<string, unknown>, string][] = [
        [{ name: "" }, "name"],
        [{ name: "   " }, "name"],
        [{ name: "x".repeat(256) }, "name"],
        [{ polygon_color: "green" }, "polygon_color"],
        [{ polygon_color: "#12345" }, "polygon_color"],
        [{ polygon_color: "#1234567" }, "polygon_color"],
        [{ type: "rectangle" }, "type"],
        [{ type: undefined }, "type"],
        [{ group_id: theirs }, "group_id"],
        [{ group_id: 2_000_000_000 }, "group_id"],
        [{ group_id: -1 }, "group_id"],
        [{ active: "maybe" }, "active"],
      ];
      for (const [extra, field] of cases) expect(invalid(await h.post("/add_geofence", { user, body: geofenceBody(extra) })), JSON.stringify(extra)).toHaveProperty(field);
      for (const body of [[], "polygon", 42]) expect(invalid(await h.post("/add_geofence", { user, body }))).toBeDefined();
      expect(await allRows(h)).toEqual(before);
    });

    it("stores injection-looking text verbatim", async () => {
      const user = await h.newUser();
      const name = "'; DROP TABLE geofences; -- <script>alert(1)</script>";
      expect((await record(h, user, await add(h, user, { name })))!.name).toBe(name);
    });
  });

  describe("edit_geofence", () => {
    it("rewrites the geofence; group and active left out keep their values, group 0 ungroups", async () => {
      const user = await h.newUser();
      const group = await addGroup(h, user, { title: "G" });
      const id = await add(h, user, { group_id: group, active: false });
      const circle = { type: "circle", center: { lat: 1, lng: 2 }, radius: 30, polygon: undefined };
      ok(await h.post("/edit_geofence", { user, body: geofenceBody({ id, name: "Round", polygon_color: "#ff0000", ...circle }) }), GeoOkSchema);
      expect(await record(h, user, id)).toMatchObject({ name: "Round", polygon_color: "#ff0000", type: "circle", coordinates: "[]", center: { lat: 1, lng: 2 }, radius: 30, group_id: group, active: 0 });
      ok(await h.post("/edit_geofence", { user, as: "form", body: { ...geofenceBody({ id, group_id: 0, active: 1 }), polygon: JSON.stringify(SQUARE) } }), GeoOkSchema);
      expect(await record(h, user, id)).toMatchObject({ type: "polygon", coordinates: JSON.stringify(SQUARE), radius: null, group_id: null, active: 1 });
    });

    it("keeps a speed limit in km/h: set, kept when an edit leaves it out, removed by 0 or null, refused out of range", async () => {
      const user = await h.newUser();
      const id = await add(h, user, { speed_limit: 50 });
      expect((await record(h, user, id))!.speed_limit).toBe(50);
      ok(await h.post("/edit_geofence", { user, as: "form", body: { ...geofenceBody({ id, name: "School" }), polygon: JSON.stringify(SQUARE) } }), GeoOkSchema);
      expect(await record(h, user, id)).toMatchObject({ name: "School", speed_limit: 50 });
      ok(await h.post("/edit_geofence", { user, as: "form", body: { ...geofenceBody({ id, speed_limit: "30.5" }), polygon: JSON.stringify(SQUARE) } }), GeoOkSchema);
      expect((await record(h, user, id))!.speed_limit).toBe(30.5);
      ok(await h.post("/edit_geofence", { user, body: geofenceBody({ id, speed_limit: 0 }) }), GeoOkSchema);
      expect((await record(h, user, id))!.speed_limit).toBeNull();
      ok(await h.post("/edit_geofence", { user, body: geofenceBody({ id, speed_limit: 40 }) }), GeoOkSchema);
      ok(await h.post("/edit_geofence", { user, body: geofenceBody({ id, speed_limit: null }) }), GeoOkSchema);
      expect((await record(h, user, id))!.speed_limit).toBeNull();
      for (const speed_limit of [-1, 1001, "fast"]) expect(Object.keys(invalid(await h.post("/edit_geofence", { user, body: geofenceBody({ id, speed_limit }) })))).toEqual(["speed_limit"]);
    });

    it("answers another user's geofence, a missing one and a bad group with 404/422, changing nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const mine = await add(h, a);
      const theirs = await add(h, b);
      const aGroup = await addGroup(h, a, { title: "A's" });
      const before = await allRows(h);
      const missing = failure(await h.post("/edit_geofence", { user: b, body: geofenceBody({ id: 2_000_000_000 }) }), 404);
      expect(missing).toBe("Geofence not found.");
      expect(failure(await h.post("/edit_geofence", { user: b, body: geofenceBody({ id: mine, name: "Taken" }) }), 404)).toBe(missing);
      expect(invalid(await h.post("/edit_geofence", { user: b, body: geofenceBody({ id: theirs, group_id: aGroup }) }))).toEqual({ group_id: "The selected group id is invalid." });
      expect(invalid(await h.post("/edit_geofence", { user: b, body: geofenceBody({ id: "abc" }) }))).toHaveProperty("id");
      expect(await allRows(h)).toEqual(before);
    });
  });

  describe("destroy_geofence", () => {
    it("deletes the user's geofence and answers another user's like a missing one", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const [keep, drop] = [await add(h, a), await add(h, a)];
      const missing = failure(await h.get("/destroy_geofence", { user: b, query: { geofence_id: 2_000_000_000 } }), 404);
      expect(failure(await h.get("/destroy_geofence", { user: b, query: { geofence_id: keep } }), 404)).toBe(missing);
      expect(invalid(await h.get("/destroy_geofence", { user: b, query: { geofence_id: "1 OR 1=1" } }))).toHaveProperty("geofence_id");
      ok(await h.get("/destroy_geofence", { user: a, query: { geofence_id: drop } }), GeoOkSchema);
      expect((await list(h, a)).geofences.map((g) => g.id)).toEqual([keep]);
      failure(await h.get("/destroy_geofence", { user: a, query: { geofence_id: drop } }), 404);
    });
  });

  describe("change_active_geofence", () => {
    it("sets active on one id or a list, from the query or a body; active left out means off", async () => {
      const user = await h.newUser();
      const [x, y] = [await add(h, user), await add(h, user)];
      const active = async () => (await list(h, user)).geofences.map((g) => g.active);
      ok(await h.get("/change_active_geofence", { user, query: { id: x, active: "false" } }), GeoOkSchema);
      expect(await active()).toEqual([0, 1]);
      ok(await h.get("/change_active_geofence", { user, query: { "id[]": y, active: 0 } }), GeoOkSchema);
      expect(await active()).toEqual([0, 0]);
      ok(await h.post("/change_active_geofence", { user, body: { id: [x, y, x], active: true } }), GeoOkSchema);
      expect(await active()).toEqual([1, 1]);
      ok(await h.post("/change_active_geofence", { user, as: "form", body: { id: y } }), GeoOkSchema);
      expect(await active()).toEqual([1, 0]);
    });

    it("changes nothing when any id is not the user's, and refuses bad ids and flags", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const [mine, theirs] = [await add(h, a), await add(h, b)];
      const before = await allRows(h);
      expect(failure(await h.post("/change_active_geofence", { user: b, body: { id: [theirs, mine], active: false } }), 404)).toBe("Geofence not found.");
      failure(await h.get("/change_active_geofence", { user: b, query: { id: mine, active: "false" } }), 404);
      const queries: Record<string, string | number>[] = [{ id: "abc", active: 1 }, { id: 0, active: 1 }, { active: 1 }, { id: theirs, active: "yes" }];
      for (const query of queries) {
        invalid(await h.get("/change_active_geofence", { user: b, query }));
      }
      invalid(await h.post("/change_active_geofence", { user: b, body: { id: [], active: true } }));
      invalid(await h.post("/change_active_geofence", { user: b, body: { id: [theirs], active: null } }));
      expect(await allRows(h)).toEqual(before);
    });
  });

  describe("geofence groups", () => {
    it("stores a group with its geofences, lists it here and in get_geofences", async () => {
      const user = await h.newUser();
      const [x, y] = [await add(h, user), await add(h, user)];
      const group = await addGroup(h, user, { title: "Depots", open: true, geofences: [x] });
      const page = ok(await h.get("/geofences_groups", { user }), GeofenceGroupsResponseSchema);
      expect(page).toEqual({
        status: 1,
        data: [{ id: group, user_id: user.id, title: "Depots", open: false }],
        pagination: { total: 1, per_page: 10, current_page: 1, last_page: 1, next_page_url: null, prev_page_url: null, url: "/api/geofences_groups" },
      });
      const items = await list(h, user);
      expect(items.groups).toEqual(page.data);
      expect(items.geofences.map((g) => [g.id, g.group_id])).toEqual([
        [x, group],
        [y, null],
      ]);
    });

    it("searches titles (wildcards as text), sorts, and pages with limit", async () => {
      const user = await h.newUser();
      for (const title of ["Beta", "alpha", "Gamma 100%", "Delta_1"]) await addGroup(h, user, { title });
      const titles = async (query: Record<string, string | number>) => ok(await h.get("/geofences_groups", { user, query }), GeofenceGroupsResponseSchema).data.map((g) => g.title);
      expect(await titles({ sort_by: "title" })).toEqual(["alpha", "Beta", "Delta_1", "Gamma 100%"]);
      expect(await titles({ search_phrase: "ALPHA" })).toEqual(["alpha"]);
      expect(await titles({ search_phrase: "%" })).toEqual(["Gamma 100%"]);
      expect(await titles({ search_phrase: "_" })).toEqual(["Delta_1"]);
      const second = ok(await h.get("/geofences_groups", { user, query: { limit: 3, page: 2, sort: "desc" } }), GeofenceGroupsResponseSchema);
      expect(second.data.map((g) => g.title)).toEqual(["Beta"]);
      expect(second.pagination).toMatchObject({ total: 4, per_page: 3, current_page: 2, last_page: 2, next_page_url: null });
      expect(second.pagination.prev_page_url).toContain("limit=3");
      const queries: Record<string, string | number>[] = [{ sort_by: "user_id" }, { sort: "up" }, { limit: 0 }, { limit: 101 }, { page: 0 }, { search_phrase: "x".repeat(256) }];
      for (const query of queries) {
        invalid(await h.get("/geofences_groups", { user, query }));
      }
    });

    it("updates by PUT or POST: renames, and replaces the members (those left out are ungrouped)", async () => {
      const user = await h.newUser();
      const [x, y] = [await add(h, user), await add(h, user)];
      const group = await addGroup(h, user, { title: "Old", geofences: [x] });
      const put = await h.inject({ method: "PUT", url: `/api/geofences_groups/update/${group}?lang=en&user_api_hash=${user.hash}`, payload: { title: "New", geofences: [y] } });
      expect(ok(put, GeoCreatedSchema)).toEqual({ status: 1, id: group });
      const groupOf = async () => (await list(h, user)).geofences.map((g) => g.group_id);
      expect(await groupOf()).toEqual([null, group]);
      // Title left out keeps it; a form's empty `geofences=` empties the group.
      ok(await h.post(`/geofences_groups/update/${group}`, { user, as: "form", body: { geofences: "" } }), GeoCreatedSchema);
      expect(await groupOf()).toEqual([null, null]);
      expect((await list(h, user)).groups.map((g) => g.title)).toEqual(["New"]);
    });

    it("refuses other users' geofences and groups, changing nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aFence = await add(h, a);
      const aGroup = await addGroup(h, a, { title: "A's", geofences: [aFence] });
      const bGroup = await addGroup(h, b, { title: "B's" });
      const bFence = await add(h, b);
      const before = await allRows(h);
      expect(invalid(await h.post("/geofences_groups/store", { user: b, body: { title: "Steal", geofences: [bFence, aFence] } }))).toEqual({ geofences: "The selected geofences are invalid." });
      invalid(await h.post(`/geofences_groups/update/${bGroup}`, { user: b, body: { geofences: [aFence] } }));
      const missing = failure(await h.post("/geofences_groups/update/2000000000", { user: b, body: { title: "X" } }), 404);
      expect(missing).toBe("Geofence group not found.");
      expect(failure(await h.post(`/geofences_groups/update/${aGroup}`, { user: b, body: { title: "X", geofences: [] } }), 404)).toBe(missing);
      expect(failure(await h.get(`/geofences_groups/destroy/${aGroup}`, { user: b }), 404)).toBe(missing);
      for (const body of [{ title: "" }, { title: "x".repeat(256) }, { geofences: ["abc"] }, { open: "maybe" }]) invalid(await h.post("/geofences_groups/store", { user: b, body }));
      expect(invalid(await h.get("/geofences_groups/destroy/abc", { user: b }))).toHaveProperty("id");
      expect(await allRows(h)).toEqual(before);
      expect((await list(h, b)).groups.map((g) => g.id)).toEqual([bGroup]);
    });

    it("survives concurrent membership changes, toggles and edits without a server error", async () => {
      const user = await h.newUser();
      const fences: number[] = [];
      for (let i = 0; i < 8; i++) fences.push(await add(h, user));
      const [g1, g2] = [await addGroup(h, user, { title: "One" }), await addGroup(h, user, { title: "Two" })];
      const pick = (k: number) => fences.filter((_, i) => (i * 7 + k) % 3 !== 0);
      const calls = Array.from({ length: 24 }, (_, k) => {
        const group = k % 2 ? g1 : g2;
        if (k % 4 === 3) return h.post("/change_active_geofence", { user, body: { id: [...fences].reverse(), active: k % 8 === 3 } });
        if (k % 6 === 5) return h.post("/edit_geofence", { user, body: geofenceBody({ id: fences[k % fences.length]!, group_id: group }) });
        return h.post(`/geofences_groups/update/${group}`, { user, body: { geofences: k % 5 ? pick(k) : [...pick(k)].reverse() } });
      });
      for (const res of await Promise.all(calls)) expect(res.status, res.text).toBe(200);
      // Each geofence ends in at most one group, and both groups still exist.
      const items = await list(h, user);
      expect(items.groups.map((g) => g.id)).toEqual([g1, g2]);
      expect(items.geofences.every((g) => g.group_id === null || g.group_id === g1 || g.group_id === g2)).toBe(true);
    });

    it("destroys a group; its geofences stay, ungrouped", async () => {
      const user = await h.newUser();
      const x = await add(h, user);
      const group = await addGroup(h, user, { title: "Gone", geofences: [x] });
      expect(ok(await h.get(`/geofences_groups/destroy/${group}`, { user }), GeoCreatedSchema)).toEqual({ status: 1, id: group });
      expect(await list(h, user)).toMatchObject({ groups: [], geofences: [{ id: x, group_id: null }] });
    });
  });

  it("never lists another user's geofences or groups", async () => {
    const [a, b] = [await h.newUser(), await h.newUser()];
    await addGroup(h, a, { title: "Secret group", geofences: [await add(h, a, { name: "Secret fence" })] });
    expect(await list(h, b)).toEqual({ geofences: [], groups: [] });
    expect(ok(await h.get("/geofences_groups", { user: b }), GeofenceGroupsResponseSchema).data).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { GeoCreatedSchema, GeoOkSchema, GetRoutesResponseSchema, MAX_ROUTE_POINTS, userClock, type RouteRecord } from "@fleet/contracts";
import { findUserRoute, routes } from "@fleet/db";
import { describeApi, failure, invalid, ok, type ApiHarness, type BodyEncoding, type TestUser, signedLink } from "./fixture.js";
import { routeBody } from "./matrix/geo.js";

const LINE = [
  { lat: 54.68, lng: 25.27 },
  { lat: 54.69, lng: 25.28 },
  { lat: 54.7, lng: 25.3 },
];

async function add(h: ApiHarness, user: TestUser, extra: Record<string, unknown> = {}, as: BodyEncoding = "json"): Promise<number> {
  return ok(await h.post("/add_route", { user, as, body: routeBody(extra) }), GeoCreatedSchema).id;
}

async function page(h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) {
  return ok(await h.get("/get_routes", { user, query }), GetRoutesResponseSchema);
}

async function record(h: ApiHarness, user: TestUser, id: number): Promise<RouteRecord | undefined> {
  return (await page(h, user, { per_page: 100 })).data.find((r) => r.id === id);
}

async function allRows(h: ApiHarness) {
  return (await h.db.select().from(routes)).sort((x, y) => x.id - y.id);
}

describeApi("routes", (h) => {
  describe("add_route and get_routes", () => {
    it("is an empty page for a new user, in the vendor's {data, pagination} shape", async () => {
      expect(await page(h, await h.newUser())).toEqual({
        data: [],
        pagination: { total: 0, per_page: 10, current_page: 1, last_page: 1, next_page_url: null, prev_page_url: null, url: "/api/get_routes" },
        status: 1,
      });
    });

    it("creates a route and returns its record, coordinates as an array", async () => {
      // Timezone 65 is UTC+02:00.
      const user = await h.newUser({ timezoneId: 65 });
      const id = await add(h, user, { name: "To the depot", color: "#AA00F5", polyline: LINE });
      const row = (await findUserRoute(h.db, user.id, id))!;
      expect(await record(h, user, id)).toEqual({
        id,
        user_id: user.id,
        group_id: 0,
        active: 1,
        name: "To the depot",
        color: "#AA00F5",
        coordinates: LINE,
        created_at: userClock({ timezoneId: 65 }).format(row.createdAt.getTime()),
        updated_at: userClock({ timezoneId: 65 }).format(row.updatedAt.getTime()),
      } satisfies RouteRecord);
    });

    it("takes the polyline as JSON text (form, multipart) or as bracketed fields", async () => {
      const user = await h.newUser();
      const fromForm = await add(h, user, { polyline: JSON.stringify(LINE) }, "form");
      const fromMultipart = await add(h, user, { polyline: JSON.stringify(LINE) }, "multipart");
      const fields = Object.fromEntries(LINE.flatMap((p, i) => [[`polyline[${i}][lat]`, String(p.lat)], [`polyline[${i}][lng]`, String(p.lng)]]));
      const fromFields = ok(await h.post("/add_route", { user, as: "multipart", body: { name: "F", color: "#000000", ...fields } }), GeoCreatedSchema).id;
      for (const id of [fromForm, fromMultipart, fromFields]) expect((await record(h, user, id))!.coordinates).toEqual(LINE);
    });

    it("pages the routes by id with links that keep per_page", async () => {
      const user = await h.newUser();
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) ids.push(await add(h, user, { name: `R${i}` }));
      const first = await page(h, user, { per_page: 5 });
      expect(first.data.map((r) => r.id)).toEqual(ids.slice(0, 5));
      expect(first.pagination).toMatchObject({ total: 12, per_page: 5, current_page: 1, last_page: 3, prev_page_url: null });
      const last = ok(await h.inject({ method: "GET", url: signedLink((await page(h, user, { per_page: 5, page: 2 })).pagination.next_page_url, user.hash) }), GetRoutesResponseSchema);
      expect(last.data.map((r) => r.id)).toEqual(ids.slice(10));
      const queries: Record<string, string | number>[] = [{ page: 0 }, { per_page: 101 }, { per_page: "x" }];
      for (const query of queries) invalid(await h.get("/get_routes", { user, query }));
    });

    it("accepts the longest polyline allowed", async () => {
      const user = await h.newUser();
      const long = Array.from({ length: MAX_ROUTE_POINTS }, (_, i) => ({ lat: 54 + i / 100_000, lng: 25 }));
      expect((await record(h, user, await add(h, user, { polyline: long })))!.coordinates).toHaveLength(MAX_ROUTE_POINTS);
    });

    it("refuses bad polylines, names and colours, naming the field and creating nothing", async () => {
      const user = await h.newUser();
      const before = await allRows(h);
      const p = LINE[0]!;
      const too = Array.from({ length: MAX_ROUTE_POINTS + 1 }, (_, i) => ({ lat: 54 + i / 100_000, lng: 25 }));
      const cases: [Record<string, unknown>, string][] = [
        [{ polyline: [p] }, "polyline"],
        [{ polyline: [p, p, p] }, "polyline"],
        [{ polyline: [] }, "polyline"],
        [{ polyline: [p, { lat: 90.5, lng: 0 }] }, "polyline"],
        [{ polyline: JSON.stringify([p, { lat: 0, lng: 180.5 }]) }, "polyline"],
        [{ polyline: "[[54, 25], [55, 26]]" }, "polyline"],
        [{ polyline: "{" }, "polyline"],
        [{ polyline: too }, "polyline"],
        [{ polyline: JSON.stringify(too) }, "polyline"],
        [{ polyline: undefined }, "polyline"],
        [{ name: " " }, "name"],
        [{ name: "x".repeat(256) }, "name"],
        [{ color: "red" }, "color"],
        [{ color: undefined }, "color"],
      ];
      for (const [extra, field] of cases) {
        const errors = invalid(await h.post("/add_route", { user, body: routeBody(extra) }));
        expect(Object.keys(errors).some((k) => k.startsWith(field)), `${JSON.stringify(extra).slice(0, 100)} → ${JSON.stringify(errors)}`).toBe(true);
      }
      expect(await allRows(h)).toEqual(before);
    });
  });

  describe("edit_route and destroy_route", () => {
    it("rewrites the user's route", async () => {
      const user = await h.newUser();
      const id = await add(h, user);
      ok(await h.post("/edit_route", { user, as: "multipart", body: { id, name: "Renamed", color: "#123456", polyline: JSON.stringify(LINE) } }), GeoOkSchema);
      expect(await record(h, user, id)).toMatchObject({ name: "Renamed", color: "#123456", coordinates: LINE });
    });

    it("answers another user's route like a missing one and leaves it alone", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const mine = await add(h, a);
      const before = await allRows(h);
      const missing = failure(await h.post("/edit_route", { user: b, body: routeBody({ id: 2_000_000_000 }) }), 404);
      expect(missing).toBe("Route not found.");
      expect(failure(await h.post("/edit_route", { user: b, body: routeBody({ id: mine, name: "Taken" }) }), 404)).toBe(missing);
      expect(failure(await h.get("/destroy_route", { user: b, query: { route_id: mine } }), 404)).toBe(missing);
      expect(failure(await h.get("/destroy_route", { user: b, query: { route_id: 2_000_000_000 } }), 404)).toBe(missing);
      expect(invalid(await h.get("/destroy_route", { user: b, query: { route_id: "abc" } }))).toHaveProperty("route_id");
      expect(await allRows(h)).toEqual(before);
    });

    it("deletes the user's route", async () => {
      const user = await h.newUser();
      const [keep, drop] = [await add(h, user), await add(h, user)];
      ok(await h.get("/destroy_route", { user, query: { route_id: drop } }), GeoOkSchema);
      expect((await page(h, user)).data.map((r) => r.id)).toEqual([keep]);
    });
  });

  describe("change_active_route", () => {
    it("sets active from the query or a body, one id or several; active left out means off", async () => {
      const user = await h.newUser();
      const [x, y] = [await add(h, user), await add(h, user)];
      const active = async () => (await page(h, user)).data.map((r) => r.active);
      ok(await h.get("/change_active_route", { user, query: { id: x, active: "false" } }), GeoOkSchema);
      expect(await active()).toEqual([0, 1]);
      ok(await h.post("/change_active_route", { user, body: { id: [x, y], active: "1" } }), GeoOkSchema);
      expect(await active()).toEqual([1, 1]);
      ok(await h.get("/change_active_route", { user, query: { id: y } }), GeoOkSchema);
      expect(await active()).toEqual([1, 0]);
    });

    it("changes nothing when any id is not the user's", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const [mine, theirs] = [await add(h, a), await add(h, b)];
      const before = await allRows(h);
      expect(failure(await h.post("/change_active_route", { user: b, body: { id: [theirs, mine], active: false } }), 404)).toBe("Route not found.");
      failure(await h.get("/change_active_route", { user: b, query: { id: mine, active: 0 } }), 404);
      invalid(await h.get("/change_active_route", { user: b, query: { id: "1; DROP TABLE routes", active: 0 } }));
      expect(await allRows(h)).toEqual(before);
    });
  });

  it("never lists another user's routes", async () => {
    const [a, b] = [await h.newUser(), await h.newUser()];
    await add(h, a, { name: "Secret route" });
    expect((await page(h, b)).data).toEqual([]);
  });
});

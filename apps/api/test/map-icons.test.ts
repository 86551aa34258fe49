import { describe, expect, it } from "vitest";
import { GeoCreatedSchema, GeoOkSchema, GetMapIconsResponseSchema, GetUserMapIconsResponseSchema, userClock, mapIconCatalogue, type UserMapIconRecord } from "@fleet/contracts";
import { findUserMapIcon, userMapIcons } from "@fleet/db";
import { describeApi, failure, invalid, ok, type ApiHarness, type BodyEncoding, type TestUser } from "./fixture.js";
import { mapIconBody } from "./matrix/geo.js";

async function add(h: ApiHarness, user: TestUser, extra: Record<string, unknown> = {}, as: BodyEncoding = "json"): Promise<number> {
  return ok(await h.post("/add_map_icon", { user, as, body: mapIconBody(extra) }), GeoCreatedSchema).id;
}

async function list(h: ApiHarness, user: TestUser): Promise<UserMapIconRecord[]> {
  return ok(await h.get("/get_user_map_icons", { user }), GetUserMapIconsResponseSchema).items.mapIcons;
}

async function record(h: ApiHarness, user: TestUser, id: number): Promise<UserMapIconRecord | undefined> {
  return (await list(h, user)).find((m) => m.id === id);
}

async function allRows(h: ApiHarness) {
  return (await h.db.select().from(userMapIcons)).sort((x, y) => x.id - y.id);
}

describeApi("map icons", (h) => {
  it("get_map_icons returns the shipped catalogue", async () => {
    const { items } = ok(await h.get("/get_map_icons", { user: await h.newUser() }), GetMapIconsResponseSchema);
    expect(items).toEqual(mapIconCatalogue);
    expect(items.length).toBeGreaterThanOrEqual(20);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    for (const i of items) expect(i).toMatchObject({ path: expect.stringMatching(/^images\/map_icons\/\w+\.png$/), width: expect.stringMatching(/^\d+\.\d\d$/) });
  });

  describe("add_map_icon and get_user_map_icons", () => {
    it("lists nothing for a new user", async () => {
      expect(await list(h, await h.newUser())).toEqual([]);
    });

    it("places an icon; the record embeds the catalogue entry and holds coordinates as JSON text", async () => {
      // Timezone 65 is UTC+02:00.
      const user = await h.newUser({ timezoneId: 65 });
      const id = await add(h, user, { name: "Depot", description: "Gate 2", map_icon_id: 3, coordinates: { lat: 54.948442387473655, lng: 23.94847869873047 } });
      const row = (await findUserMapIcon(h.db, user.id, id))!;
      expect(await record(h, user, id)).toEqual({
        id,
        user_id: user.id,
        map_icon_id: 3,
        active: 1,
        name: "Depot",
        description: "Gate 2",
        coordinates: JSON.stringify({ lat: 54.948442387473655, lng: 23.94847869873047 }),
        created_at: userClock({ timezoneId: 65 }).format(row.createdAt.getTime()),
        updated_at: userClock({ timezoneId: 65 }).format(row.updatedAt.getTime()),
        map_icon: mapIconCatalogue[2]!,
      } satisfies UserMapIconRecord);
    });

    it("takes coordinates as JSON text (what the record returns) and as form fields", async () => {
      const user = await h.newUser();
      const text = await add(h, user, { coordinates: '{"lat": -33.9, "lng": 151.2}', description: undefined });
      const form = ok(
        await h.post("/add_map_icon", { user, as: "form", body: { name: "Form", map_icon_id: "5", "coordinates[lat]": "1.5", "coordinates[lng]": "-2.25" } }),
        GeoCreatedSchema,
      ).id;
      expect(await record(h, user, text)).toMatchObject({ coordinates: JSON.stringify({ lat: -33.9, lng: 151.2 }), description: "" });
      expect(await record(h, user, form)).toMatchObject({ coordinates: JSON.stringify({ lat: 1.5, lng: -2.25 }), map_icon_id: 5 });
    });

    it("refuses icons not in the catalogue and bad coordinates or names, creating nothing", async () => {
      const user = await h.newUser();
      const before = await allRows(h);
      const cases: [Record<string, unknown>, string][] = [
        [{ map_icon_id: 0 }, "map_icon_id"],
        [{ map_icon_id: 999 }, "map_icon_id"],
        [{ map_icon_id: "car" }, "map_icon_id"],
        [{ map_icon_id: undefined }, "map_icon_id"],
        [{ coordinates: { lat: 91, lng: 0 } }, "coordinates"],
        [{ coordinates: { lat: 0 } }, "coordinates"],
        [{ coordinates: '{"lat": 0, "lng": 181}' }, "coordinates"],
        [{ coordinates: '{"lat": 1e400, "lng": 1}' }, "coordinates"],
        [{ coordinates: "54.1,25.2" }, "coordinates"],
        [{ coordinates: undefined }, "coordinates"],
        [{ name: "" }, "name"],
        [{ name: "x".repeat(256) }, "name"],
        [{ description: "x".repeat(5001) }, "description"],
      ];
      for (const [extra, field] of cases) {
        const errors = invalid(await h.post("/add_map_icon", { user, body: mapIconBody(extra) }));
        expect(Object.keys(errors).some((k) => k.startsWith(field)), `${JSON.stringify(extra)} → ${JSON.stringify(errors)}`).toBe(true);
      }
      expect(await allRows(h)).toEqual(before);
    });
  });

  describe("edit_map_icon and destroy_map_icon", () => {
    it("rewrites the icon; a description left out keeps its value", async () => {
      const user = await h.newUser();
      const id = await add(h, user, { description: "Keep me" });
      ok(await h.post("/edit_map_icon", { user, body: { id, name: "Moved", map_icon_id: 7, coordinates: { lat: 10, lng: 20 } } }), GeoOkSchema);
      expect(await record(h, user, id)).toMatchObject({ name: "Moved", description: "Keep me", map_icon_id: 7, coordinates: JSON.stringify({ lat: 10, lng: 20 }), map_icon: { id: 7 } });
      ok(await h.post("/edit_map_icon", { user, body: mapIconBody({ id, description: "" }) }), GeoOkSchema);
      expect((await record(h, user, id))!.description).toBe("");
    });

    it("answers another user's icon like a missing one and leaves it alone", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const mine = await add(h, a);
      const before = await allRows(h);
      const missing = failure(await h.post("/edit_map_icon", { user: b, body: mapIconBody({ id: 2_000_000_000 }) }), 404);
      expect(missing).toBe("Map icon not found.");
      expect(failure(await h.post("/edit_map_icon", { user: b, body: mapIconBody({ id: mine, name: "Taken" }) }), 404)).toBe(missing);
      expect(failure(await h.get("/destroy_map_icon", { user: b, query: { map_icon_id: mine } }), 404)).toBe(missing);
      expect(failure(await h.get("/destroy_map_icon", { user: b, query: { map_icon_id: 2_000_000_000 } }), 404)).toBe(missing);
      expect(invalid(await h.get("/destroy_map_icon", { user: b, query: { map_icon_id: "-1" } }))).toHaveProperty("map_icon_id");
      expect(await allRows(h)).toEqual(before);
    });

    it("deletes the user's icon", async () => {
      const user = await h.newUser();
      const [keep, drop] = [await add(h, user), await add(h, user)];
      ok(await h.get("/destroy_map_icon", { user, query: { map_icon_id: drop } }), GeoOkSchema);
      expect((await list(h, user)).map((m) => m.id)).toEqual([keep]);
    });
  });

  describe("change_active_map_icon", () => {
    it("sets active on one id or a list; active left out means off", async () => {
      const user = await h.newUser();
      const [x, y] = [await add(h, user), await add(h, user)];
      const active = async () => (await list(h, user)).map((m) => m.active);
      ok(await h.get("/change_active_map_icon", { user, query: { "id[0]": x, "id[1]": y, active: "false" } }), GeoOkSchema);
      expect(await active()).toEqual([0, 0]);
      ok(await h.post("/change_active_map_icon", { user, body: { id: y, active: true } }), GeoOkSchema);
      expect(await active()).toEqual([0, 1]);
      ok(await h.post("/change_active_map_icon", { user, body: { id: [y] } }), GeoOkSchema);
      expect(await active()).toEqual([0, 0]);
    });

    it("changes nothing when any id is not the user's", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const [mine, theirs] = [await add(h, a), await add(h, b)];
      const before = await allRows(h);
      expect(failure(await h.post("/change_active_map_icon", { user: b, body: { id: [theirs, mine], active: false } }), 404)).toBe("Map icon not found.");
      failure(await h.get("/change_active_map_icon", { user: b, query: { id: mine, active: 0 } }), 404);
      invalid(await h.post("/change_active_map_icon", { user: b, body: { id: { $ne: 1 }, active: false } }));
      expect(await allRows(h)).toEqual(before);
    });
  });

  it("never lists another user's map icons", async () => {
    const [a, b] = [await h.newUser(), await h.newUser()];
    await add(h, a, { name: "Secret spot", description: "Secret note" });
    expect(await list(h, b)).toEqual([]);
  });
});

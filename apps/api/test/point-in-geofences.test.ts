import { expect, it } from "vitest";
import { GeoCreatedSchema, GeoOkSchema, PointInGeofencesResponseSchema } from "@fleet/contracts";
import { describeApi, invalid, ok, type ApiHarness, type TestUser } from "./fixture.js";
import { SQUARE, geofenceBody } from "./matrix/geo.js";

/* point_in_geofences: the names of the user's active geofences, polygons and circles, that hold a point. */

async function addFence(h: ApiHarness, user: TestUser, extra: Record<string, unknown>): Promise<number> {
  return ok(await h.post("/add_geofence", { user, body: geofenceBody(extra) }), GeoCreatedSchema).id;
}

async function zones(h: ApiHarness, user: TestUser, lat: number, lng: number): Promise<string[]> {
  return ok(await h.get("/point_in_geofences", { user, query: { lat, lng } }), PointInGeofencesResponseSchema).zones;
}

describeApi("point in geofences", (h) => {
  it("names the polygons and circles that hold the point, by geofence id", async () => {
    const user = await h.newUser();
    // SQUARE spans 54.68–54.70 N, 25.27–25.29 E; the circle (800 m) sits on its east edge, 0.01° of longitude there being about 640 m.
    await addFence(h, user, { name: "Old town" });
    await addFence(h, user, { name: "Station", type: "circle", center: { lat: 54.69, lng: 25.29 }, radius: 800 });
    expect(await zones(h, user, 54.69, 25.28)).toEqual(["Old town", "Station"]);
    expect(await zones(h, user, 54.69, 25.275)).toEqual(["Old town"]);
    expect(await zones(h, user, 54.69, 25.3)).toEqual(["Station"]);
    expect(await zones(h, user, 54.75, 25.28)).toEqual([]);
    expect(await h.get("/point_in_geofences", { user, query: { lat: "54.69", lng: "25.28" } }).then((r) => r.body)).toEqual({ status: 1, zones: ["Old town", "Station"] });
  });

  it("leaves out inactive geofences and other users' geofences", async () => {
    const [a, b] = [await h.newUser(), await h.newUser()];
    const off = await addFence(h, a, { name: "Switched off" });
    await addFence(h, a, { name: "On" });
    await addFence(h, b, { name: "B's zone", polygon: SQUARE });
    ok(await h.get("/change_active_geofence", { user: a, query: { id: off, active: 0 } }), GeoOkSchema);
    expect(await zones(h, a, 54.69, 25.28)).toEqual(["On"]);
    expect(await zones(h, b, 54.69, 25.28)).toEqual(["B's zone"]);
    expect(await zones(h, await h.newUser(), 54.69, 25.28)).toEqual([]);
  });

  it("takes a concave polygon across the antimeridian and holds the points inside it, on either side of the line", async () => {
    const user = await h.newUser();
    // A C opening east: its back at 178°E–179°E, its arms reaching across to 175°W.
    const c = [[0, 178], [0, -175], [1, -175], [1, 179], [3, 179], [3, -175], [4, -175], [4, 178], [0, 178]].map(([lat, lng]) => ({ lat, lng }));
    await addFence(h, user, { name: "Fiji", polygon: c });
    expect(await zones(h, user, 0.5, -176)).toEqual(["Fiji"]); // south arm, east of the line
    expect(await zones(h, user, 3.5, 179.5)).toEqual(["Fiji"]); // north arm, west of it
    expect(await zones(h, user, 2, 178.5)).toEqual(["Fiji"]); // the back
    expect(await zones(h, user, 2, -177)).toEqual([]); // the mouth
    expect(await zones(h, user, 2, 170)).toEqual([]);
  });

  it("refuses a point that is missing, blank, not a number or off the globe, naming the field", async () => {
    const user = await h.newUser();
    const cases: [Record<string, string | number>, string][] = [
      [{ lng: 25 }, "lat"],
      [{ lat: 54 }, "lng"],
      [{ lat: "", lng: 25 }, "lat"],
      [{ lat: 54, lng: " " }, "lng"],
      [{ lat: "north", lng: 25 }, "lat"],
      [{ lat: 90.5, lng: 25 }, "lat"],
      [{ lat: 54, lng: -180.5 }, "lng"],
      [{ lat: "1e400", lng: 25 }, "lat"],
    ];
    for (const [query, field] of cases) expect(Object.keys(invalid(await h.get("/point_in_geofences", { user, query }))), JSON.stringify(query)).toEqual([field]);
    // The poles and the antimeridian are points like any other.
    expect(await zones(h, user, -90, 180)).toEqual([]);
  });
});

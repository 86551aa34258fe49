/*
 * The vendor's address endpoints: address, address/reverse, address/search and
 * address/autocomplete, on the offline geocoder (the harness's default, as an API without
 * GEOCODER_URL) and on a Nominatim-speaking HTTP server of the test's, which also fails
 * and stalls on request. Answers are checked against our contracts and the vendor Swagger.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressListResponseSchema, AddressLocationResponseSchema, GeoCreatedSchema, GeoOkSchema } from "@fleet/contracts";
import { createGeocoder, type GeocoderLogger } from "@fleet/geocoder";
import { ApiHarness, describeApi, failure, invalid, ok, type Reply, type TestUser } from "./fixture.js";
import { SQUARE, geofenceBody } from "./matrix/geo.js";
import { vendorErrors } from "./swagger.js";

const VILNIUS = { lat: 54.6872, lng: 25.2797 };
const POINT_NEMO = { lat: -48.8767, lng: -123.3933 };

/** The body of a 200 `GET /address`: a JSON string. */
function text(res: Reply): string {
  expect(res.status, `${res.label} → ${res.text}`).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(typeof res.body, res.text).toBe("string");
  return res.body as string;
}

function expectVendorShape(path: string, res: Reply): void {
  expect(vendorErrors(path, res.body), `${res.label} → ${res.text}`).toEqual([]);
}

describeApi("addresses", (h) => {
  let user: TestUser;
  beforeAll(async () => {
    user = await h.newUser();
  });

  it("address/reverse: the nearest town offline, in the vendor's address shape", async () => {
    const res = await h.get("/address/reverse", { user, query: VILNIUS });
    expect(ok(res, AddressLocationResponseSchema)).toEqual({
      status: 1,
      location: {
        id: "593116",
        place_id: 593116,
        lat: expect.stringMatching(/^54\.68/),
        lng: expect.stringMatching(/^25\.2/),
        address: "Vilnius, LT",
        country: "Lithuania",
        country_code: "LT",
        state: "Vilnius",
        city: "Vilnius",
        road: "",
        house: "",
        zip: "",
        type: "city",
      },
    });
    expectVendorShape("/address/reverse", res);
  });

  it("address: the name of the user's geofence holding the point, else the address, as a JSON string", async () => {
    const me = await h.newUser();
    const res = await h.get("/address", { user: me, query: VILNIUS });
    expect(text(res)).toBe("Vilnius, LT");
    expectVendorShape("/address", res);
    // Another user's geofence there changes nothing for this one.
    const other = await h.newUser();
    ok(await h.post("/add_geofence", { user: other, body: geofenceBody({ name: "Their yard", polygon: SQUARE }) }), GeoCreatedSchema);
    expect(text(await h.get("/address", { user: me, query: { lat: 54.69, lng: 25.28 } }))).toBe("Vilnius, LT");
    // Their own: its name; switched off, the address again.
    const id = ok(await h.post("/add_geofence", { user: me, body: geofenceBody({ name: "Old town depot", polygon: SQUARE }) }), GeoCreatedSchema).id;
    expect(text(await h.get("/address", { user: me, query: { lat: 54.69, lng: 25.28 } }))).toBe("Old town depot");
    expect(text(await h.get("/address", { user: other, query: { lat: 54.69, lng: 25.28 } }))).toBe("Their yard");
    ok(await h.get("/change_active_geofence", { user: me, query: { id, active: 0 } }), GeoOkSchema);
    expect(text(await h.get("/address", { user: me, query: { lat: 54.69, lng: 25.28 } }))).toBe("Vilnius, LT");
    // Where no town is near: an empty string, not a failure.
    expect(text(await h.get("/address", { user: me, query: POINT_NEMO }))).toBe("");
  });

  it("address/reverse: 404 in the failure shape where no town is near", async () => {
    expect(failure(await h.get("/address/reverse", { user, query: POINT_NEMO }), 404)).toBe("Address not found.");
  });

  it("address/search: the best match for the text, accents and case aside; 404 when none", async () => {
    const res = await h.get("/address/search", { user, query: { q: "siauliai" } });
    expect(ok(res, AddressLocationResponseSchema).location).toMatchObject({ city: "Šiauliai", country_code: "LT", address: "Šiauliai, LT" });
    expectVendorShape("/address/search", res);
    expect(ok(await h.get("/address/search", { user, query: { q: "Paris, Texas" } }), AddressLocationResponseSchema).location).toMatchObject({ city: "Paris", state: "Texas", country_code: "US" });
    expect(failure(await h.get("/address/search", { user, query: { q: "Qqqxzz" } }), 404)).toBe("Address not found.");
  });

  it("address/autocomplete: up to 10 places, best first; [] when none", async () => {
    const res = await h.get("/address/autocomplete", { user, query: { q: "Vil" } });
    const list = ok(res, AddressListResponseSchema);
    expect(list).toHaveLength(10);
    expect(list[0]).toMatchObject({ city: "Vilnius", country_code: "LT" });
    expectVendorShape("/address/autocomplete", res);
    expect(ok(await h.get("/address/autocomplete", { user, query: { q: "Qqqxzz" } }), AddressListResponseSchema)).toEqual([]);
  });

  it("refuses a point that is missing, blank, not a number or off the globe, and a text that is missing or blank, naming the field", async () => {
    const points: [Record<string, string | number>, string][] = [
      [{ lng: 25 }, "lat"],
      [{ lat: 54 }, "lng"],
      [{ lat: "", lng: 25 }, "lat"],
      [{ lat: 54, lng: " " }, "lng"],
      [{ lat: "north", lng: 25 }, "lat"],
      [{ lat: 90.5, lng: 25 }, "lat"],
      [{ lat: -90.5, lng: 25 }, "lat"],
      [{ lat: 54, lng: 180.5 }, "lng"],
      [{ lat: 54, lng: -180.5 }, "lng"],
      [{ lat: "1e400", lng: 25 }, "lat"],
    ];
    for (const path of ["/address", "/address/reverse"]) {
      for (const [query, field] of points) expect(Object.keys(invalid(await h.get(path, { user, query }))), `${path} ${JSON.stringify(query)}`).toEqual([field]);
    }
    for (const path of ["/address/search", "/address/autocomplete"]) {
      for (const query of [{}, { q: "" }, { q: "   " }, { q: "x".repeat(256) }] as Record<string, string>[]) expect(Object.keys(invalid(await h.get(path, { user, query }))), `${path} ${JSON.stringify(query)}`).toEqual(["q"]);
    }
    // The poles and the antimeridian are points like any other.
    expect(text(await h.get("/address", { user, query: { lat: -90, lng: 180 } }))).toBe("");
  });

  it("answers only a signed-in user", async () => {
    for (const path of ["/address", "/address/reverse", "/address/search", "/address/autocomplete"]) {
      expect((await h.get(path, { query: { ...VILNIUS, q: "Vilnius" } })).status, path).toBe(401);
    }
  });
});

// ---- over a Nominatim server ----------------------------------------------------------------

/** A reverse answer as Nominatim writes it (format=jsonv2, addressdetails=1). */
const HOUSE = {
  place_id: 287654321,
  licence: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
  osm_type: "node",
  osm_id: 1234,
  lat: "54.6871556",
  lon: "25.2796514",
  category: "place",
  type: "house",
  place_rank: 30,
  addresstype: "place",
  name: "",
  display_name: "5, Gedimino prospektas, Senamiestis, Vilnius, Vilnius County, 01103, Lithuania",
  address: { house_number: "5", road: "Gedimino prospektas", suburb: "Senamiestis", city: "Vilnius", state: "Vilnius County", postcode: "01103", country: "Lithuania", country_code: "lt" },
};

describe("addresses over a Nominatim server", () => {
  let server: Server;
  /** How the server answers next: as Nominatim, with a 500, or never. */
  let mode: "ok" | "fail" | "stall" = "ok";
  let requests = 0;
  const stalled = new Set<() => void>();
  const warnings: { obj: object; msg?: string }[] = [];
  const logger: GeocoderLogger = { info: () => undefined, warn: (obj, msg) => warnings.push({ obj, msg }) };
  let h: ApiHarness;
  let user: TestUser;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      const url = new URL(req.url ?? "/", "http://x");
      const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (mode === "fail") return send(500, { error: "database down" });
      if (mode === "stall") return stalled.add(() => send(200, HOUSE));
      if (url.pathname.endsWith("/reverse")) return send(200, url.searchParams.get("lat")?.startsWith("-48.") ? { error: "Unable to geocode" } : HOUSE);
      if (url.pathname.endsWith("/search")) return send(200, url.searchParams.get("q") === "gedimino 5" ? [HOUSE] : []);
      send(404, {});
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/nominatim?key=k3y-in-url`;
    h = new ApiHarness("pglite", { geocoder: createGeocoder({ url, timeoutMs: 300, logger }) });
    await h.open();
    user = await h.newUser();
  });
  afterAll(async () => {
    await h?.close();
    for (const release of stalled) release();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("answers the server's place in the vendor's shape, and asks it once for a point it already knows", async () => {
    const res = await h.get("/address/reverse", { user, query: VILNIUS });
    expect(ok(res, AddressLocationResponseSchema).location).toEqual({
      id: "287654321",
      place_id: 287654321,
      lat: "54.6871556",
      lng: "25.2796514",
      address: HOUSE.display_name,
      country: "Lithuania",
      country_code: "LT",
      state: "Vilnius County",
      city: "Vilnius",
      road: "Gedimino prospektas",
      house: "5",
      zip: "01103",
      type: "place",
    });
    expectVendorShape("/address/reverse", res);
    const before = requests;
    expect(text(await h.get("/address", { user, query: VILNIUS }))).toBe(HOUSE.display_name);
    expect(requests).toBe(before);
    expect(failure(await h.get("/address/reverse", { user, query: POINT_NEMO }), 404)).toBe("Address not found.");
  });

  it("searches and autocompletes through the server", async () => {
    const found = await h.get("/address/search", { user, query: { q: "Gedimino 5" } });
    expect(ok(found, AddressLocationResponseSchema).location.road).toBe("Gedimino prospektas");
    expectVendorShape("/address/search", found);
    const list = await h.get("/address/autocomplete", { user, query: { q: "Gedimino 5" } });
    expect(ok(list, AddressListResponseSchema).map((a) => a.house)).toEqual(["5"]);
    expectVendorShape("/address/autocomplete", list);
    expect(failure(await h.get("/address/search", { user, query: { q: "nowhere" } }), 404)).toBe("Address not found.");
  });

  it("leaves the address empty when the server fails or stalls, never failing the request, and logs why without the key", async () => {
    warnings.length = 0;
    mode = "fail";
    expect(text(await h.get("/address", { user, query: { lat: 55.1, lng: 24.1 } }))).toBe("");
    expect(failure(await h.get("/address/reverse", { user, query: { lat: 55.1, lng: 24.1 } }), 404)).toBe("Address not found.");
    expect(ok(await h.get("/address/autocomplete", { user, query: { q: "Kaunas" } }), AddressListResponseSchema)).toEqual([]);
    mode = "stall";
    const started = Date.now();
    expect(text(await h.get("/address", { user, query: { lat: 55.2, lng: 24.2 } }))).toBe("");
    expect(Date.now() - started).toBeLessThan(3000);
    mode = "ok";
    expect(warnings.map((w) => (w.obj as { reason: string }).reason)).toEqual(["HTTP 500", "HTTP 500", "HTTP 500", "no answer within 300 ms"]);
    expect(JSON.stringify(warnings)).not.toContain("k3y");
    // And it recovers: a failure is not remembered.
    expect(text(await h.get("/address", { user, query: { lat: 55.1, lng: 24.1 } }))).toBe(HOUSE.display_name);
  });

  it("answered no request with a 5xx", () => {
    expect(h.serverErrors, h.serverErrors.join("\n\n")).toEqual([]);
  });
});

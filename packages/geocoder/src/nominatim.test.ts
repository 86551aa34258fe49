import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGeocoder } from "./create.js";
import { createNominatimGeocoder } from "./nominatim.js";
import type { GeocoderLogger } from "./port.js";

/*
 * The Nominatim adapter against a real HTTP server speaking Nominatim's jsonv2 format. The
 * server counts what it is asked, so the cache is seen from outside; a test picks how it
 * answers by the path's first segment (/ok, /fail, /slow, /garbage...).
 */

interface Asked {
  path: string;
  query: URLSearchParams;
  userAgent: string | undefined;
}

/** A reverse answer as Nominatim 4 writes it (a house in Vilnius old town). */
const HOUSE = {
  place_id: 123456789,
  licence: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
  osm_type: "way",
  osm_id: 44332211,
  lat: "54.6812345",
  lon: "25.2871234",
  category: "building",
  type: "apartments",
  place_rank: 30,
  importance: 0.00001,
  addresstype: "building",
  name: "",
  display_name: "12, Pilies gatvė, Senamiestis, Vilnius, Vilniaus miesto savivaldybė, Vilnius County, 01123, Lithuania",
  address: {
    house_number: "12",
    road: "Pilies gatvė",
    suburb: "Senamiestis",
    city: "Vilnius",
    municipality: "Vilniaus miesto savivaldybė",
    state: "Vilnius County",
    "ISO3166-2-lvl4": "LT-VL",
    postcode: "01123",
    country: "Lithuania",
    country_code: "lt",
  },
  boundingbox: ["54.6811", "54.6813", "25.2870", "25.2872"],
};

/** Search answers: towns whose address says `town` or `village` rather than `city`. */
const TOWNS = [
  { place_id: 1001, lat: "54.6378", lon: "24.9343", type: "town", addresstype: "town", display_name: "Trakai, Trakų rajono savivaldybė, Vilnius County, Lithuania", address: { town: "Trakai", state: "Vilnius County", country: "Lithuania", country_code: "lt" } },
  { place_id: 1002, lat: "54.6500", lon: "24.9900", type: "village", addresstype: "village", display_name: "Lentvaris, Vilnius County, Lithuania", address: { village: "Lentvaris", state: "Vilnius County", country: "Lithuania", country_code: "lt" } },
  { place_id: 1003, lat: "55.0", lon: "25.0", type: "hamlet", addresstype: "hamlet", display_name: "Somewhere, Lithuania", address: { hamlet: "Somewhere", country: "Lithuania", country_code: "lt" } },
];

function recordingLogger(): GeocoderLogger & { lines: { level: string; obj: object; msg?: string }[] } {
  const lines: { level: string; obj: object; msg?: string }[] = [];
  return { lines, info: (obj, msg) => lines.push({ level: "info", obj, msg }), warn: (obj, msg) => lines.push({ level: "warn", obj, msg }) };
}

describe("the Nominatim geocoder", () => {
  let server: Server;
  let base: string;
  const asked: Asked[] = [];
  /** Whether /flaky answers (else 503). */
  let flakyUp = false;
  /** Held requests of /slow, released at the end. */
  const held = new Set<() => void>();

  function answer(req: IncomingMessage, write: (status: number, body: string) => void) {
    const url = new URL(req.url ?? "/", "http://x");
    asked.push({ path: url.pathname, query: url.searchParams, userAgent: req.headers["user-agent"] });
    const [mode, endpoint] = url.pathname.split("/").filter(Boolean).slice(-2) as [string, string];
    if (mode === "fail") return write(500, JSON.stringify({ error: "internal" }));
    if (mode === "garbage") return write(200, "<html>not json</html>");
    if (mode === "odd") return write(200, JSON.stringify({ hello: "world" }));
    if (mode === "slow") return held.add(() => write(200, JSON.stringify(HOUSE)));
    if (mode === "flaky") return flakyUp ? write(200, JSON.stringify(HOUSE)) : write(503, "{}");
    if (endpoint === "reverse") return url.searchParams.get("lat") === "0.0000" ? write(200, JSON.stringify({ error: "Unable to geocode" })) : write(200, JSON.stringify(HOUSE));
    if (endpoint === "search") {
      const limit = Number(url.searchParams.get("limit") ?? 10);
      return write(200, JSON.stringify(url.searchParams.get("q") === "nowhere at all" ? [] : TOWNS.slice(0, limit)));
    }
    write(404, "{}");
  }

  beforeAll(async () => {
    server = createServer((req, res) => answer(req, (status, body) => res.writeHead(status, { "content-type": "application/json" }).end(body)));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const release of held) release();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    asked.length = 0;
  });

  const geocoder = (path: string, logger = recordingLogger(), timeoutMs = 2000) => createNominatimGeocoder({ url: `${base}${path}`, timeoutMs, logger });

  it("reads a reverse answer into a place, asking jsonv2 with address details at the point rounded to about 10 m", async () => {
    const g = geocoder("/ok");
    expect(g.kind).toBe("nominatim");
    expect(await g.reverse({ lat: 54.681234567, lng: 25.287123456 })).toEqual({
      id: "123456789",
      placeId: 123456789,
      lat: 54.6812345,
      lng: 25.2871234,
      address: HOUSE.display_name,
      country: "Lithuania",
      countryCode: "LT",
      state: "Vilnius County",
      city: "Vilnius",
      road: "Pilies gatvė",
      house: "12",
      zip: "01123",
      type: "building",
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.path).toBe("/ok/reverse");
    expect(Object.fromEntries(asked[0]!.query)).toEqual({ format: "jsonv2", addressdetails: "1", lat: "54.6812", lon: "25.2871" });
    expect(asked[0]!.userAgent).toMatch(/fleet/);
  });

  it("answers a repeated point, or one within the rounding, from its cache, and another point with a new request", async () => {
    const g = geocoder("/ok");
    await g.reverse({ lat: 54.7, lng: 25.3 });
    await g.reverse({ lat: 54.70001, lng: 25.29998 });
    await g.reverse({ lat: 54.7, lng: 25.3 });
    expect(asked).toHaveLength(1);
    await g.reverse({ lat: 54.71, lng: 25.3 });
    expect(asked).toHaveLength(2);
    // Lookups of one point at once share one request.
    await Promise.all([g.reverse({ lat: 1, lng: 2 }), g.reverse({ lat: 1, lng: 2 }), g.reverse({ lat: 1.00001, lng: 2 })]);
    expect(asked).toHaveLength(3);
  });

  it("answers null where Nominatim knows no place, and remembers that too", async () => {
    const log = recordingLogger();
    const g = geocoder("/ok", log);
    expect(await g.reverse({ lat: 0, lng: -140 })).toBeNull();
    expect(await g.reverse({ lat: 0, lng: -140 })).toBeNull();
    expect(asked).toHaveLength(1);
    expect(log.lines).toEqual([]);
    // A point off the globe is never asked about.
    expect(await g.reverse({ lat: 91, lng: 0 })).toBeNull();
    expect(await g.reverse({ lat: Number.NaN, lng: 0 })).toBeNull();
    expect(asked).toHaveLength(1);
  });

  it("searches by text: the best match, or a list for autocomplete, town and village read as the city", async () => {
    const g = geocoder("/ok");
    const best = await g.search("  Trakai   Castle ");
    expect(best).toMatchObject({ id: "1001", placeId: 1001, lat: 54.6378, lng: 24.9343, city: "Trakai", state: "Vilnius County", countryCode: "LT", road: "", house: "", zip: "", type: "town" });
    expect(Object.fromEntries(asked[0]!.query)).toEqual({ format: "jsonv2", addressdetails: "1", q: "trakai castle", limit: "1" });
    const list = await g.autocomplete("tra", 3);
    expect(list.map((p) => p.city)).toEqual(["Trakai", "Lentvaris", "Somewhere"]);
    expect(asked[1]!.query.get("limit")).toBe("3");
    // The same text differently written is the same search; a blank one asks nothing.
    expect(await g.search("TRAKAI castle")).toEqual(best);
    expect(await g.search("   ")).toBeNull();
    expect(await g.autocomplete("")).toEqual([]);
    expect(asked).toHaveLength(2);
    expect(await g.search("nowhere at all")).toBeNull();
    expect(await g.autocomplete("nowhere at all", 5)).toEqual([]);
  });

  it("answers null on a 500, logs the reason once, and asks again next time (failures are not cached)", async () => {
    const log = recordingLogger();
    const g = geocoder("/fail", log);
    expect(await g.reverse({ lat: 54.7, lng: 25.3 })).toBeNull();
    expect(log.lines).toEqual([{ level: "warn", obj: expect.objectContaining({ geocoder: "nominatim", reason: "HTTP 500", lookup: "reverse" }), msg: expect.stringContaining("left empty") }]);
    expect(await g.reverse({ lat: 54.7, lng: 25.3 })).toBeNull();
    expect(asked).toHaveLength(2);
    expect(log.lines).toHaveLength(2);
    expect(await g.search("Vilnius")).toBeNull();
    expect(await g.autocomplete("Vil")).toEqual([]);
  });

  it("gives up on a server slower than its timeout, with null and the reason", async () => {
    const log = recordingLogger();
    const g = geocoder("/slow", log, 300);
    const started = Date.now();
    expect(await g.reverse({ lat: 54.7, lng: 25.3 })).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(log.lines.map((l) => (l.obj as { reason: string }).reason)).toEqual(["no answer within 300 ms"]);
  });

  it("stops asking a server that failed five lookups in a row, logging that once, and asks again once a trial after the cool-down succeeds", async () => {
    const log = recordingLogger();
    flakyUp = false;
    const g = createNominatimGeocoder({ url: `${base}/flaky`, timeoutMs: 2000, breaker: { coolDownMs: 300 }, logger: log });
    for (let i = 1; i <= 5; i++) expect(await g.reverse({ lat: i, lng: 0 })).toBeNull();
    expect(asked).toHaveLength(5);
    for (let i = 6; i <= 20; i++) expect(await g.reverse({ lat: i, lng: 0 })).toBeNull();
    expect(await g.search("Vilnius")).toBeNull();
    expect(asked).toHaveLength(5);
    expect(log.lines.map((l) => l.msg)).toEqual([...Array(5).fill(expect.stringContaining("lookup failed")), expect.stringContaining("keeps failing")]);
    expect(log.lines[5]!.obj).toMatchObject({ failedInARow: 5, coolDownMs: 300 });

    // After the cool-down one trial asks; failing, it holds lookups off for another cool-down.
    await new Promise((r) => setTimeout(r, 350));
    expect(await g.reverse({ lat: 21, lng: 0 })).toBeNull();
    expect(await g.reverse({ lat: 22, lng: 0 })).toBeNull();
    expect(asked).toHaveLength(6);

    flakyUp = true;
    await new Promise((r) => setTimeout(r, 350));
    expect(await g.reverse({ lat: 23, lng: 0 })).toMatchObject({ city: "Vilnius" });
    expect(log.lines.at(-1)).toMatchObject({ level: "info", msg: expect.stringContaining("answers again") });
    expect(await g.reverse({ lat: 24, lng: 0 })).toMatchObject({ city: "Vilnius" });
    expect(asked).toHaveLength(8);
  });

  it("costs one round of timeouts, not one per address, when the server hangs", async () => {
    const log = recordingLogger();
    const g = createNominatimGeocoder({ url: `${base}/slow`, timeoutMs: 200, breaker: { failures: 2 }, logger: log });
    await Promise.all([g.reverse({ lat: 1, lng: 1 }), g.reverse({ lat: 2, lng: 2 })]);
    const started = Date.now();
    const rest = await Promise.all(Array.from({ length: 20 }, (_, i) => g.reverse({ lat: 10 + i, lng: 0 })));
    expect(rest.every((p) => p === null)).toBe(true);
    // Twenty lookups each waiting out their timeout would take 4 s; held off, they take none.
    expect(Date.now() - started).toBeLessThan(150);
    expect(asked).toHaveLength(2);
  });

  it("answers null for a body that is not JSON, or not Nominatim's format", async () => {
    const log = recordingLogger();
    expect(await geocoder("/garbage", log).reverse({ lat: 54.7, lng: 25.3 })).toBeNull();
    expect(await geocoder("/odd", log).search("Vilnius")).toBeNull();
    expect(log.lines.map((l) => (l.obj as { reason: string }).reason)).toEqual(["the answer is not JSON", "the answer is not Nominatim's jsonv2 format"]);
  });

  it("answers null when nothing listens, naming the error", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const log = recordingLogger();
    expect(await createNominatimGeocoder({ url: `http://127.0.0.1:${port}`, logger: log }).reverse({ lat: 54.7, lng: 25.3 })).toBeNull();
    expect((log.lines[0]!.obj as { reason: string }).reason).toBe("the request failed: ECONNREFUSED");
  });

  it("keeps a base path and a key in GEOCODER_URL's query, and never logs the key", async () => {
    const log = recordingLogger();
    const g = createGeocoder({ url: `${base}/fail/?key=s3cr3t-key`, logger: log });
    expect(g.kind).toBe("nominatim");
    await g.reverse({ lat: 54.7, lng: 25.3 });
    expect(asked[0]!.path).toBe("/fail/reverse");
    expect(asked[0]!.query.get("key")).toBe("s3cr3t-key");
    expect(log.lines.map((l) => l.level)).toEqual(["info", "warn"]);
    expect(log.lines.map((l) => (l.obj as { endpoint: string }).endpoint)).toEqual([`${new URL(base).host}/fail`, `${new URL(base).host}/fail`]);
    expect(JSON.stringify(log.lines)).not.toContain("s3cr3t");
  });

  it("bounds its cache: the least recently used point is asked again", async () => {
    const g = createNominatimGeocoder({ url: `${base}/ok`, cacheSize: 2, logger: recordingLogger() });
    for (const lat of [1, 2, 1, 3, 1, 2]) await g.reverse({ lat, lng: 0 });
    // 1, 2 asked; 1 hit; 3 asked (2 dropped); 1 hit; 2 asked again.
    expect(asked.map((a) => a.query.get("lat"))).toEqual(["1.0000", "2.0000", "3.0000", "2.0000"]);
  });

  it("refuses a URL that is not http(s) at creation, so the process does not start with it", () => {
    expect(() => createGeocoder({ url: "ftp://geo.example.com", logger: recordingLogger() })).toThrow(/http/);
    expect(() => createGeocoder({ url: "not a url", logger: recordingLogger() })).toThrow();
  });
});

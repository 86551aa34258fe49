import { gpx, kml } from "@tmcw/togeojson";
import { DOMParser } from "@xmldom/xmldom";
import { parse } from "csv-parse/sync";
import { expect, it } from "vitest";
import { EditSetupResponseSchema, type HistoryRow } from "@fleet/contracts";
import { rangeChunks } from "../src/domain/history-export.js";
import { describeApi, failure, invalid, ok, type ApiHarness, type TestUser } from "./fixture.js";

/*
 * export_history: the files are read back by the parsers other programs use (togeojson over
 * xmldom for GPX and KML, as a map viewer would; csv-parse as a spreadsheet would), and must
 * hold the stored points and times.
 */

const T0 = Date.UTC(2026, 0, 15, 8, 0, 0);
const DAY = { from_date: "2026-01-15", from_time: "00:00", to_date: "2026-01-15", to_time: "23:59:59" };
const TZ_PLUS_1 = 61;
/** km per degree of latitude on the sphere @fleet/geo measures with. */
const KM_PER_DEGREE_LAT = (6371.0088 * Math.PI) / 180;

let nextId = 1;
function fix(deviceId: number, i: number, overrides: Partial<HistoryRow> = {}): HistoryRow {
  const fixTime = T0 + i * 5000;
  return {
    id: 5_000_000 + nextId++,
    deviceId,
    uniqueId: `imei-${deviceId}`,
    protocol: "osmand",
    latitude: 54.6872 + i / 100_000,
    longitude: 25.2797 - i / 200_000,
    altitude: 100 + (i % 7),
    course: 90,
    speedKmh: 36,
    distanceKm: 0.05,
    fixTime,
    serverTime: fixTime + 1000,
    valid: true,
    engineOn: true,
    attributes: {},
    ...overrides,
  };
}

function exportFile(h: ApiHarness, user: TestUser, deviceId: number, format: string, query: Record<string, string> = {}) {
  return h.get("/export_history", { user, query: { device_id: deviceId, ...DAY, format, ...query } });
}

type Track = { coordinates: number[][]; times: string[]; name?: string };

/** The lines of a GeoJSON collection (as togeojson gives GPX tracks and KML gx:Tracks), joined in order; a point repeated where one line meets the next is kept once. */
function tracks(collection: { features: { geometry: { type: string; coordinates: unknown } | null; properties: Record<string, unknown> | null }[] }): Track {
  const out: Track = { coordinates: [], times: [] };
  for (const f of collection.features) {
    expect(f.geometry?.type).toBe("LineString");
    const coords = f.geometry!.coordinates as number[][];
    const times = (f.properties!.coordinateProperties as { times: string[] }).times;
    const skip = out.times.length > 0 && out.times.at(-1) === times[0] ? 1 : 0;
    out.coordinates.push(...coords.slice(skip));
    out.times.push(...times.slice(skip));
    out.name ??= f.properties!.name as string;
  }
  return out;
}

/** xmldom's document, typed as togeojson takes a DOM one (the project compiles without the DOM lib). */
const xmlDoc = (text: string) => new DOMParser().parseFromString(text, "text/xml") as unknown as Parameters<typeof gpx>[0];

describeApi("export_history", (h) => {
  it("writes a GPX track that a GPX reader reads back with every point and time", async () => {
    const user = await h.newUser();
    const name = `Van <7> & "Co"`;
    const device = await h.addDevice(user, { name });
    const rows = Array.from({ length: 30 }, (_, i) => fix(device, i));
    await h.history.insert([...rows].reverse());
    const res = await exportFile(h, user, device, "gpx");
    expect(res.status, res.text).toBe(200);
    expect(res.headers["content-type"]).toBe("application/gpx+xml");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="device-${device}_2026-01-15_2026-01-15.gpx"`);
    const track = tracks(gpx(xmlDoc(res.text)));
    expect(track.name).toBe(name);
    expect(track.coordinates).toEqual(rows.map((r) => [r.longitude, r.latitude, r.altitude]));
    expect(track.times).toEqual(rows.map((r) => new Date(r.fixTime).toISOString()));
  });

  it("writes KML that Google Earth's format readers take: gx:Tracks joined end to end, across read chunks", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    // Over one read chunk (5,000 rows) and several read windows, so the file holds more than one gx:Track.
    const rows = Array.from({ length: 5200 }, (_, i) => fix(device, i));
    await h.history.insert(rows);
    const res = await exportFile(h, user, device, "kml");
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.headers["content-type"]).toBe("application/vnd.google-earth.kml+xml");
    // One track for the device (a viewer lists one), made of a gx:Track per read chunk.
    const [placemark, ...more] = kml(xmlDoc(res.text)).features;
    expect(more).toEqual([]);
    const geometry = placemark!.geometry as { type: string; geometries: { coordinates: number[][] }[] };
    expect(geometry.type).toBe("GeometryCollection");
    expect(geometry.geometries.length).toBeGreaterThan(1);
    const times = (placemark!.properties!.coordinateProperties as { times: string[][] }).times;
    const track = tracks({ features: geometry.geometries.map((g, i) => ({ geometry: { type: "LineString", coordinates: g.coordinates }, properties: { name: placemark!.properties!.name, coordinateProperties: { times: times[i]! } } })) });
    expect(track.coordinates).toEqual(rows.map((r) => [r.longitude, r.latitude, r.altitude]));
    expect(track.times).toEqual(rows.map((r) => new Date(r.fixTime).toISOString()));
  });

  it("writes CSV a spreadsheet reads: the user's clock and units, text that looks like a formula defused", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    ok(await h.post("/edit_setup", { user, body: { unit_of_distance: "mi", unit_of_capacity: "lt", unit_of_altitude: "ft", timezone_id: TZ_PLUS_1, groups: [], sms_gateway: 0 } }), EditSetupResponseSchema);
    const rows = [
      // A mile due south of the next, a minute before it: the next row's step is a mile.
      fix(device, 0, { fixTime: T0 - 60_000, latitude: 54.6872 - 1.609344 / KM_PER_DEGREE_LAT, longitude: 25.2797 }),
      fix(device, 0, { speedKmh: 100, altitude: 100, distanceKm: 0.05, attributes: { note: 'a "quoted", text', ignition: true } }),
      fix(device, 1, { protocol: "=HYPERLINK(\"http://x\")", latitude: -0.0000001 }),
    ];
    await h.history.insert(rows);
    const res = await exportFile(h, user, device, "csv");
    expect(res.status, res.text).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const records = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(records).toEqual([
      expect.objectContaining({ time: "2026-01-15 08:59:00", "distance (mi)": "0" }),
      {
        time: "2026-01-15 09:00:00",
        time_utc: "2026-01-15T08:00:00.000Z",
        latitude: "54.6872",
        longitude: "25.2797",
        "altitude (ft)": "328.1",
        "speed (mph)": "62.1",
        course: "90",
        "distance (mi)": "1",
        valid: "1",
        protocol: "osmand",
        attributes: JSON.stringify({ note: 'a "quoted", text', ignition: true }),
      },
      expect.objectContaining({ time: "2026-01-15 09:00:05", latitude: "-0.0000001", protocol: "'=HYPERLINK(\"http://x\")" }),
    ]);
  });

  it("writes each row's step as get_history measures the track, across chunks: a late row and GPS spikes add nothing", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    // Five hours of a fix a minute (read in windows of one, two and four hours), heading north, with
    // spikes 33 km off the road at the last fix of the first window, mid-window and at the first of the third.
    const spikes = new Set([59, 100, 180]);
    const rows = Array.from({ length: 300 }, (_, i) => fix(device, 0, { fixTime: T0 + i * 60_000, latitude: spikes.has(i) ? 55 : 54.6872 + i / 10_000, longitude: 25.2797 }));
    await h.history.insert([...rows.slice(0, 120), ...rows.slice(121), rows[120]!]);
    const res = await exportFile(h, user, device, "csv");
    const records = parse(res.text, { columns: true }) as Record<string, string>[];
    const steps = records.map((r) => Number(r["distance (km)"]));
    expect(steps).toHaveLength(300);
    expect([...spikes].map((i) => steps[i])).toEqual([0, 0, 0]);
    const grouped = (await h.get("/get_history", { user, query: { device_id: device, ...DAY } })).body as { distance_sum: string };
    const summed = steps.reduce((a, b) => a + b, 0);
    expect(summed).toBeCloseTo(299 * (0.0001 * KM_PER_DEGREE_LAT), 3);
    expect(grouped.distance_sum).toBe(`${summed.toFixed(2)} km`);
  });

  it("reads a long range a chunk at a time by the primary key, ties on one fix time included", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    // Seven fixes, five of them at the same millisecond: chunks of two must still give each once.
    const rows = [fix(device, 0), ...[1, 2, 3, 4, 5].map(() => fix(device, 1)), fix(device, 2)];
    await h.history.insert(rows);
    const seen: number[][] = [];
    for await (const chunk of rangeChunks(h.history, { deviceId: device, fromMs: T0, toMs: T0 + 60_000 }, 2)) seen.push(chunk.map((r) => r.id));
    expect(seen.flat()).toEqual([...rows].sort((a, b) => a.fixTime - b.fixTime || a.id - b.id).map((r) => r.id));
    expect(seen.every((c) => c.length <= 2)).toBe(true);
  });

  it("writes an empty period as an empty but valid file", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    for (const format of ["gpx", "kml"] as const) {
      const res = await exportFile(h, user, device, format);
      expect(res.status).toBe(200);
      const parsed = format === "gpx" ? gpx(xmlDoc(res.text)) : kml(xmlDoc(res.text));
      expect(parsed.features.filter((f: { geometry: unknown }) => f.geometry !== null)).toEqual([]);
    }
    expect((await exportFile(h, user, device, "csv")).text.split("\r\n")).toHaveLength(2);
  });

  it("refuses a format it does not write and a bad period, and answers another user's device as a missing one", async () => {
    const [owner, other] = [await h.newUser(), await h.newUser()];
    const device = await h.addDevice(owner);
    await h.history.insert([fix(device, 0)]);
    expect(Object.keys(invalid(await exportFile(h, owner, device, "pdf")))).toEqual(["format"]);
    expect(invalid(await exportFile(h, owner, device, "gpx", { to_date: "2026-03-01" }))).toEqual({ to_date: "The period may not be longer than 31 days." });
    const theirs = await exportFile(h, other, device, "gpx");
    const missing = await exportFile(h, other, 2_000_000_000, "gpx");
    expect(failure(theirs, 404)).toBe("Device not found.");
    expect(theirs.body).toEqual(missing.body);
  });
});

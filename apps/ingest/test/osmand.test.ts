/*
 * Phones sending the OsmAnd protocol to /osmand, in the shapes the apps send: the OsmAnd
 * app's GET, Traccar Client's POST with the fields in the query, its JSON, and a form. What
 * reaches positions.raw is checked field by field; what is refused names the field as sent.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ingestHarness } from "./fixtures/app.js";

const KNOTS_PER_MPS = 1.9438444924406;

describe("the OsmAnd protocol at /osmand", () => {
  let h: Awaited<ReturnType<typeof ingestHarness>>;
  const secondsAgo = (s: number) => Math.floor(Date.now() / 1000) - s;
  beforeEach(async () => {
    h = await ingestHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it("takes the OsmAnd app's GET: epoch seconds, speed in knots, the rest as attributes, and answers 200 with nothing", async () => {
    const t = secondsAgo(60);
    const res = await h.app.inject({ method: "GET", url: `/osmand?id=358240051111110&lat=54.6872&lon=25.2797&timestamp=${t}&hdop=1.2&altitude=120.5&speed=10.8&bearing=271.3&batt=87&charge=true&note=at%20gate` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    const [p] = await h.seen(1);
    expect(p).toMatchObject({
      uniqueId: "358240051111110",
      protocol: "osmand",
      latitude: 54.6872,
      longitude: 25.2797,
      altitude: 120.5,
      speed: 10.8,
      course: 271.3,
      fixTime: t * 1000,
      attributes: { hdop: 1.2, batterylevel: 87, charge: true, note: "at gate" },
    });
  });

  it("takes Traccar Client's POST with the fields in the query, `location=lat,lon`, and times in ms, ISO and `yyyy-MM-dd HH:mm:ss` (UTC)", async () => {
    const ms = Date.now() - 30_000;
    const iso = new Date(Date.now() - 20_000);
    const local = new Date(Date.now() - 10_000);
    const plain = `${local.toISOString().slice(0, 10)} ${local.toISOString().slice(11, 19)}`;
    const urls = [
      `/osmand?id=tc-1&timestamp=${ms}&lat=54.1&lon=25.1&speed=0.0&bearing=0.0&altitude=0.0&accuracy=12.0&batt=89.0`,
      `/osmand?deviceid=tc-2&timestamp=${encodeURIComponent(iso.toISOString())}&location=54.2,25.2`,
      `/osmand?id=tc-3&timestamp=${encodeURIComponent(plain)}&lat=54.3&lon=25.3`,
    ];
    for (const url of urls) {
      const res = await h.app.inject({ method: "POST", url });
      expect(res.statusCode, url).toBe(200);
    }
    const seen = await h.seen(3);
    const byId = new Map(seen.map((p) => [p.uniqueId, p]));
    expect(byId.get("tc-1")).toMatchObject({ fixTime: ms, latitude: 54.1, longitude: 25.1, speed: 0, course: 0, attributes: { accuracy: 12, batterylevel: 89 } });
    expect(byId.get("tc-2")).toMatchObject({ fixTime: iso.getTime(), latitude: 54.2, longitude: 25.2 });
    expect(byId.get("tc-3")).toMatchObject({ fixTime: Math.floor(local.getTime() / 1000) * 1000, latitude: 54.3, longitude: 25.3, speed: 0, course: 0, altitude: 0 });
  });

  it("takes Traccar Client's JSON: speed from m/s, an unknown heading as 0, battery as a percentage, extras as attributes", async () => {
    const time = new Date(Date.now() - 5000);
    const body = {
      device_id: "tc-json",
      location: {
        timestamp: time.toISOString(),
        coords: { latitude: 54.69, longitude: 25.27, accuracy: 4.5, speed: 12.5, heading: -1, altitude: 110 },
        is_moving: true,
        odometer: 1234.5,
        event: "motionchange",
        battery: { level: 0.42, is_charging: false },
        activity: { type: "in_vehicle" },
        extras: { shift: "night" },
      },
    };
    const res = await h.app.inject({ method: "POST", url: "/osmand", payload: body });
    expect(res.statusCode).toBe(200);
    const [p] = await h.seen(1);
    expect(p).toMatchObject({ uniqueId: "tc-json", protocol: "osmand", latitude: 54.69, longitude: 25.27, altitude: 110, course: 0, fixTime: time.getTime() });
    expect(p!.speed).toBeCloseTo(12.5 * KNOTS_PER_MPS, 6);
    expect(p!.attributes).toEqual({ accuracy: 4.5, motion: true, odometer: 1234.5, event: "motionchange", batterylevel: 42, charge: false, activity: "in_vehicle", shift: "night" });
  });

  it("keeps identifiers as sent (a card's leading zeros, an ICCID's 20 digits), an unknown bearing and battery as none, and a padded id trimmed", async () => {
    const res = await h.app.inject({ method: "GET", url: `/osmand?id=%20358240051111111%20&lat=54.6&lon=25.2&timestamp=${secondsAgo(30)}&bearing=-1&driverUniqueId=00042&rfid=000777&iccid=89014103211118510720&io1=007&temp=21.50&level=3` });
    expect(res.statusCode).toBe(200);
    const [p] = await h.seen(1);
    expect(p).toMatchObject({ uniqueId: "358240051111111", course: 0 });
    expect(p!.attributes).toEqual({ driveruniqueid: "00042", rfid: "000777", iccid: "89014103211118510720", io1: "007", temp: 21.5, level: 3 });

    const json = await h.app.inject({ method: "POST", url: "/osmand", payload: { device_id: "tc-unknown", location: { timestamp: new Date().toISOString(), coords: { latitude: 54.6, longitude: 25.2 }, battery: { level: -1, is_charging: false } } } });
    expect(json.statusCode).toBe(200);
    expect((await h.seen(2))[1]!.attributes).toEqual({ charge: false });
  });

  it("takes a form POST", async () => {
    const res = await h.app.inject({ method: "POST", url: "/osmand", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: `id=form-1&lat=54.5&lon=25.5&timestamp=${secondsAgo(5)}&speed=3` });
    expect(res.statusCode).toBe(200);
    expect((await h.seen(1))[0]).toMatchObject({ uniqueId: "form-1", latitude: 54.5, longitude: 25.5, speed: 3 });
  });

  it("reads a POST body without a Content-Type as a form, as Traccar does (device firmware often sends none)", async () => {
    const res = await h.app.inject({ method: "POST", url: "/osmand", payload: `id=untyped-1&lat=54.5&lon=25.5&timestamp=${secondsAgo(5)}&speed=3` });
    expect(res.statusCode).toBe(200);
    expect((await h.seen(1))[0]).toMatchObject({ uniqueId: "untyped-1", latitude: 54.5, longitude: 25.5, speed: 3 });
  });

  it("refuses what it cannot take, naming the fields as the request named them, and puts nothing on the bus", async () => {
    const cases: [string, Record<string, string>][] = [
      [`/osmand?lat=54&lon=25`, { id: "The id field is required." }],
      [`/osmand?id=x&lat=95&lon=25`, { lat: "The lat must be between -90 and 90." }],
      [`/osmand?id=x&lat=54`, { lon: "The lon field is required." }],
      [`/osmand?id=x&lat=0&lon=0`, { lat: "The position has no location: lat and lon are both 0." }],
      [`/osmand?id=x&lat=54&lon=25&timestamp=yesterday`, { timestamp: "The timestamp must be a number." }],
      [`/osmand?id=x&lat=54&lon=25&timestamp=${secondsAgo(-3 * 86400)}`, { timestamp: "The timestamp may not be more than 24 hours in the future." }],
      [`/osmand?id=x&lat=54&lon=25&bearing=400`, { bearing: "The bearing must be between 0 and 360." }],
      [`/osmand?id=x%00y&lat=54&lon=25`, { id: "The id contains control characters or invalid Unicode." }],
      [`/osmand?id=x&lat=54&lon=25&note=a%00b`, { "attributes.note": "The attribute note contains control characters or invalid Unicode." }],
    ];
    for (const [url, errors] of cases) {
      const res = await h.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(422);
      expect(res.json(), url).toEqual({ status: 0, errors });
    }
    // Traccar Client's JSON without a location object: the location is what is wrong, not a missing id.
    for (const location of [null, [54, 25], "54,25", undefined]) {
      const res = await h.app.inject({ method: "POST", url: "/osmand", headers: { "content-type": "application/json" }, payload: JSON.stringify({ device_id: "tc-json", location }) });
      expect(res.statusCode, JSON.stringify(location)).toBe(422);
      expect(res.json()).toEqual({ status: 0, errors: { location: "The location must be an object with coords, as Traccar Client sends it." } });
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(h.received).toEqual([]);
  });
});

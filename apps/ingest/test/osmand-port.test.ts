/*
 * The OsmAnd port (OSMAND_PORT) as a phone set up for a Traccar server meets it: its server URL
 * is `http://host:port` with no path, so the fixes come to the root, over real HTTP.
 */
import { gzipSync } from "node:zlib";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryBus, type Bus } from "@fleet/bus";
import { startOsmandServer, type OsmandServer } from "../src/osmand-server.js";
import { createPublisher, type Publisher } from "../src/publisher.js";
import { recordRawPositions } from "./fixtures/recording.js";

describe("the OsmAnd protocol on a port of its own", () => {
  let bus: Bus;
  let publisher: Publisher;
  let recording: Awaited<ReturnType<typeof recordRawPositions>>;
  let server: OsmandServer;
  const now = () => Math.floor(Date.now() / 1000);

  beforeEach(async () => {
    bus = createMemoryBus();
    recording = await recordRawPositions(bus);
    publisher = createPublisher({ producer: await bus.producer(), batchMax: 100, lingerMs: 1, sendTimeoutMs: 300 });
    server = await startOsmandServer({ logger: pino({ level: "silent" }), publisher, host: "127.0.0.1", port: 0 });
  });
  afterEach(async () => {
    await server.close();
    await publisher.close();
    await recording.close();
    await bus.close();
  });

  it("takes the OsmAnd app's GET and Traccar Client's query POST and JSON at the root, and at /osmand", async () => {
    const t = now() - 30;
    const get = await fetch(`${server.url}/?id=root-get&lat=54.6872&lon=25.2797&timestamp=${t}&speed=10`);
    expect(get.status).toBe(200);
    expect(await get.text()).toBe("");
    const queryPost = await fetch(`${server.url}/?id=root-post&lat=54.1&lon=25.1&timestamp=${t}`, { method: "POST" });
    expect(queryPost.status).toBe(200);
    const json = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ device_id: "root-json", location: { timestamp: new Date(t * 1000).toISOString(), coords: { latitude: 54.2, longitude: 25.2, speed: 1, heading: 90 } } }),
    });
    expect(json.status).toBe(200);
    const path = await fetch(`${server.url}/osmand?id=path-get&lat=54.3&lon=25.3&timestamp=${t}`);
    expect(path.status).toBe(200);

    const seen = await recording.seen(4);
    const byId = new Map(seen.map((p) => [p.uniqueId, p]));
    expect([...byId.keys()].sort()).toEqual(["path-get", "root-get", "root-json", "root-post"]);
    expect(byId.get("root-get")).toMatchObject({ protocol: "osmand", latitude: 54.6872, longitude: 25.2797, speed: 10, fixTime: t * 1000 });
    expect(byId.get("root-post")).toMatchObject({ latitude: 54.1, longitude: 25.1 });
    expect(byId.get("root-json")).toMatchObject({ latitude: 54.2, longitude: 25.2, course: 90 });
  });

  it("reads a body sent compressed, as ingest's own port does", async () => {
    const t = now() - 10;
    const body = gzipSync(JSON.stringify({ device_id: "root-gzip", location: { timestamp: new Date(t * 1000).toISOString(), coords: { latitude: 54.4, longitude: 25.4 } } }));
    const res = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", "content-encoding": "gzip" }, body });
    expect(res.status).toBe(200);
    expect((await recording.seen(1))[0]).toMatchObject({ uniqueId: "root-gzip", latitude: 54.4, longitude: 25.4 });
  });

  it("refuses a bad fix at the root in the failure shape, and answers nothing but the OsmAnd protocol", async () => {
    const bad = await fetch(`${server.url}/?id=x&lat=95&lon=25`);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ status: 0, errors: { lat: "The lat must be between -90 and 90." } });
    const insert = await fetch(`${server.url}/insert.php?uniqueId=123456789012345&latitude=54&longitude=25&fixTime=${now() * 1000}`);
    expect(insert.status).toBe(404);
    expect(await insert.json()).toEqual({ status: 0, error: "No route GET /insert.php." });
    await new Promise((r) => setTimeout(r, 50));
    expect(recording.received).toEqual([]);
  });
});

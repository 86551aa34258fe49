import { deflateSync, gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BusProducer } from "@fleet/bus";
import { ingestHarness } from "./fixtures/app.js";
import { forbiddenTextCases, formAttributesBody, specArrayJson, traccarForwardJson, traccarForwardQuery, validFields } from "./fixtures/requests.js";

const fresh = (fields: Record<string, string>) => ({ ...fields, fixTime: String(Date.now() - 1000) });

describe("ingest over HTTP", () => {
  let h: Awaited<ReturnType<typeof ingestHarness>>;
  beforeEach(async () => {
    h = await ingestHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it("accepts a Traccar forward GET and puts it on positions.raw keyed by uniqueId, with id and serverTime", async () => {
    const query = traccarForwardQuery.replace("fixTime=1732190400000", `fixTime=${Date.now() - 5000}`);
    const before = Date.now();
    const res = await h.app.inject({ method: "GET", url: `/insert.php?${query}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1 });
    const [p] = await h.seen(1);
    expect(p).toMatchObject({ uniqueId: "864895030279582", protocol: "teltonika", speed: 27, attributes: { ignition: true, battery_level: 98, rfid: "0012345678" } });
    expect(p!.serverTime).toBeGreaterThanOrEqual(before);
    expect(p!.id).toBeGreaterThan(0);
  });

  it("answers at the vendor Swagger's other addresses of insert.php too: /insert.php2 and both under /api", async () => {
    const paths = ["/insert.php2", "/api/insert.php", "/api/insert.php2"];
    for (const [i, path] of paths.entries()) {
      const res = await h.app.inject({ method: "GET", url: `${path}?uniqueId=alias-${i}&protocol=osmand&latitude=54.6&longitude=25.2&altitude=100&course=0&speed=0&fixTime=${Date.now() - 5000}` });
      expect(res.json(), path).toEqual({ status: 1 });
    }
    const post = await h.app.inject({ method: "POST", url: "/api/insert.php", payload: { uniqueId: "alias-post", protocol: "osmand", latitude: 54.6, longitude: 25.2, altitude: 100, course: 0, speed: 0, fixTime: Date.now() - 5000 } });
    expect(post.json()).toEqual({ status: 1 });
    expect((await h.seen(4)).map((p) => p.uniqueId).sort()).toEqual(["alias-0", "alias-1", "alias-2", "alias-post"]);
  });

  it("accepts the same fields as a form POST and as a JSON POST, and Traccar's JSON forward", async () => {
    const form = formAttributesBody.replace("fixTime=1732190400000", `fixTime=${Date.now()}`);
    const r1 = await h.app.inject({ method: "POST", url: "/insert.php", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: form });
    const r2 = await h.app.inject({ method: "POST", url: "/insert.php", payload: { ...specArrayJson, fixTime: Date.now() } });
    const r3 = await h.app.inject({ method: "POST", url: "/insert.php", payload: traccarForwardJson });
    expect([r1.statusCode, r2.statusCode, r3.statusCode]).toEqual([200, 200, 200]);
    const got = await h.seen(3);
    expect(got.map((p) => p.uniqueId).sort()).toEqual(["359633100458591", "4209917483", "dev-42"]);
    expect(got.find((p) => p.uniqueId === "359633100458591")!.attributes).toEqual({ ignition: "false", fuel_level: "41.5", driver: "Aïsha" });
  });

  it.each([
    ["latitude", { latitude: "91" }],
    ["longitude", { longitude: "abc" }],
    ["speed", { speed: "900" }],
    ["course", { course: "400" }],
    ["uniqueId", { uniqueId: "" }],
    ["fixTime", { fixTime: String(Date.now() + 25 * 3600_000) }],
  ])("answers 422 naming %s and puts nothing on the bus", async (field, patch) => {
    const qs = new URLSearchParams({ ...fresh(validFields), ...patch }).toString();
    const res = await h.app.inject({ method: "GET", url: `/insert.php?${qs}` });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.status).toBe(0);
    expect(Object.keys(body.errors)).toEqual([field]);
    // A valid position sent after it is the first and only one the consumer sees.
    await h.app.inject({ method: "GET", url: `/insert.php?${new URLSearchParams({ ...fresh(validFields), uniqueId: "marker" })}` });
    const got = await h.seen(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(got.map((p) => p.uniqueId)).toEqual(["marker"]);
  });

  it("takes a JSON array batch, accepting valid items and reporting the others by index", async () => {
    const items = [fresh(validFields), { ...fresh(validFields), latitude: "100" }, { ...fresh(validFields), uniqueId: "b" }, "not an object"];
    const res = await h.app.inject({ method: "POST", url: "/insert", payload: items });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe(1);
    expect(body.accepted).toBe(2);
    expect(body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 3]);
    expect(body.rejected[0].errors).toHaveProperty("latitude");
    expect((await h.seen(2)).length).toBe(2);
  });

  const forbidden = [...forbiddenTextCases("NUL"), ...forbiddenTextCases("lone surrogate")];

  it("refuses forbidden text in every field of a JSON POST with 422 naming it, publishing nothing", async () => {
    for (const { name, fields, field } of forbidden) {
      const res = await h.app.inject({ method: "POST", url: "/insert.php", payload: fields });
      expect(res.statusCode, name).toBe(422);
      expect(Object.keys(res.json().errors), name).toEqual([field]);
    }
    await new Promise((r) => setTimeout(r, 30));
    expect(h.received).toEqual([]);
  });

  it("rejects positions with forbidden text one by one in a batch, taking the others", async () => {
    // JSON.stringify writes a lone surrogate as the escape \ud800, so it reaches the server as one.
    const payload = JSON.stringify([fresh(validFields), ...forbidden.map((c) => c.fields), { ...fresh(validFields), uniqueId: "b" }]);
    const res = await h.app.inject({ method: "POST", url: "/insert", headers: { "content-type": "application/json" }, payload });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.accepted).toBe(2);
    expect(body.rejected).toEqual(forbidden.map((c, i) => ({ index: i + 1, errors: { [c.field]: expect.stringContaining("control characters") } })));
    expect((await h.seen(2)).map((p) => p.uniqueId).sort()).toEqual(["b", "valid-1"]);
  });

  it("refuses a NUL sent as a form POST field", async () => {
    const form = `${new URLSearchParams(fresh(validFields))}&attributes%5Brfid%5D=zz%00zz`;
    const res = await h.app.inject({ method: "POST", url: "/insert.php", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: form });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ status: 0, errors: { "attributes.rfid": "The attribute rfid contains control characters or invalid Unicode." } });
  });

  it("refuses a uniqueId whose bytes are not UTF-8 with 400 naming it, in a form, a JSON body and Traccar's JSON forward", async () => {
    const error = { status: 0, error: "The uniqueId contains bytes that are not valid UTF-8." };
    const form = new URLSearchParams(fresh(validFields)).toString().replace(/uniqueId=[^&]*/, "uniqueId=%FF%FE35210");
    const r1 = await h.app.inject({ method: "POST", url: "/insert.php", headers: { "content-type": "application/x-www-form-urlencoded" }, payload: form });
    // Raw bytes FF FE inside the JSON text, as a gateway with the wrong encoding sends them.
    const [head, tail] = JSON.stringify({ ...fresh(validFields), uniqueId: "__BAD__" }).split("__BAD__");
    const json = Buffer.concat([Buffer.from(head!), Buffer.from([0xff, 0xfe, 0x33, 0x35]), Buffer.from(tail!)]);
    const r2 = await h.app.inject({ method: "POST", url: "/insert.php", headers: { "content-type": "application/json" }, payload: json });
    const r3 = await h.app.inject({ method: "POST", url: "/insert.php", payload: { ...traccarForwardJson, device: { uniqueId: "35\ufffd\ufffd" } } });
    for (const r of [r1, r2, r3]) expect([r.statusCode, r.json()]).toEqual([400, error]);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.received).toEqual([]);
  });

  it("rejects a position whose uniqueId is not UTF-8 alone in a batch, taking the others", async () => {
    const payload = [fresh(validFields), { ...fresh(validFields), uniqueId: "35\ufffd\ufffd" }];
    const res = await h.app.inject({ method: "POST", url: "/insert", payload });
    expect(res.json()).toEqual({ status: 1, accepted: 1, rejected: [{ index: 1, errors: { uniqueId: "The uniqueId contains bytes that are not valid UTF-8." } }] });
    expect((await h.seen(1)).map((p) => p.uniqueId)).toEqual(["valid-1"]);
  });

  it("takes an NDJSON batch, rejecting a broken line alone", async () => {
    const lines = [JSON.stringify(fresh(validFields)), "{broken", JSON.stringify({ ...fresh(validFields), uniqueId: "n2" })].join("\n");
    const res = await h.app.inject({ method: "POST", url: "/insert", headers: { "content-type": "application/x-ndjson" }, payload: lines });
    expect(res.json()).toMatchObject({ status: 1, accepted: 2, rejected: [{ index: 1, errors: { line: expect.any(String) } }] });
    expect((await h.seen(2)).map((p) => p.uniqueId).sort()).toEqual(["n2", "valid-1"]);
  });

  it("takes a batch sent compressed as a gateway may (gzip NDJSON, deflate JSON), and refuses one it cannot decode", async () => {
    const lines = [JSON.stringify(fresh(validFields)), JSON.stringify({ ...fresh(validFields), uniqueId: "z2" })].join("\n");
    const ndjson = await h.app.inject({ method: "POST", url: "/insert", headers: { "content-type": "application/x-ndjson", "content-encoding": "gzip" }, payload: gzipSync(lines) });
    expect(ndjson.json()).toEqual({ status: 1, accepted: 2, rejected: [] });
    const json = await h.app.inject({ method: "POST", url: "/insert", headers: { "content-type": "application/json", "content-encoding": "deflate" }, payload: deflateSync(JSON.stringify([{ ...fresh(validFields), uniqueId: "z3" }])) });
    expect(json.json()).toEqual({ status: 1, accepted: 1, rejected: [] });
    expect((await h.seen(3)).map((p) => p.uniqueId).sort()).toEqual(["valid-1", "z2", "z3"]);
    const corrupt = await h.app.inject({ method: "POST", url: "/insert", headers: { "content-type": "application/x-ndjson", "content-encoding": "gzip" }, payload: lines });
    expect([corrupt.statusCode, corrupt.json()]).toEqual([400, { status: 0, error: "The body could not be decoded as gzip, as its Content-Encoding says." }]);
    const unknown = await h.app.inject({ method: "POST", url: "/insert", headers: { "content-type": "application/x-ndjson", "content-encoding": "zstd" }, payload: lines });
    expect([unknown.statusCode, unknown.json()]).toEqual([415, { status: 0, error: "The body's Content-Encoding is not one this server reads: send the body as it is, or as gzip, deflate, br." }]);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.received).toHaveLength(3);
  });

  it("refuses a batch over 10,000 positions and a body that is not an array", async () => {
    const many = Array.from({ length: 10_001 }, () => fresh(validFields));
    const big = await h.app.inject({ method: "POST", url: "/insert", payload: many });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ status: 0, error: expect.stringContaining("10000") });
    const obj = await h.app.inject({ method: "POST", url: "/insert", payload: { a: 1 } });
    expect(obj.statusCode).toBe(422);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.received).toEqual([]);
  });

  it("answers GET /health with 200 {status: 1}", async () => {
    const res = await h.app.inject({ method: "GET", url: "/health" });
    expect([res.statusCode, res.json()]).toEqual([200, { status: 1 }]);
  });

  it("answers malformed JSON and unknown routes in the failure shape, never 5xx", async () => {
    const bad = await h.app.inject({ method: "POST", url: "/insert", headers: { "content-type": "application/json" }, payload: "[{" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 0, error: expect.any(String) });
    const missing = await h.app.inject({ method: "GET", url: "/nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().status).toBe(0);
  });
});

describe("ingest when the bus cannot take positions", () => {
  it("answers 503 within the send timeout instead of acknowledging", async () => {
    // A producer that never acknowledges: the position must not be reported as accepted.
    const stuck: BusProducer = { send: () => new Promise<void>(() => undefined), close: async () => undefined };
    const h = await ingestHarness(stuck);
    const res = await h.app.inject({ method: "GET", url: `/insert.php?${new URLSearchParams(fresh(validFields))}` });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 0, error: expect.stringContaining("unavailable") });
    await h.app.close();
  });

  it("answers 503 when the bus rejects the send", async () => {
    const failing: BusProducer = { send: async () => Promise.reject(new Error("NOT_ENOUGH_REPLICAS")), close: async () => undefined };
    const h = await ingestHarness(failing);
    const res = await h.app.inject({ method: "POST", url: "/insert", payload: [fresh(validFields)] });
    expect(res.statusCode).toBe(503);
    expect(res.json().status).toBe(0);
    await h.close();
  });
});

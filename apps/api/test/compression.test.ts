/*
 * Answers compressed for a client that accepts it, as phones and browsers ask, and bodies
 * sent compressed read as if sent plain; what cannot be read is refused in the failure shape
 * and writes nothing.
 */
import { brotliDecompressSync, deflateSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddDeviceDataSchema, GetDevicesResponseSchema } from "@fleet/contracts";
import { ApiHarness, deviceFields, ok, type TestUser } from "./fixture.js";

describe("compression", () => {
  const h = new ApiHarness("pglite");
  let user: TestUser;
  const devices = async () => ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema).flatMap((g) => g.items.map((d) => d.name));
  const query = () => `lang=en&user_api_hash=${user.hash}`;

  beforeAll(async () => {
    await h.open();
    user = await h.newUser();
    for (let i = 0; i < 12; i++) await h.addDevice(user, { name: `Van ${i}`, imei: `86000000000${1000 + i}` });
  });
  afterAll(() => h.close());

  it("compresses an answer of 1 KB or more in the encoding the client accepts, to the same JSON, and none when it accepts none", async () => {
    const plain = await h.get("/get_devices", { user });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.raw.length).toBeGreaterThan(1024);
    const gzip = await h.get("/get_devices", { user, headers: { "accept-encoding": "gzip, deflate" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(String(gzip.headers.vary)).toMatch(/accept-encoding/i);
    expect(gzip.raw.length).toBeLessThan(plain.raw.length / 4);
    expect(JSON.parse(gunzipSync(gzip.raw).toString("utf8"))).toEqual(plain.body);
    const br = await h.get("/get_devices", { user, headers: { "accept-encoding": "br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.raw).toString("utf8"))).toEqual(plain.body);
  });

  it("leaves small answers and images as they are", async () => {
    const small = await h.get("/get_user_data", { user, headers: { "accept-encoding": "gzip" } });
    expect(small.status).toBe(200);
    expect(small.raw.length).toBeLessThan(1024);
    expect(small.headers["content-encoding"]).toBeUndefined();
    const icons = ok(await h.get("/add_device_data", { user }), AddDeviceDataSchema).device_icons;
    const pngs = await Promise.all(icons.map((icon) => h.inject({ method: "GET", url: `/api/${icon.path}`, headers: { "accept-encoding": "gzip" } })));
    const large = pngs.filter((png) => png.status === 200 && png.raw.length > 1024);
    expect(large.length).toBeGreaterThan(0);
    for (const png of large) expect(png.headers["content-encoding"]).toBeUndefined();
  });

  it("reads a body sent as gzip (JSON) or deflate (a form) as if sent plain", async () => {
    const json = await h.inject({
      method: "POST",
      url: `/api/add_device?${query()}`,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      payload: gzipSync(JSON.stringify(deviceFields({ name: "Zipped", imei: "860000000002001" }))),
    });
    expect(json.status, json.text).toBe(200);
    const form = await h.inject({
      method: "POST",
      url: `/api/add_device?${query()}`,
      headers: { "content-type": "application/x-www-form-urlencoded", "content-encoding": "deflate" },
      payload: deflateSync(new URLSearchParams(Object.entries(deviceFields({ name: "Deflated", imei: "860000000002002" })).map(([k, v]): [string, string] => [k, String(v)])).toString()),
    });
    expect(form.status, form.text).toBe(200);
    expect(await devices()).toEqual(expect.arrayContaining(["Zipped", "Deflated"]));
  });

  it("refuses a body it cannot decode, in an encoding it does not read, or past the body limit once decoded, and writes nothing", async () => {
    const before = await devices();
    const body = JSON.stringify(deviceFields({ name: "Never", imei: "860000000002003" }));
    const post = (encoding: string, payload: Buffer | string) =>
      h.inject({ method: "POST", url: `/api/add_device?${query()}`, headers: { "content-type": "application/json", "content-encoding": encoding }, payload });
    const corrupt = await post("gzip", Buffer.from(body));
    expect([corrupt.status, corrupt.body]).toEqual([400, { status: 0, error: "The body could not be decoded as gzip, as its Content-Encoding says." }]);
    const unknown = await post("compress", body);
    expect([unknown.status, unknown.body]).toEqual([415, { status: 0, error: "The body's Content-Encoding is not one this server reads: send the body as it is, or as gzip, deflate, br." }]);
    // 11 MB of JSON that gzip makes a few KB: the 10 MB limit holds for what it decodes to.
    const bomb = await post("gzip", gzipSync(JSON.stringify({ ...deviceFields({ name: "Bomb", imei: "860000000002004" }), padding: " ".repeat(11 * 1024 * 1024) })));
    expect(bomb.status).toBe(413);
    expect(bomb.body).toEqual({ status: 0, error: "Request body is too large" });
    expect(await devices()).toEqual(before);
  });
});

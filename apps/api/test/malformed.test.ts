import { connect, type AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { AddDeviceResponseSchema, LoginResponseSchema } from "@fleet/contracts";
import { countUserDevices } from "@fleet/db";
import { describeApi, deviceFields, failure, invalid, ok } from "./fixture.js";

describeApi("malformed requests", (h) => {
  const json = { "content-type": "application/json" };

  it("answers a body that is not JSON with 400, not 500", async () => {
    const user = await h.newUser();
    for (const payload of ['{"email": "a@example.com", "password": ', "not json", "{'single': 'quotes'}"]) {
      expect(failure(await h.inject({ method: "POST", url: "/api/login", headers: json, payload }), 400)).toBeTruthy();
      failure(await h.inject({ method: "POST", url: `/api/add_device?lang=en&user_api_hash=${user.hash}`, headers: json, payload }), 400);
    }
    // An empty body that claims to be JSON, too.
    failure(await h.inject({ method: "POST", url: "/api/login", headers: json, payload: "" }), 400);
    expect(await countUserDevices(h.db, user.id)).toBe(0);
  });

  it("answers JSON that is not an object with 422", async () => {
    const user = await h.newUser();
    const arrayBody = JSON.stringify([{ email: user.email, password: user.password }]);
    for (const payload of [arrayBody, "null", '"a string"', "42"]) {
      expect(invalid(await h.inject({ method: "POST", url: "/api/login", headers: json, payload })), payload).toBeTruthy();
    }
    invalid(await h.post("/add_device", { user, body: [deviceFields()] }));
    invalid(await h.post("/admin/client", { user: h.admin, body: [] }));
    expect(await countUserDevices(h.db, user.id)).toBe(0);
  });

  it("answers wrong JSON types with 422 naming the field", async () => {
    const user = await h.newUser();
    expect(invalid(await h.post("/login", { body: { email: { $ne: null }, password: "x" } }))).toHaveProperty("email");
    expect(invalid(await h.post("/add_device", { user, body: deviceFields({ name: ["a", "b"], tail_length: { n: 1 } }) }))).toMatchObject({
      name: expect.any(String),
      tail_length: expect.any(String),
    });
  });

  it("answers an unknown route or method with 404 {status: 0, error}", async () => {
    expect(failure(await h.get("/no_such_endpoint", { user: h.admin }), 404)).toContain("/api/no_such_endpoint");
    failure(await h.inject({ method: "GET", url: "/api/login" }), 404);
    failure(await h.inject({ method: "DELETE", url: "/api/get_devices?lang=en" }), 404);
  });

  it("routes a path with a doubled or a trailing slash as the endpoint's own", async () => {
    for (const path of ["/api//get_devices", "/api/get_devices/", "/api//get_devices/"]) {
      const res = await h.inject({ method: "GET", url: path, query: { lang: "en", user_api_hash: h.admin.hash } });
      expect([res.status, Array.isArray(res.body)], path).toEqual([200, true]);
    }
  });

  it("answers a path fastify cannot route in the failure shape, without echoing the URL", async () => {
    const hash = h.admin.hash;
    const badEscape = await h.inject({ method: "GET", url: `/api/devices/%E0%A4%A/media?lang=en&user_api_hash=${hash}` });
    expect([badEscape.status, badEscape.body]).toEqual([400, { status: 0, error: "The URL's path is not valid: a %-escape in it is not UTF-8." }]);
    // A long id is no id, as a short one is: its route's schema says so.
    const long = await h.inject({ method: "GET", url: `/api/devices/${"7".repeat(300)}/media?lang=en&user_api_hash=${hash}` });
    expect([long.status, long.body]).toEqual([422, { status: 0, errors: { device_id: "The device id may not be greater than 2147483647." } }]);
    const tooLong = await h.inject({ method: "GET", url: `/api/devices/${"7".repeat(1001)}/media?lang=en&user_api_hash=${hash}` });
    expect([tooLong.status, tooLong.body]).toEqual([414, { status: 0, error: "A part of the URL's path is longer than 1000 characters." }]);
    for (const res of [badEscape, tooLong]) expect(res.text).not.toContain(hash);
  });

  it("answers what node's HTTP parser refuses (a URL over 16 KB, bytes that are not HTTP) in the failure shape, without echoing the URL", async () => {
    // inject() skips the parser; only a real connection meets it.
    const server = h.app.server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const raw = (request: string) =>
        new Promise<{ head: string; body: unknown }>((resolve, reject) => {
          const socket = connect(port, "127.0.0.1", () => socket.end(request));
          let got = "";
          socket.on("data", (chunk: Buffer) => (got += chunk.toString("utf8")));
          socket.on("close", () => {
            const [head, body] = got.split("\r\n\r\n");
            resolve({ head: head!.split("\r\n")[0]!, body: JSON.parse(body!) as unknown });
          });
          socket.on("error", reject);
        });
      const search = "x".repeat(17 * 1024);
      const long = await raw(`GET /api/get_events?lang=en&user_api_hash=${h.admin.hash}&search=${search} HTTP/1.1\r\nhost: x\r\n\r\n`);
      expect(long).toEqual({ head: "HTTP/1.1 431 Request Header Fields Too Large", body: { status: 0, error: "The request's URL and headers are over 16 KB: send long fields in a POST body." } });
      expect(JSON.stringify(long)).not.toContain(h.admin.hash);
      expect(await raw("not http at all\r\n\r\n")).toEqual({ head: "HTTP/1.1 400 Bad Request", body: { status: 0, error: "The request is not valid HTTP." } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("answers a body type it does not read, text/plain included, with 415 naming the types it reads", async () => {
    const user = await h.newUser();
    const read = "send the body as application/json, application/x-www-form-urlencoded or multipart/form-data.";
    for (const [type, payload] of [
      ["text/plain", `email=${user.email}&password=${user.password}`],
      ["text/plain; charset=utf-8", JSON.stringify({ email: user.email, password: user.password })],
      ["application/xml", "<email/>"],
    ]) {
      const res = await h.inject({ method: "POST", url: "/api/login", headers: { "content-type": type! }, payload });
      expect([res.status, res.body], type).toEqual([415, { status: 0, error: `Unsupported content type ${type!.split(";")[0]}: ${read}` }]);
    }
    const add = await h.inject({ method: "POST", url: `/api/add_device?lang=en&user_api_hash=${user.hash}`, headers: { "content-type": "text/plain" }, payload: "name=x" });
    expect([add.status, add.body]).toEqual([415, { status: 0, error: `Unsupported content type text/plain: ${read}` }]);
    expect(await countUserDevices(h.db, user.id)).toBe(0);
  });

  it("answers broken multipart with a 4xx", async () => {
    const user = await h.newUser();
    const url = `/api/add_device?lang=en&user_api_hash=${user.hash}`;
    const cut = "--XyZ\r\ncontent-disposition: form-data; name=\"name\"\r\n\r\nTruck";
    for (const [contentType, payload] of [
      ["multipart/form-data", "name=x"], // no boundary
      ["multipart/form-data; boundary=", "name=x"], // an empty one
      [`multipart/form-data; boundary=${"b".repeat(300)}`, "name=x"], // longer than any parser takes
      ["multipart/form-data; boundary=XyZ", cut], // cut off before the closing boundary
      ["multipart/form-data; boundary=XyZ", "no parts in here at all"],
    ]) {
      expect(failure(await h.inject({ method: "POST", url, headers: { "content-type": contentType! }, payload }), 400), contentType).toBeTruthy();
    }
    // The same on a route without authentication.
    failure(await h.inject({ method: "POST", url: "/api/login", headers: { "content-type": "multipart/form-data" }, payload: "x" }), 400);
    expect(await countUserDevices(h.db, user.id)).toBe(0);
  });

  it("answers a multipart body over its limits, or with a field named __proto__, saying which limit, storing nothing", async () => {
    const user = await h.newUser();
    const send = async (fill: (form: FormData) => void) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(deviceFields())) form.append(k, String(v));
      fill(form);
      const encoded = new Response(form);
      return h.inject({ method: "POST", url: `/api/add_device?lang=en&user_api_hash=${user.hash}`, headers: { "content-type": encoded.headers.get("content-type")! }, payload: Buffer.from(await encoded.arrayBuffer()) });
    };
    const files = await send((form) => {
      for (let i = 0; i < 6; i++) form.append(`f${i}`, new Blob(["x"]), `f${i}.txt`);
    });
    expect([files.status, files.body]).toEqual([413, { status: 0, error: "The body holds too many files: at most 5." }]);
    const big = await send((form) => form.append("photo", new Blob([Buffer.alloc(5 * 1024 * 1024 + 1)]), "photo.jpg"));
    expect([big.status, big.body]).toEqual([413, { status: 0, error: "A file in the body is too large: at most 5 MB." }]);
    const fields = await send((form) => {
      for (let i = 0; i < 2000; i++) form.append(`x${i}`, "1");
    });
    expect([fields.status, fields.body]).toEqual([413, { status: 0, error: "The body holds too many fields: at most 2000." }]);
    const proto = await send((form) => form.append("__proto__", "x"));
    expect([proto.status, proto.body]).toEqual([400, { status: 0, error: "A field of the body may not be named __proto__ or constructor." }]);
    expect(await countUserDevices(h.db, user.id)).toBe(0);
  });

  it("answers a file where a text field belongs with 422", async () => {
    const user = await h.newUser();
    const form = new FormData();
    for (const [k, v] of Object.entries(deviceFields())) if (k !== "name") form.append(k, String(v));
    form.append("name", new Blob([Buffer.from("binary")], { type: "application/octet-stream" }), "name.bin");
    const encoded = new Response(form);
    const payload = Buffer.from(await encoded.arrayBuffer());
    const res = await h.inject({ method: "POST", url: `/api/add_device?lang=en&user_api_hash=${user.hash}`, headers: { "content-type": encoded.headers.get("content-type")! }, payload });
    expect(invalid(res)).toHaveProperty("name");
  });

  it("refuses bytes that are not UTF-8 in a JSON, form, multipart body or the query, storing nothing", async () => {
    const user = await h.newUser();
    const url = `/api/add_device?lang=en&user_api_hash=${user.hash}`;
    const bad = Buffer.from([0x54, 0x72, 0xff, 0xfe, 0x6b]); // "Tr", two bytes no UTF-8 text has, "k"
    const fields = deviceFields();
    const [head, tail] = JSON.stringify({ ...fields, name: "__BAD__" }).split("__BAD__");
    const jsonBody = Buffer.concat([Buffer.from(head!), bad, Buffer.from(tail!)]);
    expect(failure(await h.inject({ method: "POST", url, headers: json, payload: jsonBody }), 400)).toMatch(/UTF-8/);
    const form = Buffer.concat([Buffer.from(`${new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString()}&plate_number=`), bad]);
    failure(await h.inject({ method: "POST", url, headers: { "content-type": "application/x-www-form-urlencoded" }, payload: form }), 400);
    const boundary = "XyZ";
    const parts = Object.entries({ ...fields, name: "__BAD__" }).map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`).join("");
    const [before, after] = `${parts}--${boundary}--\r\n`.split("__BAD__");
    const multipartBody = Buffer.concat([Buffer.from(before!), bad, Buffer.from(after!)]);
    failure(await h.inject({ method: "POST", url, headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, payload: multipartBody }), 400);
    // Percent-encoded in the query: the query parser keeps an undecodable escape as its
    // literal text, so the value arrives as plain ASCII and is no different from any other.
    const res = await h.inject({ method: "GET", url: `/api/get_devices?lang=en&user_api_hash=${user.hash}&s=%FF%FE` });
    expect(res.status, res.text).toBe(200);
    expect(await countUserDevices(h.db, user.id)).toBe(0);
  });

  it("refuses an imei whose bytes are not UTF-8 with 400 naming it, in every body add_device and edit_device read", async () => {
    const user = await h.newUser();
    const error = { status: 0, error: "The imei contains bytes that are not valid UTF-8." };
    const bad = Buffer.from([0x33, 0x35, 0xff, 0xfe, 0x31]); // "35", two bytes no UTF-8 text has, "1"
    const fields = deviceFields({ imei: "__BAD__" });
    const [jsonHead, jsonTail] = JSON.stringify(fields).split("__BAD__");
    const form = new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const [formHead, formTail] = form.split("__BAD__");
    const parts = Object.entries(fields).map(([k, v]) => `--XyZ\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`).join("");
    const [partsHead, partsTail] = `${parts}--XyZ--\r\n`.split("__BAD__");
    const bodies: [string, Buffer | string][] = [
      ["application/json", Buffer.concat([Buffer.from(jsonHead!), bad, Buffer.from(jsonTail!)])],
      ["application/x-www-form-urlencoded", Buffer.concat([Buffer.from(formHead!), bad, Buffer.from(formTail!)])],
      // Percent-encoded, as a browser or curl --data-urlencode sends those bytes.
      ["application/x-www-form-urlencoded", form.replace("__BAD__", "35%FF%FE1")],
      ["multipart/form-data; boundary=XyZ", Buffer.concat([Buffer.from(partsHead!), bad, Buffer.from(partsTail!)])],
    ];
    for (const [type, payload] of bodies) {
      const res = await h.inject({ method: "POST", url: `/api/add_device?lang=en&user_api_hash=${user.hash}`, headers: { "content-type": type }, payload });
      expect([res.status, res.body], type).toEqual([400, error]);
    }
    expect(await countUserDevices(h.db, user.id)).toBe(0);

    const id = await h.addDevice(user);
    for (const payload of [`device_id=${id}&imei=35%FF%FE1`, Buffer.concat([Buffer.from(`device_id=${id}&imei=`), bad])]) {
      const res = await h.inject({ method: "POST", url: `/api/edit_device?lang=en&user_api_hash=${user.hash}`, headers: { "content-type": "application/x-www-form-urlencoded" }, payload });
      expect([res.status, res.body]).toEqual([400, error]);
    }
    const res = await h.inject({ method: "POST", url: `/api/edit_device?lang=en&user_api_hash=${user.hash}`, headers: json, payload: Buffer.concat([Buffer.from(`{"device_id": ${id}, "imei": "`), bad, Buffer.from('"}')]) });
    expect([res.status, res.body]).toEqual([400, error]);
  });

  it("reads a multipart body's text fields as text, never its file parts", async () => {
    const user = await h.newUser();
    const form = new FormData();
    for (const [k, v] of Object.entries(deviceFields())) form.append(k, String(v));
    // Bytes a text field may not hold: NUL, controls, a UTF-8 encoded surrogate.
    form.append("photo", new Blob([Buffer.from([0x89, 0x00, 0x01, 0x1f, 0xed, 0xa0, 0x80])], { type: "application/octet-stream" }), "photo.bin");
    const encoded = new Response(form);
    const payload = Buffer.from(await encoded.arrayBuffer());
    const res = await h.inject({ method: "POST", url: `/api/add_device?lang=en&user_api_hash=${user.hash}`, headers: { "content-type": encoded.headers.get("content-type")! }, payload });
    ok(res, AddDeviceResponseSchema);
  });

  it("refuses numbers too large to be finite, from a form or from JSON, with 422 naming the field", async () => {
    const user = await h.newUser();
    expect(invalid(await h.post("/add_device", { user, as: "form", body: deviceFields({ fuel_price: "1e400" }) }))).toHaveProperty("fuel_price");
    const payload = JSON.stringify(deviceFields({ min_moving_speed: 1 })).replace('"min_moving_speed":1', '"min_moving_speed":1e400');
    expect(invalid(await h.inject({ method: "POST", url: `/api/add_device?lang=en&user_api_hash=${user.hash}`, headers: json, payload }))).toHaveProperty("min_moving_speed");
    expect(await countUserDevices(h.db, user.id)).toBe(0);
  });

  it("answers a body over the size limit with 413", async () => {
    const payload = JSON.stringify({ email: "a@example.com", password: "x".repeat(11 * 1024 * 1024) });
    failure(await h.inject({ method: "POST", url: "/api/login", headers: json, payload }), 413);
  });

  it("answers a form with 200,000 `id[]` values as too many, not with a 500", async () => {
    const payload = `active=1&${Array.from({ length: 200_000 }, (_, i) => `id[]=${i}`).join("&")}`;
    const res = await h.inject({ method: "POST", url: `/api/change_active_device?lang=en&user_api_hash=${h.admin.hash}`, headers: { "content-type": "application/x-www-form-urlencoded" }, payload });
    expect(invalid(res)).toHaveProperty("id");
  });

  it("treats prototype-polluting and bracketed form keys as plain data", async () => {
    const user = await h.newUser();
    const body = { ...deviceFields(), "__proto__[admin]": "1", "constructor[prototype][x]": "1", "name[]": "ignored" } as Record<string, string>;
    for (const as of ["form", "multipart"] as const) {
      const res = await h.post("/add_device", { user, as, body: { ...body, imei: `${as}${Date.now()}` } });
      // `name[]` becomes an array, which fights `name`: either way a clean 200 or 422.
      expect([200, 422], res.text).toContain(res.status);
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("accepts a login body with extra fields and a charset on the content type", async () => {
    const user = await h.newUser();
    const res = await h.inject({
      method: "POST",
      url: "/api/login",
      headers: { "content-type": "application/json; charset=utf-8" },
      payload: JSON.stringify({ email: user.email, password: user.password, as: "someone", remember: true }),
    });
    expect(ok(res, LoginResponseSchema).user_api_hash).toBe(user.hash);
    // And the authenticated routes answer the same way.
    ok(await h.post("/add_device", { user, body: { ...deviceFields(), unknown_field: 1 } }), AddDeviceResponseSchema);
  });
});

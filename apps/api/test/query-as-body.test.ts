import { expect, it } from "vitest";
import { AddDeviceResponseSchema, LoginResponseSchema } from "@fleet/contracts";
import { countUserDevices } from "@fleet/db";
import { describeApi, deviceFields, invalid, ok } from "./fixture.js";

/** Flat form fields as a query: every value a string, as a URL carries it. */
const asQuery = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));

describeApi("a POST's fields in the query, as Laravel reads them", (h) => {
  it("creates a device posted with every field in the query and no body", async () => {
    const user = await h.newUser();
    const fields = deviceFields();
    const { id } = ok(await h.post("/add_device", { user, query: asQuery(fields) }), AddDeviceResponseSchema);
    const listed = (await h.get("/get_devices", { user })).body as { items: { id: number; name: string; device_data: { imei: string } }[] }[];
    expect(listed.flatMap((g) => g.items).map((d) => [d.id, d.name, d.device_data.imei])).toEqual([[id, fields.name, fields.imei]]);
  });

  it("reads the body's value of a field given in both, and the query's for the rest", async () => {
    const user = await h.newUser();
    const { name, ...rest } = deviceFields();
    await h.post("/add_device", { user, query: asQuery({ ...rest, name: "From the query" }), body: { name } });
    const listed = (await h.get("/get_devices", { user })).body as { items: { name: string }[] }[];
    expect(listed.flatMap((g) => g.items).map((d) => d.name)).toEqual([name]);
  });

  it("validates query fields as the body's: a bad one is a 422 naming it, and nothing is made", async () => {
    const user = await h.newUser();
    expect(invalid(await h.post("/add_device", { user, query: asQuery(deviceFields({ tail_length: "many" })) }))).toHaveProperty("tail_length");
    expect(await countUserDevices(h.db, user.id)).toBe(0);
  });

  it("logs in with the credentials in the query", async () => {
    const user = await h.newUser();
    ok(await h.post("/login", { lang: null, query: { email: user.email, password: user.password } }), LoginResponseSchema);
  });

  it("reads no body at all as an empty form: each missing field is named", async () => {
    const user = await h.newUser();
    const errors = invalid(await h.post("/add_device", { user }));
    expect(Object.keys(errors)).toEqual(expect.arrayContaining(["name", "imei"]));
    expect(errors).not.toHaveProperty("body");
    const device = await h.addDevice(user);
    expect(Object.keys(invalid(await h.post(`/admin/device/${device}/user`, { user: h.admin })))).toEqual(["user_id"]);
  });

  it("still refuses a JSON body that is not an object", async () => {
    const user = await h.newUser();
    expect(invalid(await h.post("/add_device", { user, query: asQuery(deviceFields()), body: [1] }))).toHaveProperty("body");
    expect(await countUserDevices(h.db, user.id)).toBe(0);
  });
});

describeApi("a GET's JSON body, as Laravel reads it", (h) => {
  const json = { "content-type": "application/json" };
  const activeOf = async (user: { hash: string }) => {
    const groups = (await h.get("/get_devices", { user })).body as { items: { id: number; device_data: { active: string } }[] }[];
    return Object.fromEntries(groups.flatMap((g) => g.items).map((d) => [d.id, d.device_data.active]));
  };

  it("takes a GET's input from its JSON body, as the vendor's Swagger sends change_active_device's", async () => {
    const user = await h.newUser();
    const [a, b] = [await h.addDevice(user), await h.addDevice(user)];
    const res = await h.inject({ method: "GET", url: `/api/change_active_device?lang=en&user_api_hash=${user.hash}`, headers: json, payload: JSON.stringify({ id: [a, b], active: false }) });
    expect([res.status, res.body]).toEqual([200, { status: 1 }]);
    expect(await activeOf(user)).toEqual({ [a]: "0", [b]: "0" });
  });

  it("reads the body's value of a field the query also gives", async () => {
    const user = await h.newUser();
    const id = await h.addDevice(user, { name: "Body van" });
    const res = await h.inject({ method: "GET", url: `/api/get_devices?lang=en&user_api_hash=${user.hash}&s=nothing`, headers: json, payload: JSON.stringify({ s: "body van" }) });
    expect((res.body as { items: { id: number }[] }[]).flatMap((g) => g.items.map((d) => d.id))).toEqual([id]);
  });

  it("answers a GET body that is not JSON with 400 and leaves a form body unread", async () => {
    const user = await h.newUser();
    const id = await h.addDevice(user);
    const url = `/api/change_active_device?lang=en&user_api_hash=${user.hash}`;
    expect((await h.inject({ method: "GET", url, headers: json, payload: `{"id": [${id}` })).status).toBe(400);
    const form = await h.inject({ method: "GET", url, headers: { "content-type": "application/x-www-form-urlencoded" }, payload: `id=${id}&active=false` });
    expect([form.status, Object.keys(invalid(form))]).toEqual([422, ["id"]]);
    expect(await activeOf(user)).toEqual({ [id]: "1" });
  });
});

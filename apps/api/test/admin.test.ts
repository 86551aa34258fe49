import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { AdminClientResponseSchema, AdminClientsResponseSchema, OkSchema, DeadLettersRepublishResponseSchema, DeadLettersResponseSchema, LoginResponseSchema, UnregisteredDevicesResponseSchema, UserDataSchema, type DeadLetter } from "@fleet/contracts";
import { recordUnregistered } from "@fleet/db";
import { uniqueSuffix } from "@fleet/testkit";
import { describeApi, failure, invalid, ok, wrongCredentials } from "./fixture.js";

const newEmail = () => `client-${uniqueSuffix()}@example.com`;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describeApi("admin", (h) => {
  it("creates a client who can then log in", async () => {
    const email = newEmail();
    const res = await h.post("/admin/client", { user: h.admin, body: { email, password: "client-pw-1", password_confirmation: "client-pw-1" } });
    const { item } = ok(res, AdminClientResponseSchema);
    expect(item).toMatchObject({ email, active: 1, group_id: 2, devices_limit: null, subscription_expiration: "0000-00-00 00:00:00", loged_at: null });
    expect(item.created_at).toMatch(DATE_TIME);

    const login = ok(await h.post("/login", { body: { email, password: "client-pw-1" } }), LoginResponseSchema);
    const data = ok(await h.get("/get_user_data", { hash: login.user_api_hash }), UserDataSchema);
    expect(data).toEqual({ email, expiration_date: null, days_left: null, plan: "Standard", devices_limit: 0, group_id: 2 });
  });

  it("takes a devices limit of 0 as none, on create and on update, as get_user_data shows none", async () => {
    const body = { email: newEmail(), password: "client-pw-1", password_confirmation: "client-pw-1", devices_limit: 0 };
    const { item } = ok(await h.post("/admin/client", { user: h.admin, body }), AdminClientResponseSchema);
    expect(item.devices_limit).toBeNull();
    ok(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: item.id, devices_limit: 3 } }), OkSchema);
    ok(await h.request("PUT", "/admin/client", { user: h.admin, body: { id: item.id, devices_limit: 0 } }), OkSchema);
    const listed = ok(await h.get("/admin/clients", { user: h.admin, query: { search_phrase: body.email } }), AdminClientsResponseSchema).data;
    expect(listed.map((c) => [c.email, c.devices_limit])).toEqual([[body.email, null]]);
  });

  it("keeps the limits, expiration and group it is given", async () => {
    const body = { email: newEmail().toUpperCase(), password: "client-pw-1", password_confirmation: "client-pw-1", devices_limit: 2, expiration_date: "2099-03-04 05:06:07", group_id: 2 };
    const { item } = ok(await h.post("/admin/client", { user: h.admin, body }), AdminClientResponseSchema);
    // Emails are kept lower-cased; the admin's timezone is the default (UTC).
    expect(item).toMatchObject({ email: body.email.toLowerCase(), devices_limit: 2, subscription_expiration: "2099-03-04 05:06:07" });

    for (const [expiration_date, shown] of [
      ["2099-03-04", "2099-03-04 00:00:00"],
      ["2099-03-04 05:06", "2099-03-04 05:06:00"],
      ["2099-03-04T05:06:07Z", "2099-03-04 05:06:07"],
      ["2099-03-04T07:06:07+02:00", "2099-03-04 05:06:07"],
    ] as const) {
      const res = await h.post("/admin/client", { user: h.admin, body: { ...body, email: newEmail(), expiration_date } });
      expect(ok(res, AdminClientResponseSchema).item.subscription_expiration, expiration_date).toBe(shown);
    }
  });

  it("can create another administrator, and an inactive client who cannot log in", async () => {
    const adminEmail = newEmail();
    const { item } = ok(await h.post("/admin/client", { user: h.admin, body: { email: adminEmail, password: "admin-pw-2", password_confirmation: "admin-pw-2", group_id: 1 } }), AdminClientResponseSchema);
    expect(item.group_id).toBe(1);
    const hash = ok(await h.post("/login", { body: { email: adminEmail, password: "admin-pw-2" } }), LoginResponseSchema).user_api_hash;
    ok(await h.get("/admin/clients", { hash }), AdminClientsResponseSchema);

    const inactive = newEmail();
    expect(ok(await h.post("/admin/client", { user: h.admin, body: { email: inactive, password: "client-pw-1", password_confirmation: "client-pw-1", active: false } }), AdminClientResponseSchema).item.active).toBe(0);
    wrongCredentials(await h.post("/login", { body: { email: inactive, password: "client-pw-1" } }));
  });

  it("takes form bodies too", async () => {
    const email = newEmail();
    const body = { email, password: "client-pw-1", password_confirmation: "client-pw-1", devices_limit: "5", active: "true" };
    for (const as of ["form", "multipart"] as const) {
      const res = await h.post("/admin/client", { user: h.admin, as, body: { ...body, email: `${as}-${email}` } });
      expect(ok(res, AdminClientResponseSchema).item).toMatchObject({ email: `${as}-${email}`, devices_limit: 5, active: 1 });
    }
  });

  it("refuses a mismatched confirmation, a taken email and bad fields with 422", async () => {
    const email = newEmail();
    const before = ok(await h.get("/admin/clients", { user: h.admin }), AdminClientsResponseSchema).total;
    expect(invalid(await h.post("/admin/client", { user: h.admin, body: { email, password: "client-pw-1", password_confirmation: "client-pw-2" } }))).toHaveProperty("password");

    ok(await h.post("/admin/client", { user: h.admin, body: { email, password: "client-pw-1", password_confirmation: "client-pw-1" } }), AdminClientResponseSchema);
    expect(invalid(await h.post("/admin/client", { user: h.admin, body: { email, password: "other-pw-1", password_confirmation: "other-pw-1" } }))).toEqual({ email: "The email has already been taken." });
    expect(invalid(await h.post("/admin/client", { user: h.admin, body: { email: email.toUpperCase(), password: "other-pw-1", password_confirmation: "other-pw-1" } }))).toHaveProperty("email");

    const good = { email: newEmail(), password: "client-pw-1", password_confirmation: "client-pw-1" };
    const cases: [Record<string, unknown>, string][] = [
      [{ email: "not-an-email" }, "email"],
      [{ email: undefined }, "email"],
      [{ password: "short", password_confirmation: "short" }, "password"],
      [{ group_id: 7 }, "group_id"],
      [{ devices_limit: -1 }, "devices_limit"],
      [{ devices_limit: "many" }, "devices_limit"],
      [{ expiration_date: "next year" }, "expiration_date"],
      // Shaped like a date, but no such day: refused, not stored as something else.
      [{ expiration_date: "2099-13-45" }, "expiration_date"],
      [{ expiration_date: "2099-02-30 10:00" }, "expiration_date"],
    ];
    for (const [override, field] of cases) {
      const body: Record<string, unknown> = { ...good, ...override };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      expect(Object.keys(invalid(await h.post("/admin/client", { user: h.admin, body }))), JSON.stringify(override)).toEqual([field]);
    }
    // One new client (the good one above), nothing half-made by the failures.
    expect(ok(await h.get("/admin/clients", { user: h.admin }), AdminClientsResponseSchema).total).toBe(before + 1);
  });

  it("searches the clients by email and by a device's IMEI, filters them exactly and sorts them", async () => {
    const tag = uniqueSuffix();
    const [a, b, c] = [await h.newUser({ email: `zeta-${tag}@example.com` }), await h.newUser({ email: `alpha-${tag}@example.com` }), await h.newUser({ email: `mid-${tag}@example.com`, active: false })];
    const imei = `86${Date.now()}`.slice(0, 15);
    await h.addDevice(b, { imei });
    const emails = async (query: Record<string, string | number>) => ok(await h.get("/admin/clients", { user: h.admin, query }), AdminClientsResponseSchema).data.map((x) => x.email);
    expect(await emails({ search_phrase: tag.toUpperCase() })).toEqual([a.email, b.email, c.email]);
    expect(await emails({ search_phrase: tag, sort_by: "email", sort: "desc" })).toEqual([a.email, c.email, b.email]);
    expect(await emails({ search_device: imei })).toEqual([b.email]);
    expect(await emails({ search_phrase: tag, "filter[active]": 0 })).toEqual([c.email]);
    expect(await emails({ "filter[email]": a.email.toUpperCase() })).toEqual([a.email]);
    expect(await emails({ "filter[id]": c.id, search_phrase: "no-such-text" })).toEqual([]);
    const paged = ok(await h.get("/admin/clients", { user: h.admin, query: { search_phrase: tag, limit: 2, page: 2 } }), AdminClientsResponseSchema);
    expect(paged).toMatchObject({ total: 3, per_page: 2, current_page: 2, last_page: 2, from: 3, to: 3 });
    expect(paged.data.map((x) => x.email)).toEqual([c.email]);
    // The Swagger's Laravel paginator: the first and last pages' urls and the page links too.
    expect(paged.first_page_url).toMatch(/[?&]page=1(&|$)/);
    expect(paged.last_page_url).toMatch(/[?&]page=2(&|$)/);
    expect(paged.links.map((l) => [l.label, l.active])).toEqual([["&laquo; Previous", false], ["1", false], ["2", true], ["Next &raquo;", false]]);
    expect(Object.keys(invalid(await h.get("/admin/clients", { user: h.admin, query: { "filter[password]": "x" } })))).toEqual(["filter"]);
    expect(Object.keys(invalid(await h.get("/admin/clients", { user: h.admin, query: { sort_by: "password_hash" } })))).toEqual(["sort_by"]);
  });

  it("lists the clients", async () => {
    const user = await h.newUser({ devicesLimit: 4 });
    const list = ok(await h.get("/admin/clients", { user: h.admin }), AdminClientsResponseSchema);
    expect(list.total).toBe(list.data.length);
    expect(list).toMatchObject({ current_page: 1, last_page: 1, from: 1, to: list.data.length });
    expect(list.data.map((c) => c.email)).toEqual(expect.arrayContaining([h.admin.email, user.email]));
    expect(list.data.find((c) => c.id === user.id)).toMatchObject({ email: user.email, active: 1, group_id: 2, devices_limit: 4 });
    expect(list.data.find((c) => c.id === h.admin.id)).toMatchObject({ group_id: 1 });
  });

  it("lists the trackers that report but match no device", async () => {
    const uniqueId = `unknown-${uniqueSuffix()}`;
    const first = new Date(Date.UTC(2025, 4, 1, 8, 0, 0));
    const last = new Date(Date.UTC(2025, 4, 1, 9, 30, 0));
    await recordUnregistered(h.db, [
      { uniqueId, protocol: "gt06", seenAt: first, count: 2 },
      { uniqueId, protocol: "osmand", seenAt: last, count: 3 },
    ]);
    const { items } = ok(await h.get("/admin/unregistered_devices", { user: h.admin }), UnregisteredDevicesResponseSchema);
    expect(items.find((i) => i.unique_id === uniqueId)).toEqual({ unique_id: uniqueId, protocol: "osmand", count: 5, first_seen: "2025-05-01 08:00:00", last_seen: "2025-05-01 09:30:00" });
  });

  it("answers everyone but an administrator with 403, whatever the body", async () => {
    const user = await h.newUser();
    const body = { email: newEmail(), password: "client-pw-1", password_confirmation: "client-pw-1" };
    expect(failure(await h.post("/admin/client", { user, body }), 403)).toBeTruthy();
    // Not a 422: a non-administrator learns nothing about what the route accepts.
    failure(await h.post("/admin/client", { user, body: {} }), 403);
    failure(await h.post("/admin/client", { user, as: "multipart", body: { email: "x" } }), 403);
    failure(await h.get("/admin/clients", { user }), 403);
    failure(await h.get("/admin/unregistered_devices", { user }), 403);
    failure(await h.get("/admin/dead_letters", { user }), 403);
    failure(await h.post("/admin/dead_letters/republish", { user, body: {} }), 403);
    // And nothing was created.
    expect(ok(await h.get("/admin/clients", { user: h.admin }), AdminClientsResponseSchema).data.map((c) => c.email)).not.toContain(body.email);
    // Authentication still comes first.
    failure(await h.post("/admin/client", { body }), 401);
  });

  it("lists dead letters and sends them back to their topic once, the given ones or all that wait", async () => {
    const producer = await h.bus.producer();
    const letter = (n: number, value: string): DeadLetter => ({
      id: randomUUID(),
      topic: "positions.raw",
      partition: 3,
      offset: String(40 + n),
      groupId: "fleet-tracker",
      key: `8600000000000${n}`,
      value: Buffer.from(value).toString("base64"),
      error: { name: "PermanentError", message: "not a position: /fixTime Expected integer to be less or equal to 4102444800000", code: n === 2 ? "22021" : undefined },
      deadAt: Date.UTC(2025, 4, 1, 8, n, 0),
    });
    const letters = [letter(1, '{"id":1}'), letter(2, "\u00ff binary"), letter(3, "{not json")];
    await producer.send("positions.dead", letters.map((l) => ({ key: l.key, value: JSON.stringify(l) })));
    const listed = async () => ok(await h.get("/admin/dead_letters", { user: h.admin, query: { topic: "positions.dead" } }), DeadLettersResponseSchema).items;

    const before = await listed();
    expect(before.map((i) => i.id)).toEqual(letters.map((l) => l.id));
    expect(before[0]).toEqual({
      id: letters[0]!.id,
      topic: "positions.raw",
      partition: 3,
      offset: "41",
      group_id: "fleet-tracker",
      key: "86000000000001",
      error: letters[0]!.error,
      value: '{"id":1}',
      value_base64: letters[0]!.value,
      dead_at: "2025-05-01 08:01:00",
      republished_at: null,
    });
    expect(before[1]!.error.code).toBe("22021");
    expect(ok(await h.get("/admin/dead_letters", { user: h.admin, query: { topic: "events.dead" } }), DeadLettersResponseSchema).items).toEqual([]);

    // One chosen letter, then every one still waiting; a second run sends nothing again.
    expect(ok(await h.post("/admin/dead_letters/republish", { user: h.admin, body: { ids: [letters[1]!.id] } }), DeadLettersRepublishResponseSchema).republished).toBe(1);
    expect(ok(await h.post("/admin/dead_letters/republish", { user: h.admin, body: {} }), DeadLettersRepublishResponseSchema).republished).toBe(2);
    expect(ok(await h.post("/admin/dead_letters/republish", { user: h.admin, body: { topic: "positions.dead" } }), DeadLettersRepublishResponseSchema).republished).toBe(0);
    const sentBack = (await h.bus.read("positions.raw")).map((m) => ({ key: m.key, value: m.value.toString() }));
    expect(sentBack).toEqual(expect.arrayContaining(letters.map((l) => ({ key: l.key, value: Buffer.from(l.value, "base64").toString() }))));
    expect(sentBack).toHaveLength(3);
    expect((await listed()).every((i) => i.republished_at !== null)).toBe(true);
    expect(Object.keys(invalid(await h.get("/admin/dead_letters", { user: h.admin, query: { topic: "positions.raw" } })))).toEqual(["topic"]);
    await producer.close();
  });
});

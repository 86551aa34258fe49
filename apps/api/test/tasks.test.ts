import { describe, expect, it } from "vitest";
import { EditSetupResponseSchema, GetTasksPrioritiesResponseSchema, GetTasksResponseSchema, GetTasksStatusesResponseSchema, OkSchema, TaskResponseSchema, userClock, type TaskRecord } from "@fleet/contracts";
import { findUserTask } from "@fleet/db";
import { describeApi, failure, invalid, ok, type ApiHarness, type BodyEncoding, type Reply, type TestUser, signedLink } from "./fixture.js";

/** Timezone 65 is UTC+02:00. */
const PLUS_TWO = 65;
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("a small jpeg body")]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;
const MISSING = 2_000_000_000;

function taskBody(device: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    device_id: device,
    title: "Deliver parcels",
    comment: "Fragile",
    priority: 2,
    status: 1,
    pickup_address: "Gedimino pr. 1, Vilnius",
    pickup_address_lat: 54.6872,
    pickup_address_lng: 25.2797,
    pickup_time_from: "2030-05-01 08:00:00",
    pickup_time_to: "2030-05-01 10:00:00",
    delivery_address: "Laisvės al. 1, Kaunas",
    delivery_address_lat: 54.8985,
    delivery_address_lng: 23.9036,
    delivery_time_from: "2030-05-01 12:00:00",
    delivery_time_to: "2030-05-01 14:00:00",
    invoice_number: "INV-001",
  };
  // An override of undefined drops the field (forms would send the text "undefined").
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete body[k];
    else body[k] = v;
  }
  return body;
}

async function addTask(h: ApiHarness, user: TestUser, device: number, overrides: Record<string, unknown> = {}, as: BodyEncoding = "json"): Promise<TaskRecord> {
  return ok(await h.post("/add_task", { user, as, body: taskBody(device, overrides) }), TaskResponseSchema).item;
}

async function getTask(h: ApiHarness, user: TestUser, id: number): Promise<TaskRecord> {
  return ok(await h.get(`/get_task/${id}`, { user }), TaskResponseSchema).item;
}

async function list(h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) {
  return ok(await h.get("/get_tasks", { user, query }), GetTasksResponseSchema).items;
}

const edit = (h: ApiHarness, user: TestUser, id: number | string, body: Record<string, unknown>, as: BodyEncoding = "json") => h.post(`/edit_task/${id}`, { user, body, as });

/** edit_task as multipart with the signature as a file part. */
async function editWithFile(h: ApiHarness, user: TestUser, id: number, fields: Record<string, string>, file: Buffer, type: string): Promise<Reply> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("signature", new Blob([file], { type }), "signature.bin");
  const encoded = new Response(form);
  return h.inject({
    method: "POST",
    url: `/api/edit_task/${id}`,
    query: { lang: "en", user_api_hash: user.hash },
    headers: { "content-type": encoded.headers.get("content-type")! },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
}

const signature = (h: ApiHarness, user: TestUser, statusId: number | string) => h.get(`/get_task_signature/${statusId}`, { user });

/** get_task_signature's raw answer: the bytes as sent. */
const image = (h: ApiHarness, user: TestUser, statusId: number) => h.app.inject({ method: "GET", url: `/api/get_task_signature/${statusId}`, query: { lang: "en", user_api_hash: user.hash } });

describeApi("tasks", (h) => {
  it("lists the task routes in the OpenAPI document, path parameters and the signature's image types included", async () => {
    type Op = { parameters?: { in: string; name: string }[]; responses: Record<string, { content?: Record<string, unknown> }> };
    const doc = (await h.inject({ method: "GET", url: "/api/docs/json" })).body as { paths: Record<string, Record<string, Op>> };
    const paths = ["/api/get_tasks", "/api/get_task/{id}", "/api/add_task", "/api/edit_task/{id}", "/api/destroy_task", "/api/get_task_signature/{taskStatusId}", "/api/get_tasks_statuses", "/api/get_tasks_priorities"];
    for (const p of paths) expect(doc.paths, p).toHaveProperty([p]);
    expect(doc.paths["/api/get_task/{id}"]!.get!.parameters).toContainEqual(expect.objectContaining({ in: "path", name: "id" }));
    expect(doc.paths["/api/edit_task/{id}"]!.post!.parameters).toContainEqual(expect.objectContaining({ in: "path", name: "id" }));
    const sig = doc.paths["/api/get_task_signature/{taskStatusId}"]!.get!;
    expect(sig.parameters).toContainEqual(expect.objectContaining({ in: "path", name: "taskStatusId" }));
    expect(Object.keys(sig.responses["200"]!.content!)).toEqual(["image/png", "image/jpeg"]);
  });

  describe("catalogues", () => {
    it("lists the statuses and priorities with the vendor's ids", async () => {
      const user = await h.newUser();
      expect(ok(await h.get("/get_tasks_statuses", { user }), GetTasksStatusesResponseSchema)).toEqual({
        status: 1,
        items: [
          { id: 1, title: "New" },
          { id: 2, title: "In progress" },
          { id: 3, title: "Completed" },
          { id: 4, title: "Failed" },
        ],
      });
      expect(ok(await h.get("/get_tasks_priorities", { user }), GetTasksPrioritiesResponseSchema)).toEqual({
        status: 1,
        items: [
          { id: 1, title: "Low" },
          { id: 2, title: "Normal" },
          { id: 3, title: "High" },
        ],
      });
    });
  });

  describe("add_task", () => {
    it("creates a task with its first status row, windows read and shown in the user's timezone", async () => {
      const user = await h.newUser({ timezoneId: PLUS_TWO });
      const device = await h.addDevice(user);
      const item = await addTask(h, user, device);
      expect(item).toMatchObject({
        device_id: device,
        title: "Deliver parcels",
        comment: "Fragile",
        priority: 2,
        status: 1,
        invoice_number: "INV-001",
        pickup_address_lat: 54.6872,
        pickup_time_from: "2030-05-01 08:00:00",
        pickup_time_to: "2030-05-01 10:00:00",
        delivery_time_from: "2030-05-01 12:00:00",
        delivery_time_to: "2030-05-01 14:00:00",
      });
      expect(item.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(item.statuses).toEqual([{ id: expect.any(Number), task_id: item.id, status: 1, comment: "", created_at: item.created_at, updated_at: item.created_at }]);
      expect(await getTask(h, user, item.id)).toEqual(item);
      // The same instants read by a user at UTC: two hours earlier on the wall clock.
      const stored = await findUserTask(h.db, user.id, item.id);
      expect(stored!.pickupTimeFrom.toISOString()).toBe("2030-05-01T06:00:00.000Z");
    });

    it("honours an offset given with a date-time, and takes ISO `T` and minutes-only forms", async () => {
      const user = await h.newUser({ timezoneId: PLUS_TWO });
      const device = await h.addDevice(user);
      const item = await addTask(h, user, device, { pickup_time_from: "2030-05-01T06:00:00Z", pickup_time_to: "2030-05-01T09:30:00+03:00", delivery_time_from: "2030-05-01T12:00", delivery_time_to: "2030-05-01 14:00:00.250" });
      expect(item).toMatchObject({ pickup_time_from: "2030-05-01 08:00:00", pickup_time_to: "2030-05-01 08:30:00", delivery_time_from: "2030-05-01 12:00:00", delivery_time_to: "2030-05-01 14:00:00" });
    });

    it("reads and shows times on the account's clock, an hour further on in summer under its DST rule; the record's stamps too", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      // UTC+02:00 with the European Union's rule: UTC+03:00 from the last Sunday of March to the last of October.
      ok(await h.post("/edit_setup", { user, body: { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: PLUS_TWO, groups: [], sms_gateway: 0, dst_type: "automatic", dst_country_id: 3 } }), EditSetupResponseSchema);
      const summer = { pickup_time_from: "2030-07-01 08:00:00", pickup_time_to: "2030-07-01 10:00:00" };
      const winter = { delivery_time_from: "2030-12-02 08:00:00", delivery_time_to: "2030-12-02 10:00:00" };
      const item = await addTask(h, user, device, { ...summer, ...winter });
      expect(item).toMatchObject({ ...summer, ...winter });
      const stored = await findUserTask(h.db, user.id, item.id);
      expect(stored!.pickupTimeFrom.toISOString()).toBe("2030-07-01T05:00:00.000Z");
      expect(stored!.deliveryTimeFrom.toISOString()).toBe("2030-12-02T06:00:00.000Z");
      // Record stamps on the same clock: now is shown as the rule says (summer time or not).
      const clock = userClock({ timezoneId: PLUS_TWO, dst: { type: "automatic", dst_country_id: 3 } });
      expect(item.created_at).toBe(clock.format(stored!.createdAt.getTime()));
      const summerUser = await h.newUser({ timezoneId: PLUS_TWO });
      const summerClock = userClock({ timezoneId: PLUS_TWO, dst: { type: "exact", date_from: "2000-01-01 00:00", date_to: "2099-01-01 00:00" } });
      ok(await h.post("/edit_setup", { user: summerUser, body: { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: PLUS_TWO, groups: [], sms_gateway: 0, dst_type: "exact", date_from: "2000-01-01 00:00", date_to: "2099-01-01 00:00" } }), EditSetupResponseSchema);
      const always = await addTask(h, summerUser, await h.addDevice(summerUser));
      const row = await findUserTask(h.db, summerUser.id, always.id);
      expect(always.created_at).toBe(summerClock.format(row!.createdAt.getTime()));
      expect(always.created_at).toBe(new Date(row!.createdAt.getTime() + 3 * 3_600_000).toISOString().slice(0, 19).replace("T", " "));
    });

    it("takes JSON, form and multipart bodies; invoice_number is optional", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      for (const as of ["json", "form", "multipart"] as const) {
        const item = await addTask(h, user, device, { title: `By ${as}`, invoice_number: undefined }, as);
        expect(item).toMatchObject({ title: `By ${as}`, invoice_number: "", priority: 2, pickup_address_lng: 25.2797 });
      }
      expect((await list(h, user)).total).toBe(3);
    });

    it("stores injection-looking text verbatim", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const text = { title: "Robert'); DROP TABLE tasks;--", comment: "<script>alert(1)</script> {{7*7}} ü ☃", invoice_number: "' OR '1'='1" };
      expect(await addTask(h, user, device, text)).toMatchObject(text);
    });

    it("refuses invalid fields with 422 naming them, creating nothing", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const cases: [Record<string, unknown>, string][] = [
        [{ title: undefined }, "title"],
        [{ comment: undefined }, "comment"],
        [{ pickup_time_to: undefined }, "pickup_time_to"],
        [{ title: "   " }, "title"],
        [{ title: "x".repeat(256) }, "title"],
        [{ comment: "c".repeat(5001) }, "comment"],
        [{ invoice_number: "i".repeat(256) }, "invoice_number"],
        [{ title: ["a", "b"] }, "title"],
        [{ device_id: "abc" }, "device_id"],
        [{ device_id: 1.5 }, "device_id"],
        [{ priority: 4 }, "priority"],
        [{ priority: "high" }, "priority"],
        [{ status: 0 }, "status"],
        [{ status: 9 }, "status"],
        [{ pickup_address_lat: 90.5 }, "pickup_address_lat"],
        [{ delivery_address_lng: -181 }, "delivery_address_lng"],
        [{ delivery_address_lat: "north" }, "delivery_address_lat"],
        [{ pickup_time_from: "tomorrow" }, "pickup_time_from"],
        [{ pickup_time_from: "2030-04-31 08:00:00" }, "pickup_time_from"],
        [{ pickup_time_from: "2030-05-01 24:00:00" }, "pickup_time_from"],
        [{ pickup_time_to: "2101-01-01 00:00:00" }, "pickup_time_to"],
        [{ delivery_time_from: "2030-05-01 12:00:00+15:00" }, "delivery_time_from"],
        [{ delivery_time_to: "2030-05-01 14:00:00'; DROP TABLE tasks; --" }, "delivery_time_to"],
        [{ pickup_time_to: "2030-05-01 07:59:59" }, "pickup_time_to"],
        [{ delivery_time_from: "2030-05-02 00:00:00" }, "delivery_time_to"],
      ];
      for (const [overrides, field] of cases) {
        expect(invalid(await h.post("/add_task", { user, body: taskBody(device, overrides) })), JSON.stringify(overrides).slice(0, 80)).toHaveProperty(field);
      }
      expect((await list(h, user)).total).toBe(0);
    });

    it("answers another user's device exactly as a missing one, creating nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const bDevice = await h.addDevice(b);
      const missing = await h.post("/add_task", { user: a, body: taskBody(MISSING) });
      expect(invalid(missing)).toEqual({ device_id: "The selected device id is invalid." });
      const theirs = await h.post("/add_task", { user: a, body: taskBody(bDevice) });
      expect([theirs.status, theirs.body]).toEqual([missing.status, missing.body]);
      expect((await list(h, a)).total).toBe(0);
      expect((await list(h, b)).total).toBe(0);
    });
  });

  describe("get_task", () => {
    it("answers a missing id and another user's alike, and refuses ids that are not ids", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const task = await addTask(h, a, await h.addDevice(a));
      const missing = failure(await h.get(`/get_task/${MISSING}`, { user: b }), 404);
      expect(missing).toBe("Task not found.");
      expect(failure(await h.get(`/get_task/${task.id}`, { user: b }), 404)).toBe(missing);
      for (const bad of ["abc", "0", "-1", "1.5", "99999999999", "1%20OR%201%3D1"]) expect(invalid(await h.get(`/get_task/${bad}`, { user: b })), bad).toHaveProperty("id");
    });
  });

  describe("get_tasks", () => {
    it("is an empty page for a user without tasks", async () => {
      const user = await h.newUser();
      expect(await list(h, user)).toEqual({ total: 0, per_page: 10, current_page: 1, last_page: 1, from: 0, to: 0, next_page_url: null, prev_page_url: null, url: "/api/get_tasks", data: [] });
    });

    it("pages newest first, with links that keep the filters and work as given", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const ids: number[] = [];
      for (let i = 0; i < 13; i++) ids.push((await addTask(h, user, device, { title: `T${i}`, invoice_number: i % 2 ? "odd" : "even" })).id);
      const newest = [...ids].reverse();
      const first = await list(h, user, { per_page: 5 });
      expect(first).toMatchObject({ total: 13, per_page: 5, last_page: 3, from: 1, to: 5, prev_page_url: null });
      expect(first.data.map((t) => t.id)).toEqual(newest.slice(0, 5));
      expect(first.data[0]!.statuses).toHaveLength(1);
      const second = ok(await h.inject({ method: "GET", url: signedLink(first.next_page_url, user.hash) }), GetTasksResponseSchema).items;
      expect(second.data.map((t) => t.id)).toEqual(newest.slice(5, 10));
      const odd = await list(h, user, { per_page: 2, search_invoice_number: "ODD" });
      expect(odd.total).toBe(6);
      const oddNext = ok(await h.inject({ method: "GET", url: signedLink(odd.next_page_url, user.hash) }), GetTasksResponseSchema).items;
      expect(oddNext.data.every((t) => t.invoice_number === "odd")).toBe(true);
      expect(oddNext.current_page).toBe(2);
    });

    it("filters by device, status, invoice number (part, any case, wildcards literal) and window overlap", async () => {
      const user = await h.newUser();
      const [van, truck] = [await h.addDevice(user), await h.addDevice(user)];
      const early = await addTask(h, user, van, { invoice_number: "AB-100%", pickup_time_from: "2030-01-01 08:00:00", pickup_time_to: "2030-01-01 09:00:00", delivery_time_from: "2030-01-01 10:00:00", delivery_time_to: "2030-01-01 11:00:00" });
      const late = await addTask(h, user, truck, { status: 2, invoice_number: "xy-200", pickup_time_from: "2030-02-01 08:00:00", pickup_time_to: "2030-02-01 09:00:00", delivery_time_from: "2030-02-03 10:00:00", delivery_time_to: "2030-02-03 11:00:00" });
      const ids = async (query: Record<string, string | number>) => (await list(h, user, query)).data.map((t) => t.id);
      expect(await ids({ search_device_id: van })).toEqual([early.id]);
      expect(await ids({ search_device_id: MISSING })).toEqual([]);
      expect(await ids({ search_task_status: 2 })).toEqual([late.id]);
      expect(await ids({ search_task_status: 3 })).toEqual([]);
      expect(await ids({ search_invoice_number: "ab-1" })).toEqual([early.id]);
      expect(await ids({ search_invoice_number: "0%" })).toEqual([early.id]);
      expect(await ids({ search_invoice_number: "%" })).toEqual([early.id]);
      expect(await ids({ search_invoice_number: "_" })).toEqual([]);
      expect(await ids({ search_invoice_number: "" })).toEqual([late.id, early.id]);
      // Overlap with the pickup window, the delivery window, neither; open ends.
      expect(await ids({ search_time_from: "2030-01-01 08:30:00", search_time_to: "2030-01-01 08:45:00" })).toEqual([early.id]);
      expect(await ids({ search_time_from: "2030-02-03 10:59:00", search_time_to: "2030-02-04 00:00:00" })).toEqual([late.id]);
      expect(await ids({ search_time_from: "2030-02-02 00:00:00", search_time_to: "2030-02-02 23:59:59" })).toEqual([]);
      expect(await ids({ search_time_from: "2030-01-15 00:00:00" })).toEqual([late.id]);
      expect(await ids({ search_time_to: "2030-01-01 08:00:00" })).toEqual([early.id]);
      expect(await ids({ search_time_to: "2030-01-15T00:00:00Z", search_device_id: truck })).toEqual([]);
    });

    it("refuses filters that are not valid, and a range that ends before it starts", async () => {
      const user = await h.newUser();
      const cases: [Record<string, string | number>, string][] = [
        [{ search_device_id: "abc" }, "search_device_id"],
        [{ search_task_status: 7 }, "search_task_status"],
        [{ search_time_from: "yesterday" }, "search_time_from"],
        [{ search_time_to: "2030-02-30 00:00:00" }, "search_time_to"],
        [{ search_time_from: "2030-02-02 00:00:00", search_time_to: "2030-02-01 00:00:00" }, "search_time_to"],
        [{ search_invoice_number: "x".repeat(256) }, "search_invoice_number"],
        [{ per_page: 101 }, "per_page"],
      ];
      for (const [query, field] of cases) expect(invalid(await h.get("/get_tasks", { user, query })), JSON.stringify(query)).toHaveProperty(field);
    });

    it("never lists another user's tasks, even filtered by that user's device", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await h.addDevice(a);
      const aTask = await addTask(h, a, aDevice, { title: "Secret of A" });
      const bTask = await addTask(h, b, await h.addDevice(b));
      expect((await list(h, b)).data.map((t) => t.id)).toEqual([bTask.id]);
      expect(await list(h, b, { search_device_id: aDevice })).toMatchObject({ total: 0, data: [] });
      expect((await list(h, a)).data.map((t) => t.id)).toEqual([aTask.id]);
    });
  });

  describe("edit_task", () => {
    it("changes only the fields given and writes no history without a status change", async () => {
      const user = await h.newUser({ timezoneId: PLUS_TWO });
      const [van, truck] = [await h.addDevice(user), await h.addDevice(user)];
      const task = await addTask(h, user, van);
      // The form sent back as it came is no edit at all.
      const row = await findUserTask(h.db, user.id, task.id);
      ok(await edit(h, user, task.id, { ...taskBody(van), pickup_time_from: "2030-05-01T06:00:00Z" }), TaskResponseSchema);
      expect(await findUserTask(h.db, user.id, task.id)).toEqual(row);
      const item = ok(await edit(h, user, task.id, { title: "Renamed", device_id: truck, pickup_time_to: "2030-05-01 11:00:00", status: 1 }, "form"), TaskResponseSchema).item;
      expect(item).toEqual({ ...task, title: "Renamed", device_id: truck, pickup_time_to: "2030-05-01 11:00:00", updated_at: item.updated_at });
      expect(item.statuses).toEqual(task.statuses);
      expect(await getTask(h, user, task.id)).toEqual(item);
    });

    it("appends a status row on a status change, with its comment and a data-URL signature", async () => {
      const user = await h.newUser();
      const task = await addTask(h, user, await h.addDevice(user));
      const started = ok(await edit(h, user, task.id, { status: 2, status_comment: "On my way" }), TaskResponseSchema).item;
      expect(started.statuses.map((s) => [s.status, s.comment])).toEqual([
        [1, ""],
        [2, "On my way"],
      ]);
      expect(started).toMatchObject({ status: 2, comment: "Fragile" });
      const done = ok(await edit(h, user, task.id, { status: 3, status_comment: "Signed", signature: dataUrl("image/png", PNG) }), TaskResponseSchema).item;
      expect(done.statuses.map((s) => s.status)).toEqual([1, 2, 3]);
      const signed = await image(h, user, done.statuses[2]!.id);
      expect(signed.statusCode).toBe(200);
      expect(signed.headers).toMatchObject({ "content-type": "image/png", "cache-control": "private, no-store", "x-content-type-options": "nosniff" });
      expect(signed.rawPayload).toEqual(PNG);
      // Rows without a signature answer like unknown ones.
      const none = failure(await signature(h, user, MISSING), 404);
      expect(failure(await signature(h, user, done.statuses[1]!.id), 404)).toBe(none);
      // A status may go back (reopening); each change is history.
      expect(ok(await edit(h, user, task.id, { status: 1 }), TaskResponseSchema).item.statuses.map((s) => s.status)).toEqual([1, 2, 3, 1]);
    });

    it("takes the signature as a multipart file, its type read from its bytes", async () => {
      const user = await h.newUser();
      const task = await addTask(h, user, await h.addDevice(user));
      const res = await editWithFile(h, user, task.id, { status: "4", status_comment: "Nobody home" }, JPEG, "application/octet-stream");
      const item = ok(res, TaskResponseSchema).item;
      const row = item.statuses.at(-1)!;
      expect(row).toMatchObject({ status: 4, comment: "Nobody home" });
      const img = await image(h, user, row.id);
      expect(img.statusCode).toBe(200);
      expect(img.headers["content-type"]).toBe("image/jpeg");
      expect(img.rawPayload).toEqual(JPEG);
    });

    it("takes a signature of exactly 1 MiB, as a data URL or a file; a data URL too long for a multipart text field is a 4xx", async () => {
      const user = await h.newUser();
      const task = await addTask(h, user, await h.addDevice(user));
      const full = Buffer.concat([PNG, Buffer.alloc(1024 * 1024 - PNG.length, 7)]);
      ok(await edit(h, user, task.id, { status: 2, signature: dataUrl("image/png", full) }), TaskResponseSchema);
      const item = ok(await editWithFile(h, user, task.id, { status: "3" }, full, "image/png"), TaskResponseSchema).item;
      expect((await image(h, user, item.statuses.at(-1)!.id)).rawPayload).toEqual(full);
      const res = await edit(h, user, task.id, { status: 4, signature: dataUrl("image/png", full) }, "multipart");
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
      expect((await getTask(h, user, task.id)).statuses).toHaveLength(3);
    });

    it("refuses bad signatures and status notes without a status change, changing nothing", async () => {
      const user = await h.newUser();
      const task = await addTask(h, user, await h.addDevice(user));
      const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
      const cases: [Record<string, unknown>, string][] = [
        [{ status: 3, signature: "data:image/png;base64,not base64!" }, "signature"],
        [{ status: 3, signature: dataUrl("image/gif", PNG) }, "signature"],
        [{ status: 3, signature: dataUrl("image/jpeg", PNG) }, "signature"],
        [{ status: 3, signature: dataUrl("image/png", Buffer.from("GIF89a not a png")) }, "signature"],
        [{ status: 3, signature: dataUrl("image/png", Buffer.alloc(0)) }, "signature"],
        [{ status: 3, signature: dataUrl("image/png", big) }, "signature"],
        [{ status: 3, signature: { type: "Buffer", data: [137, 80, 78, 71] } }, "signature"],
        [{ status: 3, signature: 42 }, "signature"],
        [{ signature: dataUrl("image/png", PNG) }, "signature"],
        [{ status: 1, status_comment: "Nothing changed" }, "status_comment"],
        [{ status: 3, status_comment: "c".repeat(5001) }, "status_comment"],
      ];
      for (const [body, field] of cases) expect(invalid(await edit(h, user, task.id, body)), JSON.stringify(body).slice(0, 80)).toHaveProperty(field);
      expect(invalid(await editWithFile(h, user, task.id, { status: "3" }, Buffer.from("plain text"), "image/png"))).toHaveProperty("signature");
      expect(await getTask(h, user, task.id)).toEqual(task);
    });

    it("checks windows against the stored other end, and refuses invalid fields, changing nothing", async () => {
      const user = await h.newUser();
      const task = await addTask(h, user, await h.addDevice(user));
      const cases: [Record<string, unknown>, string][] = [
        [{ pickup_time_to: "2030-05-01 07:00:00" }, "pickup_time_to"],
        [{ delivery_time_from: "2030-05-01 15:00:00" }, "delivery_time_to"],
        [{ pickup_time_from: "2030-13-01 07:00:00" }, "pickup_time_from"],
        [{ title: "" }, "title"],
        [{ priority: 0 }, "priority"],
        [{ status: "done" }, "status"],
        [{ pickup_address_lng: 200 }, "pickup_address_lng"],
        [{ delivery_address: "a".repeat(501) }, "delivery_address"],
        [{ title: "Fine", status: 3, pickup_time_to: "2030-05-01 07:00:00" }, "pickup_time_to"],
      ];
      for (const [body, field] of cases) expect(invalid(await edit(h, user, task.id, body)), JSON.stringify(body)).toHaveProperty(field);
      expect(invalid(await h.post(`/edit_task/${task.id}`, { user, body: [] }))).toHaveProperty("body");
      expect(await getTask(h, user, task.id)).toEqual(task);
    });

    it("answers another user's task as a missing one, and another user's device as a missing one, changing nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aDevice = await h.addDevice(a);
      const aTask = await addTask(h, a, aDevice);
      const bTask = await addTask(h, b, await h.addDevice(b));
      const body = { title: "Taken over", status: 3, signature: dataUrl("image/png", PNG) };
      const missing = failure(await edit(h, b, MISSING, body), 404);
      expect(failure(await edit(h, b, aTask.id, body), 404)).toBe(missing);
      const noDevice = await edit(h, b, bTask.id, { device_id: MISSING });
      expect(invalid(noDevice)).toEqual({ device_id: "The selected device id is invalid." });
      const theirDevice = await edit(h, b, bTask.id, { device_id: aDevice });
      expect([theirDevice.status, theirDevice.body]).toEqual([noDevice.status, noDevice.body]);
      expect(await getTask(h, a, aTask.id)).toEqual(aTask);
      expect(await getTask(h, b, bTask.id)).toEqual(bTask);
      for (const bad of ["abc", "0", "1e400"]) expect(invalid(await edit(h, b, bad, { title: "x" })), bad).toHaveProperty("id");
    });
  });

  describe("destroy_task", () => {
    it("deletes a task and its history, by id in the body or the query", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const [one, two, keep] = [await addTask(h, user, device), await addTask(h, user, device), await addTask(h, user, device)];
      const signed = ok(await edit(h, user, one.id, { status: 3, signature: dataUrl("image/png", PNG) }), TaskResponseSchema).item.statuses.at(-1)!;
      expect(ok(await h.post("/destroy_task", { user, body: { id: one.id } }), OkSchema)).toEqual({ status: 1 });
      expect(ok(await h.post("/destroy_task", { user, query: { id: two.id } }), OkSchema)).toEqual({ status: 1 });
      expect((await list(h, user)).data.map((t) => t.id)).toEqual([keep.id]);
      failure(await signature(h, user, signed.id), 404);
      failure(await h.post("/destroy_task", { user, body: { id: one.id } }), 404);
    });

    it("refuses no id, differing ids and ids that are not ids", async () => {
      const user = await h.newUser();
      const task = await addTask(h, user, await h.addDevice(user));
      expect(invalid(await h.post("/destroy_task", { user, body: {} }))).toEqual({ id: "The id field is required." });
      expect(invalid(await h.post("/destroy_task", { user }))).toHaveProperty("id");
      expect(invalid(await h.post("/destroy_task", { user, body: { id: task.id }, query: { id: task.id + 1 } }))).toHaveProperty("id");
      for (const id of ["abc", -1, 1.5, "1 OR 1=1"]) expect(invalid(await h.post("/destroy_task", { user, body: { id } })), String(id)).toHaveProperty("id");
      expect(await getTask(h, user, task.id)).toEqual(task);
    });

    it("answers another user's task as a missing one and keeps it", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aTask = await addTask(h, a, await h.addDevice(a));
      const missing = failure(await h.post("/destroy_task", { user: b, body: { id: MISSING } }), 404);
      expect(failure(await h.post("/destroy_task", { user: b, body: { id: aTask.id } }), 404)).toBe(missing);
      expect(failure(await h.post("/destroy_task", { user: b, query: { id: aTask.id } }), 404)).toBe(missing);
      expect(await getTask(h, a, aTask.id)).toEqual(aTask);
    });
  });

  describe("get_task_signature", () => {
    it("answers another user's status row as a missing one, and refuses ids that are not ids", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const aTask = await addTask(h, a, await h.addDevice(a));
      const row = ok(await edit(h, a, aTask.id, { status: 3, signature: dataUrl("image/png", PNG) }), TaskResponseSchema).item.statuses.at(-1)!;
      const missing = failure(await signature(h, b, MISSING), 404);
      expect(missing).toBe("Task signature not found.");
      expect(failure(await signature(h, b, row.id), 404)).toBe(missing);
      expect(failure(await signature(h, b, 9_999_999_999), 404)).toBe(missing);
      for (const bad of ["abc", "0", "-1", "1.5", "01", "99999999999"]) expect(invalid(await signature(h, b, bad)), bad).toHaveProperty("taskStatusId");
      expect((await signature(h, a, row.id)).status).toBe(200);
    });
  });
});

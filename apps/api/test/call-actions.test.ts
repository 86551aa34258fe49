import { expect, it } from "vitest";
import { CallActionResponseSchema, CallActionsResponseSchema, CallActionTypesResponseSchema, GeoCreatedSchema, GeoOkSchema as OkSchema } from "@fleet/contracts";
import { recordEvents } from "@fleet/db";
import { uniqueSuffix } from "@fleet/testkit";
import { describeApi, failure, invalid, ok, type ApiHarness, type TestUser } from "./fixture.js";

/* The vendor's call actions: an operator's log of the calls made about the user's devices and their events. */


const store = async (h: ApiHarness, user: TestUser, body: Record<string, unknown>) => ok(await h.post("/call_actions/store", { user, body }), CallActionResponseSchema);
const listed = async (h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) => ok(await h.get("/call_actions", { user, query }), CallActionsResponseSchema);

/** An overspeed alert of the user's on the device, and an event it raised; their ids. */
async function alertAndEvent(h: ApiHarness, user: TestUser, device: number): Promise<{ alert: number; event: number }> {
  const alert = ok(await h.post("/add_alert", { user, body: { name: "Too fast", type: "overspeed", devices: [device], overspeed: 90 } }), GeoCreatedSchema).id;
  const [row] = await recordEvents(h.db, [
    { userId: user.id, deviceId: device, alertId: alert, type: "overspeed", message: "Overspeed", time: new Date("2026-11-20T08:00:00Z"), latitude: 54.7, longitude: 25.3, speedKmh: 120, altitudeM: 100, dedupeKey: `k-${uniqueSuffix()}` },
  ]);
  return { alert, event: row!.id };
}

describeApi("call actions", (h) => {
  it("logs a call about an event, naming the event's alert, in the user's clock; lists the latest call first", async () => {
    const user = await h.newUser({ timezoneId: 0 });
    const van = await h.addDevice(user);
    const { alert, event } = await alertAndEvent(h, user, van);
    const first = await store(h, user, { device_id: van, event_id: event, called_at: "2026-11-20 08:05:00", response_type: "no_answer", remarks: "Rang twice" });
    expect(first).toEqual({
      status: 1,
      id: expect.any(Number),
      user_id: user.id,
      device_id: van,
      event_id: event,
      alert_id: alert,
      called_at: "2026-11-20 08:05:00",
      response_type: "no_answer",
      remarks: "Rang twice",
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    // Without event or alert, those fields are left out; without called_at, the call is now.
    const second = await store(h, user, { device_id: van, response_type: "answer" });
    expect(second).not.toHaveProperty("event_id");
    expect(second).not.toHaveProperty("alert_id");
    expect(second.remarks).toBe("");
    expect(Math.abs(Date.parse(`${second.called_at}Z`) - Date.now())).toBeLessThan(60_000);

    const page = await listed(h, user);
    expect(page.data.map((a) => a.id)).toEqual([second.id, first.id]);
    expect(page.pagination).toEqual({ total: 2, per_page: 10, current_page: 1, last_page: 1, next_page_url: null, prev_page_url: null, url: "/api/call_actions" });
    const { status: _status, ...record } = first;
    expect(ok(await h.get(`/call_actions/${first.id}`, { user }), CallActionResponseSchema)).toEqual({ status: 1, ...record });
    expect((await listed(h, user, { per_page: 1, page: 2 })).data.map((a) => a.id)).toEqual([first.id]);
  });

  it("updates by PUT, keeping what is left out, and deletes at the vendor's `destory` path", async () => {
    const user = await h.newUser({ timezoneId: 0 });
    const [van, car] = [await h.addDevice(user), await h.addDevice(user)];
    const logged = await store(h, user, { device_id: van, response_type: "no_response", called_at: "2026-11-21 10:00:00" });
    ok(await h.request("PUT", `/call_actions/update/${logged.id}`, { user, body: { response_type: "answer", remarks: "Driver fine" } }), OkSchema);
    expect(ok(await h.get(`/call_actions/${logged.id}`, { user }), CallActionResponseSchema)).toMatchObject({ device_id: van, response_type: "answer", remarks: "Driver fine", called_at: "2026-11-21 10:00:00" });
    ok(await h.request("PUT", `/call_actions/update/${logged.id}`, { user, body: { device_id: car } }), OkSchema);
    expect((await listed(h, user, { device_id: car })).data.map((a) => a.id)).toEqual([logged.id]);
    expect((await listed(h, user, { device_id: van })).data).toEqual([]);
    ok(await h.request("DELETE", `/call_actions/destory/${logged.id}`, { user }), OkSchema);
    failure(await h.get(`/call_actions/${logged.id}`, { user }), 404);
    expect((await listed(h, user)).data).toEqual([]);
  });

  it("refuses another user's call action like a missing one, and another user's device, event or alert, writing nothing", async () => {
    const [owner, other] = [await h.newUser(), await h.newUser()];
    const mine = await h.addDevice(owner);
    const theirs = await h.addDevice(other);
    const own = await alertAndEvent(h, owner, mine);
    const foreign = await alertAndEvent(h, other, theirs);
    const logged = await store(h, owner, { device_id: mine, event_id: own.event, response_type: "answer", remarks: "Private note" });
    for (const id of [logged.id, logged.id + 1_000_000]) {
      expect(failure(await h.get(`/call_actions/${id}`, { user: other }), 404)).toBe("Call action not found.");
      failure(await h.request("PUT", `/call_actions/update/${id}`, { user: other, body: { remarks: "Mine now" } }), 404);
      failure(await h.request("DELETE", `/call_actions/destory/${id}`, { user: other }), 404);
    }
    expect(invalid(await h.post("/call_actions/store", { user: other, body: { device_id: mine, response_type: "answer" } }))).toEqual({ device_id: "The selected device id is invalid." });
    expect(invalid(await h.post("/call_actions/store", { user: other, body: { device_id: theirs, event_id: own.event, alert_id: own.alert, response_type: "answer" } }))).toEqual({
      event_id: "The selected event id is invalid.",
      alert_id: "The selected alert id is invalid.",
    });
    // An event of another of the user's own devices is not this device's.
    const car = await h.addDevice(other);
    expect(invalid(await h.post("/call_actions/store", { user: other, body: { device_id: car, event_id: foreign.event, response_type: "answer" } }))).toEqual({ event_id: "The selected event id is invalid." });
    expect(invalid(await h.request("PUT", `/call_actions/update/${logged.id}`, { user: owner, body: { alert_id: foreign.alert } }))).toEqual({ alert_id: "The selected alert id is invalid." });
    expect((await listed(h, other)).data).toEqual([]);
    expect((await listed(h, owner)).data).toEqual([expect.objectContaining({ id: logged.id, remarks: "Private note", alert_id: own.alert })]);
  });

  it("keeps the log when its event or alert goes, and drops it with the device", async () => {
    const user = await h.newUser();
    const van = await h.addDevice(user);
    const { alert, event } = await alertAndEvent(h, user, van);
    const logged = await store(h, user, { device_id: van, event_id: event, response_type: "answer" });
    ok(await h.get("/destroy_alert", { user, query: { alert_id: alert } }), OkSchema);
    ok(await h.get("/destroy_events", { user }), OkSchema);
    const kept = ok(await h.get(`/call_actions/${logged.id}`, { user }), CallActionResponseSchema);
    expect(kept).not.toHaveProperty("event_id");
    expect(kept).not.toHaveProperty("alert_id");
    ok(await h.get("/destroy_device", { user, query: { device_id: van } }), OkSchema);
    failure(await h.get(`/call_actions/${logged.id}`, { user }), 404);
    expect((await listed(h, user)).pagination.total).toBe(0);
  });

  it("lists the event and response types, and names what is wrong with a body", async () => {
    const user = await h.newUser();
    const events = ok(await h.get("/call_actions/event_types", { user }), CallActionTypesResponseSchema).types;
    expect(events).toEqual(expect.arrayContaining([{ type: "zone_in", title: "Zone in" }, { type: "overspeed", title: "Overspeed" }]));
    expect(ok(await h.get("/call_actions/response_types", { user }), CallActionTypesResponseSchema)).toEqual({
      status: 1,
      types: [
        { type: "answer", title: "Answer" },
        { type: "no_answer", title: "No answer" },
        { type: "no_response", title: "No response" },
      ],
    });
    const van = await h.addDevice(user);
    expect(Object.keys(invalid(await h.post("/call_actions/store", { user, body: { device_id: van } })))).toEqual(["response_type"]);
    expect(Object.keys(invalid(await h.post("/call_actions/store", { user, body: { device_id: van, response_type: "busy" } })))).toEqual(["response_type"]);
    expect(invalid(await h.post("/call_actions/store", { user, body: { device_id: van, response_type: "answer", called_at: "2026-02-30 10:00:00" } }))).toEqual({
      called_at: "The called at is not a valid date-time between 1970 and 2100.",
    });
    expect((await listed(h, user)).data).toEqual([]);
  });
});

/*
 * get_events, destroy_events, get_events_by_protocol and the `events` of get_devices_latest,
 * through HTTP, with events recorded as the rules service records them (recordEvents).
 */
import { beforeAll, expect, it } from "vitest";
import {
  AddCustomEventResponseSchema, DestroyEventsResponseSchema, EventsByProtocolResponseSchema, GeoCreatedSchema, GeoOkSchema, GetDevicesLatestResponseSchema, GetEventsResponseSchema, UTC_TIMEZONE_ID,
} from "@fleet/contracts";
import { recordEvents, type EventInput } from "@fleet/db";
import { uniqueSuffix } from "@fleet/testkit";
import { describeApi, invalid, nextSecond, ok, type ApiHarness, type TestUser } from "./fixture.js";
import { geofenceBody } from "./matrix/geo.js";

/** UTC+02:00 in the vendor's catalogue (15-minute steps from UTC's id). */
const UTC_PLUS_2 = UTC_TIMEZONE_ID + 8;

function event(user: TestUser, deviceId: number, time: string, overrides: Partial<EventInput> = {}): EventInput {
  return { userId: user.id, deviceId, type: "overspeed", message: "Overspeed", time: new Date(time), latitude: 54.7, longitude: 25.3, speedKmh: 100, altitudeM: 100, dedupeKey: `k-${uniqueSuffix()}`, ...overrides };
}

describeApi("events", (h: ApiHarness) => {
  let a: TestUser;
  let b: TestUser;
  let van: number;
  let truck: number;
  let theirs: number;
  const list = async (user: TestUser, query: Record<string, string | number> = {}) => ok(await h.get("/get_events", { user, query }), GetEventsResponseSchema).items;
  const messages = async (user: TestUser, query: Record<string, string | number> = {}) => (await list(user, query)).data.map((e) => e.message);

  beforeAll(async () => {
    a = await h.newUser({ timezoneId: UTC_PLUS_2, unitOfDistance: "mi", unitOfAltitude: "ft" });
    b = await h.newUser();
    [van, truck] = [await h.addDevice(a, { name: "Blue van" }), await h.addDevice(a, { name: "Truck 50%" })];
    theirs = await h.addDevice(b, { name: "Their van" });
    await recordEvents(h.db, [
      // 23:30 on 1 May on the account's clock (UTC+2), and 00:30 on 2 May.
      event(a, van, "2025-05-01T21:30:00Z", { message: "Late overspeed", address: "Harbour road 5" }),
      event(a, van, "2025-05-01T22:30:00Z", { type: "geofence_in", message: "Zone in", course: 90, power: 12.5, positionId: 1_745_000_000_123 }),
      event(a, truck, "2025-05-02T09:00:00Z", { type: "sos", message: "SOS pressed" }),
      event(b, theirs, "2025-05-02T10:00:00Z", { message: "Their secret event" }),
    ]);
  });

  it("lists the user's events newest first, as Event records on the account's clock and in its units", async () => {
    const items = await list(a);
    expect(items).toMatchObject({ total: 3, per_page: 30, current_page: 1, last_page: 1, from: 1, to: 3 });
    expect(items.data.map((e) => e.message)).toEqual(["SOS pressed", "Zone in", "Late overspeed"]);
    expect(items.data[1]).toEqual({
      id: expect.any(Number),
      user_id: a.id,
      device_id: van,
      geofence_id: 0,
      position_id: 1_745_000_000_123,
      alert_id: 0,
      type: "geofence_in",
      message: "Zone in",
      // Recorded without an address: named by the geocoder (the offline one: the nearest town).
      address: "Vilnius, LT",
      time: "2025-05-02 00:30:00",
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      // 100 km/h and 100 m in mph and ft.
      speed: 62,
      altitude: 328,
      latitude: 54.7,
      longitude: 25.3,
      course: 90,
      power: 12.5,
      deleted: 0,
      sound: 0,
      push: 0,
    });
    expect(items.data[2]!.address).toBe("Harbour road 5");
    expect(await messages(b)).toEqual(["Their secret event"]);
  });

  it("shows '-' for an event the geocoder cannot name (mid-ocean, far from any town)", async () => {
    const user = await h.newUser();
    const boat = await h.addDevice(user, { name: "Boat" });
    await recordEvents(h.db, [event(user, boat, "2025-05-03T09:00:00Z", { message: "Mid-Atlantic", latitude: 0, longitude: -30 })]);
    expect((await list(user)).data.map((e) => [e.message, e.address])).toEqual([["Mid-Atlantic", "-"]]);
  });

  it("filters by device, type, a period on the account's clock and text in the message, the device's name or the address", async () => {
    expect(await messages(a, { device_id: van })).toEqual(["Zone in", "Late overspeed"]);
    expect(await messages(a, { type: "sos" })).toEqual(["SOS pressed"]);
    expect(await messages(a, { type: "" })).toHaveLength(3);
    // A local day: 2 May begins at 22:00 UTC on 1 May.
    expect(await messages(a, { date_from: "2025-05-02", date_to: "2025-05-02" })).toEqual(["SOS pressed", "Zone in"]);
    expect(await messages(a, { date_to: "2025-05-01" })).toEqual(["Late overspeed"]);
    // A date-time's own second is included whole; one with an offset is read at that offset.
    expect(await messages(a, { date_from: "2025-05-02 00:30:00", date_to: "2025-05-02 00:30:00" })).toEqual(["Zone in"]);
    expect(await messages(a, { date_from: "2025-05-01T21:30:00Z", date_to: "2025-05-01T21:30:00Z" })).toEqual(["Late overspeed"]);
    expect(await messages(a, { search: "zone" })).toEqual(["Zone in"]);
    expect(await messages(a, { search: "HARBOUR" })).toEqual(["Late overspeed"]);
    expect(await messages(a, { search: "blue VAN" })).toEqual(["Zone in", "Late overspeed"]);
    expect(await messages(a, { search: "50%" })).toEqual(["SOS pressed"]);
    expect(await messages(a, { search: "  " })).toHaveLength(3);
    // Another user's names and messages match nothing.
    expect(await messages(a, { search: "their" })).toEqual([]);
    expect(await messages(a, { search: "van", type: "geofence_in", device_id: van, date_from: "2025-05-02" })).toEqual(["Zone in"]);
  });

  it("refuses a filter that names nothing with a 422 on its field, and another user's device as a missing one", async () => {
    expect(invalid(await h.get("/get_events", { user: a, query: { type: "teleport" } }))).toEqual({ type: "The selected type is invalid." });
    expect(invalid(await h.get("/get_events", { user: a, query: { date_from: "2025-02-30" } }))).toEqual({ date_from: "The date from is not a valid date." });
    expect(invalid(await h.get("/get_events", { user: a, query: { date_from: "yesterday" } }))).toHaveProperty("date_from");
    expect(invalid(await h.get("/get_events", { user: a, query: { date_from: "2025-05-02", date_to: "2025-05-01" } }))).toEqual({ date_to: "The date to must be a date after or equal to date from." });
    const foreign = await h.get("/get_events", { user: a, query: { device_id: theirs } });
    const missing = await h.get("/get_events", { user: a, query: { device_id: 2_000_000_000 } });
    expect([foreign.status, foreign.body]).toEqual([404, { status: 0, error: "Device not found." }]);
    expect([missing.status, missing.body]).toEqual([foreign.status, foreign.body]);
  });

  it("pages 30 at a time unless asked, with the last page partial and a page past it empty", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    const base = Date.UTC(2025, 6, 1);
    await recordEvents(h.db, Array.from({ length: 65 }, (_, i) => event(user, device, new Date(base + i * 60_000).toISOString(), { message: `E${i}` })));
    const first = await list(user);
    expect(first).toMatchObject({ total: 65, per_page: 30, current_page: 1, last_page: 3, from: 1, to: 30, prev_page_url: null });
    expect(first.data[0]!.message).toBe("E64");
    expect(first.next_page_url).toContain("page=2");
    const second = await list(user, { page: 2 });
    // Page boundaries meet: no event twice, none skipped.
    expect([first.data.at(-1)!.message, second.data[0]!.message]).toEqual(["E35", "E34"]);
    const last = await list(user, { page: 3 });
    expect(last).toMatchObject({ current_page: 3, from: 61, to: 65, next_page_url: null });
    expect(last.data.map((e) => e.message)).toEqual(["E4", "E3", "E2", "E1", "E0"]);
    expect(await list(user, { page: 4 })).toMatchObject({ total: 65, from: 0, to: 0, data: [] });
    expect(await list(user, { per_page: 50, page: 2 })).toMatchObject({ per_page: 50, last_page: 2, from: 51, to: 65 });
    expect(await list(user, { limit: 10 })).toMatchObject({ per_page: 10, last_page: 7 });
  });

  it("leaves out the events of a device taken from the user, in get_events, and shows them again when it is given back", async () => {
    const user = await h.newUser();
    const [kept, taken] = [await h.addDevice(user), await h.addDevice(user)];
    // Shared with the administrator, so taking it from the user leaves it in use.
    ok(await h.post(`/admin/device/${taken}/user`, { user: h.admin, body: { user_id: h.admin.id } }), GeoOkSchema);
    await recordEvents(h.db, [event(user, kept, "2025-05-03T10:00:00Z", { message: "Kept" }), event(user, taken, "2025-05-03T11:00:00Z", { message: "Taken" })]);
    expect(await messages(user)).toEqual(["Taken", "Kept"]);
    ok(await h.request("DELETE", `/admin/device/${taken}/user`, { user: h.admin, query: { user_id: user.id } }), GeoOkSchema);
    expect(await messages(user)).toEqual(["Kept"]);
    expect((await list(user)).total).toBe(1);
    ok(await h.post(`/admin/device/${taken}/user`, { user: h.admin, body: { user_id: user.id } }), GeoOkSchema);
    expect(await messages(user)).toEqual(["Taken", "Kept"]);
  });

  it("destroy_events deletes every event of the user and leaves other users' alone", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    await recordEvents(h.db, [event(user, device, "2025-05-03T10:00:00Z"), event(user, device, "2025-05-03T11:00:00Z")]);
    const before = await list(b);
    expect(ok(await h.get("/destroy_events", { user }), DestroyEventsResponseSchema)).toEqual({ status: 1 });
    expect((await list(user)).total).toBe(0);
    expect(await list(b)).toEqual(before);
    expect((await list(a)).total).toBe(3);
  });

  it("lists in get_devices_latest an event recorded after `time`, once, with its device, geofence and address, and lists its device as changed", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user, { name: "Polled van" });
    await h.addDevice(user, { name: "Quiet van" });
    const fence = ok(await h.post("/add_geofence", { user, body: geofenceBody({ name: "Depot" }) }), GeoCreatedSchema).id;
    const latest = async (who: TestUser, time?: number) => ok(await h.get("/get_devices_latest", { user: who, query: time === undefined ? {} : { time } }), GetDevicesLatestResponseSchema);
    // Past the second in which the devices were added: a poll from it would list them.
    await nextSecond();

    const first = await latest(user);
    expect(first.events).toEqual([]);
    await nextSecond();
    const bFirst = await latest(b);
    const [recorded] = await recordEvents(h.db, [event(user, device, "2025-05-04T10:00:00Z", { type: "geofence_in", message: "Zone in", geofenceId: fence })]);
    await nextSecond();

    const second = await latest(user, first.time);
    expect(second.items.map((i) => i.id)).toEqual([device]);
    expect(second.events).toHaveLength(1);
    expect(second.events[0]).toMatchObject({ id: recorded!.id, device_id: device, geofence_id: fence, message: "Zone in", geofence: { id: fence, name: "Depot" }, device: { id: device, name: "Polled van" } });
    // Recorded without an address: named as get_events names it.
    expect([second.events[0]!.address, (await list(user)).data.find((e) => e.id === recorded!.id)?.address]).toEqual(["Vilnius, LT", "Vilnius, LT"]);
    // Listed once: the next poll, a second later, starts where this one's window ended.
    await nextSecond();
    expect((await latest(user, second.time)).events).toEqual([]);
    // Nobody else is told.
    expect((await latest(b, bFirst.time)).events).toEqual([]);
    // A replay of the same event (same key) records and tells nothing.
    expect(await recordEvents(h.db, [event(user, device, "2025-05-04T10:00:00Z", { dedupeKey: recorded!.dedupeKey })])).toEqual([]);
  });

  it("carries the alert's sound and push flags on the event, as 0/1, in get_events and get_devices_latest", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user, { name: "Loud van" });
    const latest = async (time?: number) => ok(await h.get("/get_devices_latest", { user, query: time === undefined ? {} : { time } }), GetDevicesLatestResponseSchema);
    await nextSecond();
    const first = await latest();
    await nextSecond();
    await recordEvents(h.db, [
      event(user, device, "2025-05-05T10:00:00Z", { message: "Both", sound: true, push: true }),
      event(user, device, "2025-05-05T10:01:00Z", { message: "Sound only", sound: true, push: false }),
      event(user, device, "2025-05-05T10:02:00Z", { message: "Push only", push: true }),
      event(user, device, "2025-05-05T10:03:00Z", { message: "Neither" }),
    ]);
    const expected = [
      { message: "Both", sound: 1, push: 1 },
      { message: "Sound only", sound: 1, push: 0 },
      { message: "Push only", sound: 0, push: 1 },
      { message: "Neither", sound: 0, push: 0 },
    ];
    const flags = (e: { message: string; sound: number; push: number }) => ({ message: e.message, sound: e.sound, push: e.push });
    // get_events: newest first.
    expect((await list(user)).data.map(flags)).toEqual([...expected].reverse());
    await nextSecond();
    // The live poll: oldest first.
    expect((await latest(first.time)).events.map(flags)).toEqual(expected);
  });

  it("get_events_by_protocol lists the user's custom events of the protocol for type 1 and none for system events", async () => {
    const user = await h.newUser();
    const add = async (protocol: string, message: string) =>
      ok(await h.post("/add_custom_event", { user, body: { protocol, message, tag: ["speed"], type: [2], tag_value: ["100"] } }), AddCustomEventResponseSchema).id;
    const [fast, slow] = [await add("osmand", "Too fast"), await add("osmand", "Too slow")];
    await add("teltonika", "Other protocol");
    const byProtocol = async (query: Record<string, string | number>) => ok(await h.get("/get_events_by_protocol", { user, query }), EventsByProtocolResponseSchema);
    expect(await byProtocol({ protocol: "osmand", type: 1 })).toEqual({
      0: { id: 0, value: { id: fast, value: "Too fast", title: "Too fast" }, title: { id: fast, value: "Too fast", title: "Too fast" } },
      1: { id: 1, value: { id: slow, value: "Too slow", title: "Too slow" }, title: { id: slow, value: "Too slow", title: "Too slow" } },
      status: 1,
    });
    expect(await byProtocol({ protocol: "osmand", type: 2 })).toEqual({ status: 1 });
    expect(await byProtocol({ protocol: "gps103", type: 1 })).toEqual({ status: 1 });
    // Another user's custom events of the protocol are not listed.
    expect(ok(await h.get("/get_events_by_protocol", { user: b, query: { protocol: "osmand", type: 1 } }), EventsByProtocolResponseSchema)).toEqual({ status: 1 });
    expect(invalid(await h.get("/get_events_by_protocol", { user, query: { protocol: "nonsense", type: 1 } }))).toHaveProperty("protocol");
    expect(invalid(await h.get("/get_events_by_protocol", { user, query: { protocol: "osmand", type: 3 } }))).toHaveProperty("type");
  });
});

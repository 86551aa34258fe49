import { describe, expect, it } from "vitest";
import { AddSensorResponseSchema, DeleteHistoryPositionsResponseSchema, EditSetupResponseSchema, GetHistoryMessagesResponseSchema, GetHistoryResponseSchema, OkSchema, type Attributes, type HistoryRow } from "@fleet/contracts";
import { describeApi, failure, invalid, ok, type ApiHarness, type TestUser } from "./fixture.js";

/*
 * get_history_messages and delete_history_positions over positions written straight to the
 * history store (chDB): pages, the user's clock and units, sensors read at each fix, deletes
 * seen at once and other users' ids ignored. Exports are in history-export.test.ts.
 */

const T0 = Date.UTC(2026, 0, 15, 8, 0, 0);
const DAY = { from_date: "2026-01-15", from_time: "00:00", to_date: "2026-01-15", to_time: "23:59:59" };
/** km per degree of latitude on the sphere @fleet/geo measures with. */
const KM_PER_DEGREE_LAT = (6371.0088 * Math.PI) / 180;
/** The vendor's timezone id of UTC+01:00 (57 is UTC, each step 15 minutes). */
const TZ_PLUS_1 = 61;

let nextId = 1;
/** A fix of the device `i` × `everyS` seconds after `start`, with a position id unique in the suite. */
function fix(deviceId: number, i: number, overrides: Partial<HistoryRow> = {}, start = T0, everyS = 10): HistoryRow {
  const fixTime = start + i * everyS * 1000;
  return {
    id: 1_000_000 + nextId++,
    deviceId,
    uniqueId: `imei-${deviceId}`,
    protocol: "osmand",
    latitude: 54.6872 + i / 10_000,
    longitude: 25.2797,
    altitude: 100,
    course: 90,
    speedKmh: 50,
    distanceKm: 0.125,
    fixTime,
    serverTime: fixTime + 2000,
    valid: true,
    engineOn: true,
    attributes: {},
    ...overrides,
  };
}

async function messages(h: ApiHarness, user: TestUser, deviceId: number, query: Record<string, string | number> = {}) {
  return ok(await h.get("/get_history_messages", { user, query: { device_id: deviceId, ...DAY, ...query } }), GetHistoryMessagesResponseSchema);
}

async function setup(h: ApiHarness, user: TestUser, settings: Record<string, unknown>) {
  const body = { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, groups: [], sms_gateway: 0, ...settings };
  ok(await h.post("/edit_setup", { user, body }), EditSetupResponseSchema);
}

describeApi("get_history_messages and delete_history_positions", (h) => {
  describe("pages", () => {
    it("pages a device's positions oldest first, at page boundaries and on the last page", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const rows = Array.from({ length: 120 }, (_, i) => fix(device, i));
      await h.history.insert([...rows.slice(60), ...rows.slice(0, 60)]);
      await h.history.insert([fix(device, 0, {}, T0 - 86_400_000)]); // the day before: not in the range

      const first = await messages(h, user, device);
      expect(first.messages.data.map((p) => Number(p.id))).toEqual(rows.slice(0, 50).map((r) => r.id));
      expect({ ...first.messages, data: undefined }).toEqual({
        total: 120,
        per_page: 50,
        current_page: 1,
        last_page: 3,
        from: 1,
        to: 50,
        next_page_url: expect.stringContaining("page=2"),
        prev_page_url: null,
        url: "/api/get_history_messages",
        data: undefined,
      });
      expect([first.limit, first.sorting, first.pagination_limits]).toEqual([50, "asc", { 50: 50, 100: 100, 200: 200, 400: 400 }]);

      const second = await messages(h, user, device, { page: 2 });
      expect(second.messages.data.map((p) => Number(p.id))).toEqual(rows.slice(50, 100).map((r) => r.id));
      const last = await messages(h, user, device, { page: 3 });
      expect(last.messages.data.map((p) => Number(p.id))).toEqual(rows.slice(100).map((r) => r.id));
      expect([last.messages.from, last.messages.to, last.messages.next_page_url, last.messages.prev_page_url]).toEqual([101, 120, null, expect.stringContaining("page=2")]);
      const past = await messages(h, user, device, { page: 4 });
      expect([past.messages.data, past.messages.from, past.messages.to, past.messages.total]).toEqual([[], 0, 0, 120]);

      const big = await messages(h, user, device, { limit: 100, page: 2 });
      expect([big.limit, big.messages.per_page, big.messages.last_page, big.messages.data.length]).toEqual([100, 100, 2, 20]);
      expect(big.messages.data[0]!.id).toBe(String(rows[100]!.id));
    });

    it("takes only the page sizes it lists", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      for (const limit of [400, 200]) expect((await messages(h, user, device, { limit })).limit).toBe(limit);
      for (const limit of ["25", "0", "500", "abc", "50.0"]) {
        expect(Object.keys(invalid(await h.get("/get_history_messages", { user, query: { device_id: device, ...DAY, limit } }))), limit).toEqual(["limit"]);
      }
    });

    it("answers an empty period with an empty first page", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const body = await messages(h, user, device);
      expect([body.messages.total, body.messages.last_page, body.messages.from, body.messages.to, body.messages.data]).toEqual([0, 1, 0, 0, []]);
    });
  });

  describe("each row's distance", () => {
    it("is the track's step to it, as get_history measures it: a period's rows add up to its distance, across pages, late rows and a GPS spike", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      // 120 fixes 10 s and about 11 m apart (stored steps of 125 m, as a tracker that measured them
      // in the order they came might have), one of them 33 km off the road.
      const rows = Array.from({ length: 120 }, (_, i) => fix(device, i, i === 70 ? { latitude: 55 } : {}));
      await h.history.insert([...rows.slice(0, 40), ...rows.slice(41), rows[40]!]);
      const pages = await Promise.all([1, 2, 3].map((page) => messages(h, user, device, { page })));
      const steps = pages.flatMap((p) => p.messages.data.map((m) => Number(m.distance)));
      expect(steps).toHaveLength(120);
      expect([steps[0], steps[70]]).toEqual([0, 0]);
      const summed = steps.reduce((a, b) => a + b, 0);
      // Each row is rounded to the millimetre.
      expect(summed).toBeCloseTo(119 * (0.0001 * KM_PER_DEGREE_LAT), 3);
      const grouped = ok(await h.get("/get_history", { user, query: { device_id: device, ...DAY } }), GetHistoryResponseSchema);
      expect(grouped.distance_sum).toBe(`${summed.toFixed(2)} km`);
    });
  });

  describe("a position's record", () => {
    it("shows the fix in the user's units and on the user's clock, with its attributes", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const row = fix(device, 0, { speedKmh: 100, altitude: 100, distanceKm: 1.609344, course: 271.5, attributes: { battery: 73, ip: "78.63.151.5", power: 12.6, note: "<a&b>" } });
      // A mile due south of it, 10 s before: the step to the row is a mile.
      const before = fix(device, -1, { latitude: row.latitude - 1.609344 / KM_PER_DEGREE_LAT });
      await h.history.insert([before, row]);
      await setup(h, user, { timezone_id: TZ_PLUS_1 });
      const shown = (await messages(h, user, device)).messages.data;
      expect(shown.map((p) => p.distance)).toEqual(["0", "1.609344"]);
      const km = shown[1]!;
      expect(km).toEqual({
        id: String(row.id),
        device_id: String(device),
        altitude: 100,
        course: "271.5",
        latitude: "54.6872",
        longitude: "25.2797",
        other: "<info><battery>73</battery><ip>78.63.151.5</ip><power>12.6</power><note>&lt;a&amp;b&gt;</note></info>",
        power: "12.6",
        speed: 100,
        time: "2026-01-15 09:00:00",
        server_time: "2026-01-15 09:00:02",
        valid: "1",
        distance: "1.609344",
        protocol: "osmand",
        sensor_id: String(row.id),
        sort: T0 / 1000,
        other_arr: ["battery: 73", "ip: 78.63.151.5", "power: 12.6", "note: <a&b>"],
        popup_sensors: {},
        sensors_value: {},
      });
      await setup(h, user, { timezone_id: TZ_PLUS_1, unit_of_distance: "mi", unit_of_altitude: "ft" });
      const mi = (await messages(h, user, device)).messages.data[1]!;
      expect([mi.speed, mi.altitude, mi.distance]).toEqual([62, 328, "1"]);
    });

    it("shows the same other and other_arr as get_history, whatever the attributes hold, and power as the device sent it where get_history reads it as a number", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const odd: Attributes[] = [
        { power: "12.50", note: "<a href='x'>\"&\"</a>", path: "C:\\dir\t\n", odd: "\uFFFEΩ\uFFFF", "2": true },
        { power: true, sat: 0 },
        { power: " 1e3 " },
        { power: "volts" },
        {},
      ];
      await h.history.insert(odd.map((attributes, i) => fix(device, i, { attributes })));
      const records = (await messages(h, user, device)).messages.data;
      const grouped = ok(await h.get("/get_history", { user, query: { device_id: device, ...DAY } }), GetHistoryResponseSchema);
      const items = new Map(grouped.items.flatMap((g) => g.items.map((p) => [Number(p.id), p])));
      expect(records.map((r) => [r.other, r.other_arr])).toEqual(records.map((r) => [items.get(Number(r.id))!.other, items.get(Number(r.id))!.other_arr]));
      expect(records.map((r) => r.power)).toEqual(["12.50", "true", " 1e3 ", "volts", null]);
      expect(records.map((r) => items.get(Number(r.id))!.power)).toEqual([12.5, 1, 1000, null, null]);
      expect(records[0]!.other).toBe("<info><2>true</2><power>12.50</power><note>&lt;a href=&apos;x&apos;&gt;&quot;&amp;&quot;&lt;/a&gt;</note><path>C:\\dir\t\n</path><odd>Ω</odd></info>");
    });

    it("reads every sensor at each fix, the popup ones also under popup_sensors, and lists the device's sensors", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const sensor = async (body: Record<string, unknown>) => ok(await h.post("/add_sensor", { user, query: { device_id: device }, body }), AddSensorResponseSchema).id;
      const battery = await sensor({ sensor_type: "battery", sensor_name: "Battery", tag_name: "power", unit_of_measurement: "V", formula: "[value]/1000", show_in_popup: 1 });
      const ignition = await sensor({ sensor_type: "ignition", sensor_name: "Ignition", tag_name: "ignition", on_value: "true", off_value: "false", unit_of_measurement: "", show_in_popup: 0 });
      const odometer = await sensor({ sensor_type: "odometer", sensor_name: "Odometer", odometer_value_by: "virtual_odometer", odometer_value: "1000", unit_of_measurement: "", show_in_popup: 1 });
      await h.history.insert([fix(device, 0, { attributes: { power: 12600, ignition: true } }), fix(device, 1, { attributes: { ignition: false } })]);

      const body = await messages(h, user, device);
      expect(body.sensors.map((s) => [s.id, s.name, s.type])).toEqual([
        [String(battery), "Battery", "battery"],
        [String(ignition), "Ignition", "ignition"],
        [String(odometer), "Odometer", "odometer"],
      ]);
      const [a, b] = body.messages.data;
      expect(a!.sensors_value).toEqual({ [battery]: "12.6 V", [ignition]: "On", [odometer]: "-" });
      expect(a!.popup_sensors).toEqual({ [battery]: { name: "Battery", value: "12.6 V" }, [odometer]: { name: "Odometer", value: "-" } });
      expect(b!.sensors_value).toEqual({ [battery]: "-", [ignition]: "Off", [odometer]: "-" });

      // A sensor deleted between two pages is gone from the next one.
      ok(await h.get("/destroy_sensor", { user, query: { sensor_id: odometer } }), OkSchema);
      const after = await messages(h, user, device);
      expect(after.sensors.map((s) => s.id)).toEqual([String(battery), String(ignition)]);
      expect(after.messages.data[0]!.sensors_value).toEqual({ [battery]: "12.6 V", [ignition]: "On" });
    });
  });

  describe("the period", () => {
    it("is the user's local day, 23 hours long across the spring DST switch", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      await setup(h, user, { timezone_id: TZ_PLUS_1, dst_type: "automatic", dst_country_id: 3 });
      // Every 30 minutes from 2026-03-28 22:00 UTC to 2026-03-30 01:30 UTC; Europe goes to summer time on 29 March, 01:00 UTC.
      const start = Date.UTC(2026, 2, 28, 22, 0, 0);
      await h.history.insert(Array.from({ length: 56 }, (_, i) => fix(device, i, {}, start, 1800)));
      const day = await messages(h, user, device, { from_date: "2026-03-29", from_time: "00:00", to_date: "2026-03-29", to_time: "23:59:59", limit: 400 });
      const times = day.messages.data.map((p) => p.time);
      expect(times).toHaveLength(46);
      expect([times[0], times[1], times[2], times[3], times.at(-1)]).toEqual(["2026-03-29 00:00:00", "2026-03-29 00:30:00", "2026-03-29 01:00:00", "2026-03-29 01:30:00", "2026-03-29 23:30:00"]);
      expect(times[4]).toBe("2026-03-29 03:00:00");
    });

    it("refuses a period that names nothing, runs backwards or spans over 31 days, naming the field", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const refused = async (period: Record<string, string>) => invalid(await h.get("/get_history_messages", { user, query: { device_id: device, ...DAY, ...period } }));
      expect(await refused({ from_time: "12:00", to_time: "11:59" })).toEqual({ to_time: "The to time must be at or after the from time." });
      expect(await refused({ to_date: "2026-01-14" })).toEqual({ to_date: "The to date must be at or after the from date." });
      expect(await refused({ to_date: "2026-02-16" })).toEqual({ to_date: "The period may not be longer than 31 days." });
      expect(await refused({ from_date: "2026-02-30" })).toEqual({ from_date: "The from date is not a valid date." });
      expect(Object.keys(await refused({ from_time: "noon" }))).toEqual(["from_time"]);
      expect(Object.keys(invalid(await h.get("/get_history_messages", { user, query: { device_id: device } })))).toEqual(["from_date", "from_time", "to_date", "to_time"]);
    });

    it("answers another user's device as a missing one", async () => {
      const [owner, other] = [await h.newUser(), await h.newUser()];
      const device = await h.addDevice(owner);
      await h.history.insert([fix(device, 0)]);
      const theirs = await h.get("/get_history_messages", { user: other, query: { device_id: device, ...DAY } });
      const missing = await h.get("/get_history_messages", { user: other, query: { device_id: 2_000_000_000, ...DAY } });
      expect(failure(theirs, 404)).toBe("Device not found.");
      expect(theirs.body).toEqual(missing.body);
    });
  });

  describe("delete_history_positions", () => {
    it("deletes the user's positions, gone from both history endpoints at once, and ignores other users' ids as missing ones", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const [da, db] = [await h.addDevice(a), await h.addDevice(b)];
      const ra = Array.from({ length: 60 }, (_, i) => fix(da, i));
      const rb = Array.from({ length: 60 }, (_, i) => fix(db, i));
      await h.history.insert([...ra, ...rb]);
      expect((await messages(h, b, db, { page: 2 })).messages.data[0]!.id).toBe(String(rb[50]!.id));

      const del = (user: TestUser, body: unknown, query?: Record<string, string | number>) => h.post("/delete_history_positions", { user, body, ...(query ? { query } : {}) });
      // B names two of A's positions, one that exists nowhere and two of its own.
      expect(ok(await del(b, { id: [ra[0]!.id, ra[55]!.id, 9_000_000_000, rb[0]!.id, rb[50]!.id] }), DeleteHistoryPositionsResponseSchema)).toEqual({ status: 1 });
      const after = await messages(h, b, db, { page: 2 });
      expect(after.messages.total).toBe(58);
      // Page 2 now starts 50 rows on: past the 49 left before rb[50] and rb[51].
      expect(after.messages.data.map((p) => Number(p.id))).toEqual(rb.slice(52).map((r) => r.id));
      expect((await messages(h, b, db)).messages.data[0]!.id).toBe(String(rb[1]!.id));
      // get_history reads the same store: the deleted fixes are gone from its groups too.
      const grouped = ok(await h.get("/get_history", { user: b, query: { device_id: db, ...DAY } }), GetHistoryResponseSchema);
      const shown = new Set(grouped.items.flatMap((g) => g.items.map((p) => Number(p.id))));
      expect([shown.has(rb[0]!.id), shown.has(rb[50]!.id), shown.has(rb[1]!.id), shown.has(rb[59]!.id)]).toEqual([false, false, true, true]);
      const untouched = await messages(h, a, da, { limit: 100 });
      expect(untouched.messages.data.map((p) => Number(p.id))).toEqual(ra.map((r) => r.id));

      // One id alone, as a form field, and with the Swagger's device_id.
      expect(ok(await h.post("/delete_history_positions", { user: b, as: "form", body: { id: rb[2]!.id } }), DeleteHistoryPositionsResponseSchema)).toEqual({ status: 1 });
      expect(ok(await del(b, { id: [rb[3]!.id] }, { device_id: db }), DeleteHistoryPositionsResponseSchema)).toEqual({ status: 1 });
      expect((await messages(h, b, db)).messages.total).toBe(56);
      // A's device named by B answers as a missing device, and deletes nothing.
      const theirs = await del(b, { id: [ra[1]!.id] }, { device_id: da });
      const missing = await del(b, { id: [ra[1]!.id] }, { device_id: 2_000_000_000 });
      expect(failure(theirs, 404)).toBe("Device not found.");
      expect(theirs.body).toEqual(missing.body);
      expect((await messages(h, a, da)).messages.total).toBe(60);
    });

    it("refuses ids that are not position ids, and more than 5,000 at once, deleting nothing; no id deletes nothing", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const row = fix(device, 0);
      await h.history.insert([row]);
      for (const id of ["abc", 0, -1, 1.5, [], [row.id, "x"], Array.from({ length: 5001 }, (_, i) => i + 1)]) {
        const fields = Object.keys(invalid(await h.post("/delete_history_positions", { user, body: { id } })));
        expect(fields.length > 0 && fields.every((f) => f === "id" || f.startsWith("id.")), `${JSON.stringify(id).slice(0, 40)} → ${fields.join()}`).toBe(true);
      }
      // No id (optional in the spec) selects nothing: nothing goes, and a foreign device is still refused.
      expect(ok(await h.post("/delete_history_positions", { user, body: {}, query: { device_id: device } }), DeleteHistoryPositionsResponseSchema)).toEqual({ status: 1 });
      failure(await h.post("/delete_history_positions", { user, body: {}, query: { device_id: device + 1_000_000 } }), 404);
      expect((await messages(h, user, device)).messages.total).toBe(1);
    });
  });
});

import { describe, expect, it } from "vitest";
import { AddSensorResponseSchema, AddUserDriverResponseSchema, GetHistoryResponseSchema, OkSchema, type HistoryGroup } from "@fleet/contracts";
import { recordEvents } from "@fleet/db";
import { TrackBuilder } from "@fleet/trips/testing";
import { getHistory } from "../src/domain/history.js";
import { liveRecordCache } from "../src/lib/live-records.js";
import { describeApi, invalid, ok, type ApiHarness, type TestUser } from "./fixture.js";

/*
 * get_history over tracks written to the history store (chDB) with known answers: the
 * groups, the user's units, the user's clock (a local day across midnight and across a
 * DST switch), the range checks and isolation. The cutting itself is tested group by
 * group in packages/trips.
 */

const T0 = Date.UTC(2026, 2, 10, 8, 0, 0);
const DAY = { from_date: "2026-03-10", from_time: "00:00", to_date: "2026-03-10", to_time: "23:59:59" };
/** The vendor's timezone ids: 57 is UTC, each step 15 minutes. */
const TZ_PLUS_1 = 61;
const TZ_PLUS_2 = 65;

let nextId = 1;
/** A track of this device, its position ids unique in the suite. */
const track = (deviceId: number, start = T0, everyS = 10) => new TrackBuilder(start, { deviceId, everyS, firstId: (nextId += 100_000) });

/** Drive 5 min, stand 10 min with the engine running, drive 5 min, from 08:00 UTC: fixes 0–30, 31–91, 92–121. */
const tenMinuteStop = (deviceId: number) => track(deviceId).fix().drive(300).stand(600).drive(300).rows;

async function history(h: ApiHarness, user: TestUser, deviceId: number, query: Record<string, string | number> = {}) {
  return ok(await h.get("/get_history", { user, query: { device_id: deviceId, ...DAY, ...query } }), GetHistoryResponseSchema);
}

const summary = (g: HistoryGroup) => ({ status: g.status, show: g.show, left: g.left, time: g.time, s: g.time_seconds, distance: g.distance, top: g.top_speed, avg: g.average_speed, items: g.items.length });

describeApi("get_history", (h) => {
  describe("groups", () => {
    it("answers a drive, a 10-minute stop and a drive in km, each group with its positions", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user, { min_moving_speed: 6 });
      const rows = tenMinuteStop(device);
      await h.history.insert(rows);
      const body = await history(h, user, device);
      expect(body.items.map(summary)).toEqual([
        { status: 3, show: "2026-03-10 08:00:00", left: "2026-03-10 08:00:00", time: null, s: 0, distance: 0, top: 0, avg: 0, items: 1 },
        { status: 1, show: "2026-03-10 08:00:00", left: "2026-03-10 08:05:10", time: "5min 10s", s: 310, distance: 5, top: 60, avg: 58, items: 32 },
        { status: 2, show: "2026-03-10 08:05:10", left: "2026-03-10 08:15:10", time: "10min 0s", s: 600, distance: 0, top: 0, avg: 0, items: 61 },
        { status: 1, show: "2026-03-10 08:15:10", left: "2026-03-10 08:20:10", time: "5min 0s", s: 300, distance: 5, top: 60, avg: 60, items: 31 },
        { status: 4, show: "2026-03-10 08:20:10", left: "2026-03-10 08:20:10", time: null, s: 0, distance: 0, top: 0, avg: 0, items: 1 },
      ]);
      expect(body.items.map((g) => [g.engine_work, g.engine_idle, g.engine_hours, g.fuel_consumption])).toEqual([
        [0, 0, 0, 0],
        [310, 0, 310, 0],
        [0, 600, 600, 0],
        [300, 0, 300, 0],
        [0, 0, 0, 0],
      ]);
      // A drive ends on the fix where its stop begins, which the stop starts with.
      expect(body.items[1]!.items.at(-1)).toEqual(body.items[2]!.items[0]);
      expect(body.items[0]!.items[0]).toEqual({
        id: rows[0]!.id,
        device_id: device,
        item_id: `i${rows[0]!.id}`,
        time: "2026-03-10 08:00:00",
        raw_time: "2026-03-10 08:00:00",
        server_time: "2026-03-10 08:00:00",
        sort: T0 / 1000,
        latitude: 54,
        longitude: 25,
        lat: 54,
        lng: 25,
        altitude: 100,
        course: 0,
        speed: 60,
        distance: 0,
        power: null,
        valid: "1",
        protocol: "osmand",
        other: "<info></info>",
        other_arr: [],
        sensors_data: [
          { id: "speed", value: 60 },
          { id: "altitude", value: 100 },
        ],
      });
      expect(body.items[1]!.items[1]!.distance).toBe(0.167);
      expect(body).toMatchObject({
        distance_sum: "10 km",
        top_speed: "60 kph",
        move_duration: "10min 10s",
        stop_duration: "10min 0s",
        fuel_consumption: "0",
        device: { id: String(device) },
        sensors: [
          { id: "speed", name: "Speed", sufix: "kph" },
          { id: "altitude", name: "Altitude", sufix: "m" },
        ],
        item_class: [
          { id: 1, value: "drive" },
          { id: 2, value: "stop" },
          { id: 3, value: "start" },
          { id: 4, value: "end" },
          { id: 5, value: "event" },
        ],
        status: 1,
      });
    });

    it("follows `stops`: with 60 s the 2-minute traffic stop is a stop, by default it stays in the drive", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      await h.history.insert(track(device).fix().drive(300).stand(120).drive(300).rows);
      expect((await history(h, user, device)).items.map((g) => g.status)).toEqual([3, 1, 4]);
      expect((await history(h, user, device, { stops: 60 })).items.map((g) => [g.status, g.time_seconds])).toEqual([
        [3, 0],
        [1, 310],
        [2, 120],
        [1, 300],
        [4, 0],
      ]);
      // snap_to_road is accepted and changes nothing.
      expect((await history(h, user, device, { snap_to_road: "true" })).items.map((g) => g.status)).toEqual([3, 1, 4]);
    });

    it("answers a device without positions in the range with no groups", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const body = await history(h, user, device);
      expect(body).toMatchObject({ items: [], distance_sum: "0 km", top_speed: "0 kph", move_duration: "0s", stop_duration: "0s" });
    });

    it("shows distances and speeds in miles and altitudes in feet for a user who chose them", async () => {
      const user = await h.newUser({ unitOfDistance: "mi", unitOfAltitude: "ft" });
      const device = await h.addDevice(user, { min_moving_speed: 6 });
      await h.history.insert(tenMinuteStop(device));
      const body = await history(h, user, device);
      expect(body.items.map((g) => [g.status, g.distance, g.top_speed, g.average_speed])).toEqual([
        [3, 0, 0, 0],
        [1, 3.11, 37, 36],
        [2, 0, 0, 0],
        [1, 3.11, 37, 37],
        [4, 0, 0, 0],
      ]);
      const item = body.items[1]!.items[1]!;
      expect([item.speed, item.altitude, item.distance, item.sensors_data]).toEqual([
        37,
        328,
        0.104,
        [
          { id: "speed", value: 37 },
          { id: "altitude", value: 328 },
        ],
      ]);
      expect(body).toMatchObject({ distance_sum: "6.21 mi", top_speed: "37 mph", sensors: [{ sufix: "mph" }, { sufix: "ft" }] });
    });

    it("shows each sensor's value at each position, and the fuel a fuel sensor saw used", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user, { min_moving_speed: 6 });
      const sensorBody = { sensor_type: "fuel_tank", sensor_name: "Tank", unit_of_measurement: "l", tag_name: "fuel", show_in_popup: 1 };
      const sensor = ok(await h.post("/add_sensor", { user, query: { device_id: device }, body: sensorBody }), AddSensorResponseSchema).id;
      // 1 l a minute while driving (fixes 0–31 and 91–121), the level held while standing.
      const level = (i: number) => 100 - Math.min(i, 31) / 6 - Math.max(0, i - 91) / 6;
      await h.history.insert(tenMinuteStop(device).map((r, i) => ({ ...r, attributes: { fuel: level(i) } })));
      const body = await history(h, user, device);
      expect(body.items.map((g) => g.fuel_consumption)).toEqual([0, 5.17, 0, 5, 0]);
      expect(body.fuel_consumption).toBe("10.17 l");
      expect(body.sensors).toContainEqual({ id: `sensor_${sensor}`, name: "Tank", sufix: "l" });
      const item = body.items[1]!.items[6]!;
      expect(item.sensors_data).toContainEqual({ id: `sensor_${sensor}`, value: 99 });
      expect([item.other, item.other_arr]).toEqual(["<info><fuel>99</fuel></info>", ["fuel: 99"]]);
    });

    it("names a group's driver by the card read, among the user's own drivers only", async () => {
      const user = await h.newUser();
      const other = await h.newUser();
      const device = await h.addDevice(user, { min_moving_speed: 6 });
      const driver = ok(await h.post("/add_user_driver", { user, body: { device_id: device, name: "Ona", rfid: "Card-7" } }), AddUserDriverResponseSchema).item.id;
      ok(await h.post("/add_user_driver", { user: other, body: { device_id: await h.addDevice(other), name: "Not hers", rfid: "CARD-7" } }), AddUserDriverResponseSchema);
      // The card is read on fix 100, in the second drive.
      await h.history.insert(tenMinuteStop(device).map((r, i) => (i === 100 ? { ...r, attributes: { rfid: "card-7" } } : r)));
      const body = await history(h, user, device);
      expect(body.items.map((g) => g.driver?.id)).toEqual([undefined, undefined, undefined, driver, undefined]);
      expect(body.items[3]!.driver).toMatchObject({ name: "Ona", rfid: "Card-7" });
    });

    it("puts the device's events in the period among the groups at their time, in the user's units", async () => {
      const user = await h.newUser({ unitOfDistance: "mi" });
      const device = await h.addDevice(user, { min_moving_speed: 6 });
      const other = await h.addDevice(user);
      await h.history.insert(tenMinuteStop(device));
      const event = (deviceId: number, minute: number, message: string) => ({
        userId: user.id,
        deviceId,
        type: "overspeed" as const,
        message,
        time: new Date(T0 + minute * 60_000),
        latitude: 54.01,
        longitude: 25,
        speedKmh: 80.47,
        altitudeM: 10,
        positionId: 7,
        dedupeKey: `${deviceId}:${minute}`,
      });
      // Inside the stop, inside the first drive, the next day, and another device's.
      await recordEvents(h.db, [event(device, 10, "Stopped too long"), event(device, 2, "Overspeed"), event(device, 24 * 60, "Tomorrow"), event(other, 3, "Not this one")]);
      const body = await history(h, user, device);
      expect(body.items.map((g) => [g.status, g.message ?? ""])).toEqual([
        [3, ""],
        [1, ""],
        [5, "Overspeed"],
        [2, ""],
        [5, "Stopped too long"],
        [1, ""],
        [4, ""],
      ]);
      expect(body.items[2]!).toMatchObject({ show: "2026-03-10 08:02:00", time: null, top_speed: 50, items: [{ id: 7, speed: 50, altitude: 10, lat: 54.01, lng: 25, sensors_data: [{ id: "speed", value: 50 }, { id: "altitude", value: 10 }] }] });
    });

    it("reads events for the period exactly as it reads positions (through the events seam)", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const seen: unknown[] = [];
      const events = async (userId: number, deviceId: number, range: unknown) => (seen.push([userId, deviceId, range]), []);
      await getHistory({ db: h.db, records: liveRecordCache(h.db, h.live, { maxDevices: 100 }), history: h.history, events }, user, { device_id: device, ...DAY });
      expect(seen).toEqual([[user.id, device, { fromMs: Date.UTC(2026, 2, 10), toMs: Date.UTC(2026, 2, 11) - 1 }]]);
    });
  });

  describe("the user's clock", () => {
    it("reads a local day and shows local times, across midnight", async () => {
      const user = await h.newUser({ timezoneId: TZ_PLUS_2 });
      const device = await h.addDevice(user, { min_moving_speed: 6 });
      // 23:50 to 00:10 local (21:50 to 22:10 UTC), driving all along.
      await h.history.insert(track(device, Date.UTC(2026, 2, 10, 21, 50)).fix().drive(1200).rows);
      const drive = async (query: Record<string, string>) => (await history(h, user, device, query)).items.filter((g) => g.status === 1).map((g) => [g.show, g.left, g.items.length]);
      expect(await drive({ to_date: "2026-03-11" })).toEqual([["2026-03-10 23:50:00", "2026-03-11 00:10:00", 121]]);
      expect(await drive({})).toEqual([["2026-03-10 23:50:00", "2026-03-10 23:59:50", 60]]);
      expect(await drive({ from_date: "2026-03-11", to_date: "2026-03-11" })).toEqual([["2026-03-11 00:00:00", "2026-03-11 00:10:00", 61]]);
    });

    it("reads a local day of 23 hours on the spring DST switch and shows the clock going from 01:59 to 03:00", async () => {
      const user = await h.newUser({ timezoneId: TZ_PLUS_1 });
      ok(await h.post("/edit_setup", { user, body: { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: TZ_PLUS_1, groups: [], sms_gateway: 0, dst_type: "automatic", dst_country_id: 3 } }), OkSchema);
      const device = await h.addDevice(user, { min_moving_speed: 6 });
      // A fix a minute from 22:30 UTC on 28 March to 22:30 UTC on 29 March; the EU switches at 01:00 UTC on the 29th.
      await h.history.insert(track(device, Date.UTC(2026, 2, 28, 22, 30), 60).fix().drive(24 * 3600).rows);
      const body = await history(h, user, device, { from_date: "2026-03-29", to_date: "2026-03-29" });
      const drive = body.items.find((g) => g.status === 1)!;
      expect([drive.show, drive.left, drive.time_seconds, drive.items.length]).toEqual(["2026-03-29 00:00:00", "2026-03-29 23:59:00", 23 * 3600 - 60, 23 * 60]);
      const times = drive.items.map((i) => i.time);
      expect(times.slice(times.indexOf("2026-03-29 01:59:00"), times.indexOf("2026-03-29 01:59:00") + 2)).toEqual(["2026-03-29 01:59:00", "2026-03-29 03:00:00"]);
      expect(times).not.toContain("2026-03-29 02:30:00");
    });
  });

  describe("refusals", () => {
    it("answers another user's device exactly as a missing one", async () => {
      const owner = await h.newUser();
      const caller = await h.newUser();
      const device = await h.addDevice(owner);
      await h.history.insert(tenMinuteStop(device));
      const theirs = await h.get("/get_history", { user: caller, query: { device_id: device, ...DAY } });
      const none = await h.get("/get_history", { user: caller, query: { device_id: 2_000_000_000, ...DAY } });
      expect([theirs.status, theirs.body]).toEqual([404, { status: 0, error: "Device not found." }]);
      expect([none.status, none.body]).toEqual([theirs.status, theirs.body]);
    });

    it("refuses a period that ends before it starts, runs over 31 days, or names no real date or time, naming the field", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const errors = async (query: Record<string, string | number>) => Object.keys(invalid(await h.get("/get_history", { user, query: { device_id: device, ...DAY, ...query } })));
      expect(await errors({ from_time: "12:00", to_time: "11:59" })).toEqual(["to_time"]);
      expect(await errors({ from_date: "2026-03-11" })).toEqual(["to_date"]);
      expect(await errors({ from_date: "2026-02-01", to_date: "2026-03-10" })).toEqual(["to_date"]);
      expect(await errors({ from_date: "2026-02-30" })).toEqual(["from_date"]);
      expect(await errors({ to_time: "24:00" })).toEqual(["to_time"]);
      expect(await errors({ stops: 0 })).toEqual(["stops"]);
      // 31 days exactly is allowed.
      ok(await h.get("/get_history", { user, query: { device_id: device, ...DAY, from_date: "2026-02-07", from_time: "23:59:59" } }), GetHistoryResponseSchema);
    });
  });
});

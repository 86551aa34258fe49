import { describe, expect, it } from "vitest";
import { AddSensorResponseSchema, GenerateReportResponseSchema, GeoCreatedSchema } from "@fleet/contracts";
import { recordEvents, setUserActive } from "@fleet/db";
import { TrackBuilder } from "@fleet/trips/testing";
import { LISTED_POSITIONS_MAX } from "../src/domain/report-making.js";
import { describeApi, failure, invalid, ok, type ApiHarness, type TestUser } from "./fixture.js";

/*
 * generate_report and its link, over tracks written to the history store (chDB) with known
 * answers. What each format holds is tested in packages/reports; here: the vendor's answer,
 * the file behind the link, and who may have it.
 */

const T0 = Date.UTC(2026, 2, 10, 8, 0, 0);
const PERIOD = { date_from: "2026-03-10", date_to: "2026-03-10" };

let nextId = 5_000_000;
/** Drive 5 min at 60 km/h, stand 10 min, drive 5 min, from 08:00 UTC. */
const tenMinuteStop = (deviceId: number) => new TrackBuilder(T0, { deviceId, firstId: (nextId += 100_000) }).fix().drive(300).stand(600).drive(300).rows;

async function generate(h: ApiHarness, user: TestUser, body: Record<string, unknown>) {
  return ok(await h.post("/generate_report", { user, body: { title: "Fleet week", stops: 5, ...PERIOD, ...body } }), GenerateReportResponseSchema);
}

/** GET of a link as generate_report answered it (the app is mounted at /api, as in production). */
async function download(h: ApiHarness, url: string, headers: Record<string, string> = {}) {
  const link = new URL(url);
  const res = await h.app.inject({ method: "GET", url: `${link.pathname}${link.search}`, headers });
  return { status: res.statusCode, type: String(res.headers["content-type"]), disposition: String(res.headers["content-disposition"]), bytes: res.rawPayload, text: res.body };
}

describeApi("generate_report", (h) => {
  async function fleet() {
    const user = await h.newUser();
    const device = await h.addDevice(user, { name: "Truck 7", min_moving_speed: 6 });
    await h.history.insert(tenMinuteStop(device));
    return { user, device };
  }

  describe("the answer and the file", () => {
    it("answers status 3 and a link to an html page of the device's drives and stops, its numbers the track's", async () => {
      const { user, device } = await fleet();
      const answer = await generate(h, user, { type: 3, format: "html", devices: [device] });
      expect(answer.status).toBe(3);
      expect(answer.url).toMatch(/^http:\/\/localhost(:\d+)?\/api\/report_download\?token=[\w-]{40,}$/);
      const file = await download(h, answer.url);
      expect(file.status).toBe(200);
      expect(file.type).toBe("text/html; charset=utf-8");
      expect(file.disposition).toBe("inline; filename*=UTF-8''Fleet%20week.html");
      expect(file.text).toContain("Truck 7");
      expect(file.text).toContain("Fleet week");
      // Drive 08:00:00–08:05:10 (5 km), stop 08:05:10–08:15:10, drive 08:15:10–08:20:10 (5 km).
      for (const text of ["2026-03-10 08:05:10", "2026-03-10 08:15:10", "2026-03-10 08:20:10", "10min 0s", "5.00"]) expect(file.text).toContain(text);
    });

    it("lays out several devices one after another, in the order asked", async () => {
      const { user, device } = await fleet();
      const van = await h.addDevice(user, { name: "Van 3", min_moving_speed: 6 });
      await h.history.insert(tenMinuteStop(van));
      const text = (await download(h, (await generate(h, user, { type: 3, format: "html", devices: [van, device] })).url)).text;
      expect(text.indexOf("Van 3")).toBeGreaterThan(0);
      expect(text.indexOf("Truck 7")).toBeGreaterThan(text.indexOf("Van 3"));
      // Each device's own drives: both stopped from 08:05:10 to 08:15:10.
      expect(text.split("2026-03-10 08:15:10").length - 1).toBeGreaterThanOrEqual(4);
    });

    it("makes a spreadsheet and portrait and landscape pdfs of general information, as files", async () => {
      const { user, device } = await fleet();
      const xls = await download(h, (await generate(h, user, { type: 1, format: "xls", devices: [device] })).url);
      expect([xls.status, xls.type, xls.disposition]).toEqual([200, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "attachment; filename*=UTF-8''Fleet%20week.xlsx"]);
      expect(xls.bytes.subarray(0, 2).toString("latin1")).toBe("PK");
      for (const format of ["pdf", "pdf_land"]) {
        const pdf = await download(h, (await generate(h, user, { type: 1, format, devices: [device] })).url);
        expect([pdf.status, pdf.type]).toEqual([200, "application/pdf"]);
        expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      }
    });

    it("gives general information the totals drives and stops heads each device with, worked out in the engine or from a fuel sensor's track", async () => {
      const user = await h.newUser();
      // Stands 2 min (a stop at the start, the range cut it), drives above 90, stands 1 min (inside its drive) and 10 min, drives.
      const track = (deviceId: number) =>
        new TrackBuilder(T0, { deviceId, firstId: (nextId += 100_000) }).fix({ speedKmh: 0 }).stand(120).drive(300, 95).stand(60).drive(120).stand(600).drive(300).rows;
      const plain = await h.addDevice(user, { name: "Plain 1", min_moving_speed: 6 });
      const tanked = await h.addDevice(user, { name: "Tanked 2", min_moving_speed: 6 });
      ok(await h.post("/add_sensor", { user, query: { device_id: tanked }, body: { sensor_type: "fuel_tank", sensor_name: "Tank", unit_of_measurement: "l", tag_name: "fuel", show_in_popup: 1 } }), AddSensorResponseSchema);
      await h.history.insert([...track(plain), ...track(tanked).map((r, i) => ({ ...r, attributes: { fuel: 100 - i / 10 } }))]);
      const sections = (html: string) => html.split(/<h2[^>]*>/).slice(1).map((s) => s.replace(/<[^>]+>/g, " ").replace(/\s+/g, " "));
      const body = { devices: [plain, tanked], speed_limit: 90, format: "html" };
      const general = sections((await download(h, (await generate(h, user, { ...body, type: 1 })).url)).text);
      const drives = sections((await download(h, (await generate(h, user, { ...body, type: 3 })).url)).text);
      expect(general).toHaveLength(2);
      for (const [i, name] of ["Plain 1", "Tanked 2"].entries()) {
        expect(general[i]).toContain(name);
        // 2 stops, 2 min 10 s from the first fix and 10 min; the 1 min one stays in its drive; one run above 90.
        for (const text of ["Stops 2", "Stop duration 12min 10s", "Overspeed count 1", "Top speed (kph) 95"]) expect(general[i], `${name}: ${general[i]}`).toContain(text);
        // Drives and stops has no speed limit field, so no overspeed count.
        const figures = general[i]!.slice(general[i]!.indexOf("Route start"), general[i]!.indexOf("Engine hours")).replace("Overspeed count 1 ", "");
        expect(drives[i], drives[i]).toContain(figures);
      }
      expect(general[1]).toContain("Fuel consumption (l)");
      // The same drives and stops, cut by the engine for the plain device and here for the tanked one (its fuel column left out).
      const groupRows = (text: string) =>
        [...text.matchAll(/(Drive|Stop) (\S+ \S+) (\S+ \S+) ([\dhmins ]+?) ([\d.]+) (\d+) (\d+) ([\dhmins ]+?)(?: [\d.]+)? (\d+\.\d{6}, \d+\.\d{6})/g)].map((m) => m.slice(1).join(" | "));
      expect(groupRows(drives[0]!)).toEqual(groupRows(drives[1]!));
      // Drives and stops / geofences (18) has no stops field: it cuts them as drives and stops does by default (1 min, so the 1-min stand is a stop).
      const geofenced = sections((await download(h, (await generate(h, user, { ...body, type: 18 })).url)).text);
      const byDefault = sections((await download(h, (await generate(h, user, { ...body, type: 3, stops: 1 })).url)).text);
      for (const i of [0, 1]) {
        expect(groupRows(byDefault[i]!)).toHaveLength(6);
        expect(groupRows(geofenced[i]!)).toEqual(groupRows(byDefault[i]!));
      }
      expect(groupRows(drives[0]!)).toEqual([
        "Stop | 2026-03-10 08:00:00 | 2026-03-10 08:02:10 | 2min 10s | 0.00 | 0 | 0 | 2min 10s | 54.000000, 25.000000",
        "Drive | 2026-03-10 08:02:10 | 2026-03-10 08:10:30 | 8min 20s | 9.92 | 95 | 71 | 1min 0s | 54.000000, 25.000000",
        "Stop | 2026-03-10 08:10:30 | 2026-03-10 08:20:30 | 10min 0s | 0.00 | 0 | 0 | 10min 0s | 54.089183, 25.000000",
        "Drive | 2026-03-10 08:20:30 | 2026-03-10 08:25:30 | 5min 0s | 5.00 | 60 | 60 | 0s | 54.089183, 25.000000",
      ]);
    });

    it("reads the period on the user's clock, date_to whole unless to_time says otherwise", async () => {
      const { user, device } = await fleet();
      // Only the first drive's fixes (08:00–08:05) fall before 08:05.
      const early = await download(h, (await generate(h, user, { type: 3, format: "html", devices: [device], from_time: "00:00", to_time: "08:05" })).url);
      expect(early.text).not.toContain("08:15:10");
      // 08:00 UTC is 10:00 at UTC+2 (timezone 65): an evening-only period holds nothing.
      const east = await h.newUser({ timezoneId: 65 });
      const eastDevice = await h.addDevice(east, { name: "Van" });
      await h.history.insert(tenMinuteStop(eastDevice));
      const evening = await download(h, (await generate(h, east, { type: 3, format: "html", devices: [eastDevice], from_time: "18:00" })).url);
      expect(evening.text).toContain("No drives or stops in the period.");
    });
  });

  describe("every type made so far, from the same track", () => {
    /** The html of a report of the fleet's one device, its text without tags. */
    async function page(user: TestUser, body: Record<string, unknown>) {
      const file = await download(h, (await generate(h, user, { format: "html", ...body })).url);
      expect(file.status, file.text.slice(0, 300)).toBe(200);
      return file.text.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    }

    it("lays out merged general information, the travel sheet, over- and underspeeds and object history", async () => {
      const { user, device } = await fleet();
      // Driving at 60 km/h, five minutes each way: one drive and then another, each above 50 and below 70.
      expect(await page(user, { type: 2, devices: [device] })).toContain("Truck 7");
      expect(await page(user, { type: 16, devices: [device] })).toContain("Truck 7");
      const travel = await page(user, { type: 4, devices: [device] });
      for (const text of ["2026-03-10 08:00:00", "2026-03-10 08:05:10", "2026-03-10 08:15:10", "2026-03-10 08:20:10"]) expect(travel).toContain(text);
      const over = await page(user, { type: 5, devices: [device], speed_limit: 50 });
      // Each run of fixes above the limit, from its first fix above to its last.
      expect(over).toContain("2026-03-10 08:00:00 2026-03-10 08:05:00 5min 0s 60");
      expect(over).toContain("2026-03-10 08:15:20 2026-03-10 08:20:10 4min 50s 60");
      const under = await page(user, { type: 6, devices: [device], speed_limit: 70 });
      expect(under).toContain("2026-03-10 08:00:00");
      const history = await page(user, { type: 25, devices: [device] });
      // A fix every 10 s for 20 minutes and 10 s: 122 rows, the last at 08:20:10.
      expect(history.match(/2026-03-10 08:\d\d:\d\d/g)!.length).toBeGreaterThanOrEqual(122);
    });

    it("counts overspeeds among a RAG's incidents when a speed limit is sent, though its form offers none", async () => {
      const { user, device } = await fleet();
      // Two runs above 50 km/h in 10 km: 20 incidents per 100 km.
      const limited = await page(user, { type: 14, devices: [device], speed_limit: 50 });
      expect(limited).toMatch(/Overspeeds 2 /);
      expect(await page(user, { type: 14, devices: [device] })).not.toContain("Overspeeds");
    });

    it("lists the device's events (type 8) and its visits to the report's geofences (type 7)", async () => {
      const { user, device } = await fleet();
      await recordEvents(h.db, [{ userId: user.id, deviceId: device, type: "sos", message: "SOS pressed on the road", time: new Date(T0 + 60_000), latitude: 54, longitude: 25, dedupeKey: `sos-${device}` }]);
      expect(await page(user, { type: 8, devices: [device] })).toContain("SOS pressed on the road");
      // A circle around the track's start (54°N 25°E): the first fixes are in it.
      const depot = ok(await h.post("/add_geofence", { user, body: { name: "Depot gate", polygon_color: "#ff0000", type: "circle", center: { lat: 54, lng: 25 }, radius: 300 } }), GeoCreatedSchema).id;
      const visits = await page(user, { type: 7, devices: [device], geofences: [depot] });
      expect(visits).toContain("Depot gate");
      expect(visits).toContain("2026-03-10 08:00:00");
    });
  });

  describe("the types read from sensors, drivers, days and shifts", () => {
    it("makes each of them from a device's track, named by its type in the page", async () => {
      const { user, device } = await fleet();
      const depot = ok(await h.post("/add_geofence", { user, body: { name: "Depot gate", polygon_color: "#ff0000", type: "circle", center: { lat: 54, lng: 25 }, radius: 300 } }), GeoCreatedSchema).id;
      const cases: [type: number, extra: Record<string, unknown>, text: string][] = [
        [10, {}, "The device has no fuel sensor."],
        [11, {}, "The device has no fuel sensor."],
        [12, {}, "The device has no fuel sensor."],
        [13, {}, "The device has no temperature sensor."],
        [14, {}, "Truck 7"],
        [15, { geofences: [depot] }, "Depot gate"],
        [18, {}, "Truck 7"],
        [19, {}, "No driver"],
        [20, { geofences: [depot] }, "Depot gate"],
        // 10 March 2026 is a Tuesday: the drives at 08:00 and 08:15 UTC are business trips.
        [21, {}, "2026-03-10 08:15:10"],
        [22, {}, "No private drives or stops in the period."],
        [23, {}, "The device has no seatbelt sensor."],
        [28, { geofences: [depot], parameters: { shift_start: "08:00", shift_finish: "17:00", shift_start_tolerance: 15 } }, "Depot gate"],
      ];
      for (const [type, extra, text] of cases) {
        const file = await download(h, (await generate(h, user, { type, format: "html", devices: [device], ...extra })).url);
        expect([type, file.status], file.text.slice(0, 300)).toEqual([type, 200]);
        expect(file.text, `type ${type}`).toContain(text);
      }
    });

    it("names positions by the user's geofences (zones_instead) and by their address (show_addresses)", async () => {
      const { user, device } = await fleet();
      ok(await h.post("/add_geofence", { user, body: { name: "Depot gate", polygon_color: "#ff0000", type: "circle", center: { lat: 54, lng: 25 }, radius: 300 } }), GeoCreatedSchema);
      const zoned = await download(h, (await generate(h, user, { type: 3, format: "html", devices: [device], zones_instead: 1 })).url);
      // The first drive starts in the depot; the stop 5 km north is in no geofence.
      expect(zoned.text).toContain("Depot gate");
      expect(zoned.text).toContain("54.044966, 25.000000");
      const addressed = await download(h, (await generate(h, user, { type: 3, format: "html", devices: [device], show_addresses: 1 })).url);
      // The offline geocoder names the nearest town with its country: no position is left as bare coordinates.
      expect(addressed.text).not.toMatch(/\d+\.\d{6}, \d+\.\d{6}/);
      expect(addressed.text).toMatch(/, LT</);
    });
  });

  describe("who may have it", () => {
    it("downloads for the link alone or with the owner's hash; another user's hash or a changed token finds nothing", async () => {
      const { user, device } = await fleet();
      const other = await h.newUser();
      const { url } = await generate(h, user, { type: 3, format: "html", devices: [device] });
      expect((await download(h, url, { "user-api-hash": user.hash })).status).toBe(200);
      const stranger = await download(h, url, { "user-api-hash": other.hash });
      expect([stranger.status, JSON.parse(stranger.text)]).toEqual([404, { status: 0, error: "Report not found." }]);
      expect((await download(h, `${url}&user_api_hash=${other.hash}`)).status).toBe(404);
      const tampered = url.replace(/token=(.)/, (_, c: string) => `token=${c === "A" ? "B" : "A"}`);
      expect((await download(h, tampered)).status).toBe(404);
      // A deactivated owner's links stop, as its sharing links do, and work again once it is active.
      await setUserActive(h.db, { id: user.id }, false);
      expect((await download(h, url)).status).toBe(404);
      await setUserActive(h.db, { id: user.id }, true);
      expect((await download(h, url)).status).toBe(200);
    });

    it("refuses another user's device or geofence like a missing one, with nothing made", async () => {
      const { device } = await fleet();
      const other = await h.newUser();
      expect(invalid(await h.post("/generate_report", { user: other, body: { title: "x", type: 3, format: "html", devices: [device], ...PERIOD } }))).toEqual({ devices: "The selected devices are invalid." });
      expect(invalid(await h.post("/generate_report", { user: other, body: { title: "x", type: 3, format: "html", devices: [999_999_999], ...PERIOD } }))).toEqual({ devices: "The selected devices are invalid." });
      // A geofence of another user is refused like a missing one, as add_report refuses it.
      const theirs = ok(await h.post("/add_geofence", { user: other, body: { name: "Theirs", polygon_color: "#ff0000", type: "circle", center: { lat: 54, lng: 25 }, radius: 300 } }), GeoCreatedSchema).id;
      const { user, device: mine } = await fleet();
      for (const geofence of [theirs, 999_999_999]) {
        expect(invalid(await h.post("/generate_report", { user, body: { title: "x", type: 7, format: "html", devices: [mine], geofences: [geofence], ...PERIOD } }))).toEqual({ geofences: "The selected geofences are invalid." });
      }
    });
  });

  describe("bad input", () => {
    it("names the field at fault: a date that is none, a period backwards, a format the type lacks, a type not made yet", async () => {
      const { user, device } = await fleet();
      const body = (over: Record<string, unknown>) => ({ user, body: { title: "x", type: 3, format: "html", devices: [device], ...PERIOD, ...over } });
      expect(invalid(await h.post("/generate_report", body({ date_from: "2026-02-30" })))).toEqual({ date_from: "The date from is not a valid date." });
      expect(invalid(await h.post("/generate_report", body({ date_from: "2026-03-11" })))).toHaveProperty("date_to");
      expect(invalid(await h.post("/generate_report", body({ type: 10, format: "pdf" })))).toHaveProperty("format");
      // A customer-specific type (24) has nothing to lay out.
      expect(invalid(await h.post("/generate_report", body({ type: 24 })))).toEqual({ type: "Customer-specific report (24) reports cannot be generated yet." });
      expect(failure(await h.post("/generate_report", { body: { title: "x" } }), 401)).toBe("Unauthenticated.");
    });

    it("refuses object history of more positions than it lists, before making anything, and makes a shorter one", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user, { name: "Chatty", min_moving_speed: 6 });
      const [template] = tenMinuteStop(device);
      const first = (nextId += 100_000);
      // A fix a second from 08:00 for 50,001 s: one more than object history lists.
      await h.history.insert(Array.from({ length: LISTED_POSITIONS_MAX + 1 }, (_, i) => ({ ...template!, id: first + i, fixTime: T0 + i * 1000, serverTime: T0 + i * 1000 })));
      const body = (over: Record<string, unknown>) => ({ user, body: { title: "x", type: 25, format: "html", devices: [device], ...PERIOD, ...over } });
      expect(invalid(await h.post("/generate_report", body({})))).toEqual({
        date_to: `The period holds ${LISTED_POSITIONS_MAX + 1} positions of the selected devices; object history lists at most ${LISTED_POSITIONS_MAX}: choose a shorter period or fewer devices.`,
      });
      // The same period read for overspeeds, and object history of its first hour, are made.
      expect((await download(h, (await generate(h, user, { type: 5, format: "html", devices: [device], speed_limit: 100 })).url)).status).toBe(200);
      expect((await download(h, (await generate(h, user, { type: 25, format: "html", devices: [device], to_time: "08:59:59" })).url)).status).toBe(200);
    });
  });
});

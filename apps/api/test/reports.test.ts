import { describe, expect, it } from "vitest";
import { AddReportResponseSchema, GetReportsResponseSchema, GetReportsTypesResponseSchema, OkSchema, userClock, type ReportRecord } from "@fleet/contracts";
import { schema } from "@fleet/db";
import { describeApi, failure, invalid, ok, type ApiHarness, type BodyEncoding, type TestUser } from "./fixture.js";

type Body = Record<string, unknown>;

/** The spec's type ids and names; 24 and 27 are ours to name. */
const NAMES: Record<number, string> = {
  1: "General information",
  2: "General information (merged)",
  3: "Drives and stops",
  4: "Travel sheet",
  5: "Overspeed",
  6: "Underspeed",
  7: "Geofence in/out",
  8: "Events",
  10: "Fuel level",
  11: "Fuel fillings",
  12: "Fuel thefts",
  13: "Temperature",
  14: "RAG",
  15: "Geofence in/out 24 hour mode",
  16: "General information (merged) custom",
  18: "Drives and stops / Geofences",
  19: "Drives and stops / Drivers",
  20: "Geofence in/out (Ignition ON/OFF)",
  21: "Drives and stops / Drivers (Business)",
  22: "Drives and stops / Drivers (Private)",
  23: "RAG / Seatbelt",
  24: "Customer-specific report (24)",
  25: "Object history",
  27: "Customer-specific report (27)",
  28: "Geofence in/out (Shift)",
};

/** The fields the spec lists per type. */
const SPEC_FIELDS: Record<number, string[]> = {
  7: ["geofences", "show_addresses", "zones_instead"],
  ...Object.fromEntries([1, 2, 16].map((t) => [t, ["speed_limit", "stops"]])),
  ...Object.fromEntries([3, 4].map((t) => [t, ["stops", "show_addresses", "zones_instead"]])),
  ...Object.fromEntries([5, 6, 18].map((t) => [t, ["speed_limit", "show_addresses", "zones_instead"]])),
  ...Object.fromEntries([8, 10, 11, 12, 13, 14, 23].map((t) => [t, ["show_addresses", "zones_instead"]])),
  28: ["geofences"],
};

const SHIFT = { shift_start: "07:45", shift_finish: "16:30", shift_start_tolerance: 10 };

async function addGeofence(h: ApiHarness, user: TestUser, name = "Depot"): Promise<number> {
  const ring = [
    { lat: 54.1, lng: 25.1 },
    { lat: 54.2, lng: 25.1 },
    { lat: 54.2, lng: 25.2 },
    { lat: 54.1, lng: 25.1 },
  ];
  const [row] = await h.db.insert(schema.geofences).values({ userId: user.id, name, type: "polygon", polygonColor: "#ff0000", coordinates: ring }).returning({ id: schema.geofences.id });
  return row!.id;
}

const add = (h: ApiHarness, user: TestUser, body: Body, as: BodyEncoding = "json") => h.post("/add_report", { user, body, as });
const addOk = async (h: ApiHarness, user: TestUser, body: Body, as: BodyEncoding = "json") => ok(await add(h, user, body, as), AddReportResponseSchema).id;
const list = async (h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) => ok(await h.get("/get_reports", { user, query }), GetReportsResponseSchema).items;
const rows = (h: ApiHarness, user: TestUser) => h.db.query.reports.findMany({ where: (r, { eq }) => eq(r.userId, user.id), orderBy: (r, { asc }) => asc(r.id) });

async function recordOf(h: ApiHarness, user: TestUser, id: number): Promise<ReportRecord> {
  const found = (await list(h, user, { per_page: 100 })).reports.data.find((r) => r.id === id);
  expect(found, `report ${id}`).toBeDefined();
  return found!;
}

describeApi("reports", (h) => {
  describe("get_reports_types", () => {
    it("lists every type of the spec keyed by id, with its formats and fields", async () => {
      const user = await h.newUser();
      const body = ok(await h.get("/get_reports_types", { user }), GetReportsTypesResponseSchema) as unknown as Record<string, unknown>;
      expect(body.status).toBe(1);
      const types = Object.fromEntries(Object.entries(body).filter(([k]) => k !== "status")) as Record<string, { type: number; name: string; formats: string[]; fields: string[]; parameters: unknown }>;
      expect(Object.keys(types).map(Number).sort((a, b) => a - b)).toEqual(Object.keys(NAMES).map(Number));
      for (const [id, t] of Object.entries(types)) {
        expect(t.type).toBe(Number(id));
        expect(t.name).toBe(NAMES[Number(id)]);
        expect(t.formats).toEqual([10, 13].includes(t.type) ? ["html"] : ["html", "xls", "pdf", "pdf_land"]);
        if (SPEC_FIELDS[t.type]) expect(t.fields, `type ${id}`).toEqual(SPEC_FIELDS[t.type]);
        if (t.type !== 28) expect(t.parameters).toBeNull();
      }
    });

    it("declares type 28's shift parameters as the spec gives them", async () => {
      const user = await h.newUser();
      const body = ok(await h.get("/get_reports_types", { user }), GetReportsTypesResponseSchema) as unknown as Record<string, { parameters: { name: string; type: string; default: unknown; options: { id: unknown; title: string }[]; validation: string }[] }>;
      const byName = new Map(body["28"]!.parameters.map((p) => [p.name, p]));
      const quarters = Array.from({ length: 96 }, (_, i) => `${String(Math.floor(i / 4)).padStart(2, "0")}:${String((i % 4) * 15).padStart(2, "0")}`);
      for (const [name, dflt] of [["shift_start", "08:00"], ["shift_finish", "17:00"]] as const) {
        expect(byName.get(name)).toMatchObject({ type: "select", default: dflt, validation: "required|date_format:H:i" });
        expect(byName.get(name)!.options.map((o) => o.id)).toEqual(quarters);
      }
      const tolerance = byName.get("shift_start_tolerance")!;
      expect(tolerance).toMatchObject({ type: "select", validation: "required|integer" });
      expect(tolerance.options.map((o) => o.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]);
      expect([...byName.keys()].slice(0, 3)).toEqual(["shift_start", "shift_finish", "shift_start_tolerance"]);
    });
  });

  describe("get_reports", () => {
    it("is an empty page plus the type titles for a user without reports", async () => {
      const user = await h.newUser();
      const items = await list(h, user);
      expect(items.reports).toMatchObject({ total: 0, per_page: 10, current_page: 1, last_page: 1, from: 0, to: 0, url: "/api/get_reports", data: [] });
      expect(items.types).toEqual(Object.entries(NAMES).map(([id, title]) => ({ id: Number(id), title })));
    });

    it("returns records as the spec types them, email times in the user's timezone", async () => {
      const user = await h.newUser({ timezoneId: 65 });
      const device = await h.addDevice(user);
      const geofence = await addGeofence(h, user);
      const id = await addOk(h, user, { title: "Gates", type: 7, format: "pdf", devices: [device], geofences: [geofence], show_addresses: true, zones_instead: "0", daily: 1, email: "ops@example.com" });
      expect(await recordOf(h, user, id)).toEqual({
        id,
        user_id: user.id,
        title: "Gates",
        type: 7,
        format: "pdf",
        show_addresses: 1,
        zones_instead: 0,
        stops: 0,
        speed_limit: null,
        daily: 1,
        weekly: 0,
        email: "ops@example.com",
        devices: [device],
        geofences: [geofence],
      } satisfies ReportRecord);
      // Only the scheduler sets the *_email_sent times; written here directly.
      const sent = new Date("2025-03-01T22:30:00Z");
      const values = { userId: user.id, title: "Sent", type: 1, format: "html", devices: [device], dailyEmailSent: sent, weeklyEmailSent: sent };
      const [row] = await h.db.insert(schema.reports).values(values).returning();
      // Timezone 65 is UTC+02:00.
      expect(userClock({ timezoneId: 65 }).format(sent.getTime())).toBe("2025-03-02 00:30:00");
      expect(await recordOf(h, user, row!.id)).toMatchObject({ daily_email_sent: "2025-03-02 00:30:00", weekly_email_sent: "2025-03-02 00:30:00" });
    });

    it("pages by id and never shows another user's reports", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const [da, db] = [await h.addDevice(a), await h.addDevice(b)];
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(await addOk(h, a, { title: `A${i}`, type: 8, format: "html", devices: [da] }));
      const mine = await addOk(h, b, { title: "B", type: 8, format: "html", devices: [db] });
      const second = (await list(h, a, { per_page: 2, page: 2 })).reports;
      expect(second).toMatchObject({ total: 3, last_page: 2, from: 3, to: 3, next_page_url: null });
      expect(second.data.map((r) => r.id)).toEqual([ids[2]]);
      expect((await list(h, b)).reports.data.map((r) => r.id)).toEqual([mine]);
    });

    it("drops devices the user no longer has from the list it shows", async () => {
      const user = await h.newUser();
      const [kept, gone] = [await h.addDevice(user), await h.addDevice(user)];
      const geofence = await addGeofence(h, user);
      const id = await addOk(h, user, { title: "Fleet", type: 7, format: "html", devices: [kept, gone], geofences: [geofence] });
      ok(await h.get("/destroy_device", { user, query: { device_id: gone } }), OkSchema);
      expect(await recordOf(h, user, id)).toMatchObject({ devices: [kept], geofences: [geofence] });
    });
  });

  describe("add_report", () => {
    it("saves a definition from JSON, form and multipart bodies", async () => {
      const user = await h.newUser();
      const [d1, d2] = [await h.addDevice(user), await h.addDevice(user)];
      const form = { title: "Daily", type: 1, format: "xls", "devices[0]": d1, "devices[1]": d2, speed_limit: "90.5", stops: "5", weekly: "1", email: "a@example.com, b@example.com" };
      for (const as of ["form", "multipart"] as const) {
        const id = await addOk(h, user, form, as);
        expect(await recordOf(h, user, id)).toMatchObject({ type: 1, format: "xls", devices: [d1, d2], speed_limit: 90.5, stops: 5, weekly: 1, daily: 0, email: "a@example.com,b@example.com", show_addresses: null, zones_instead: null });
      }
      const id = await addOk(h, user, { title: "Json", type: 3, format: "pdf_land", devices: [d2, d1, d2] });
      // Duplicates are kept once; stops defaults to the shortest option.
      expect(await recordOf(h, user, id)).toMatchObject({ devices: [d2, d1], stops: 1, show_addresses: 0, zones_instead: 0, speed_limit: null, email: "" });
    });

    it("stores only the fields the type uses", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const geofence = await addGeofence(h, user);
      const id = await addOk(h, user, { title: "Events", type: 8, format: "html", devices: [device], geofences: [geofence], speed_limit: 50, stops: 10, show_addresses: 1, parameters: SHIFT });
      const [row] = (await rows(h, user)).filter((r) => r.id === id);
      expect(row).toMatchObject({ showAddresses: true, zonesInstead: false, stops: 0, speedLimit: null, geofences: [], parameters: {} });
    });

    it("stores type 28's parameters as their option ids, with defaults for the optional ones", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const geofence = await addGeofence(h, user);
      const form = { title: "Shift", type: 28, format: "html", "devices[]": device, "geofences[]": geofence, "parameters[shift_start]": "07:45", "parameters[shift_finish]": "16:30", "parameters[shift_start_tolerance]": "10", "parameters[bogus]": "x" };
      const id = await addOk(h, user, form, "form");
      expect((await recordOf(h, user, id)).parameters).toEqual({ shift_start: "07:45", shift_finish: "16:30", shift_start_tolerance: 10, shift_finish_tolerance: 15, excessive_exit: 30 });
    });

    it("refuses type 28 parameters that break their declaration, one error each", async () => {
      const user = await h.newUser();
      const body = { title: "Shift", type: 28, format: "html", devices: [await h.addDevice(user)], geofences: [await addGeofence(h, user)] };
      expect(invalid(await add(h, user, body))).toEqual({
        "parameters.shift_start": "The shift start field is required.",
        "parameters.shift_finish": "The shift finish field is required.",
        "parameters.shift_start_tolerance": "The shift start tolerance field is required.",
      });
      const bad = { shift_start: "8:00", shift_finish: "08:07", shift_start_tolerance: 17, excessive_exit: "abc" };
      expect(invalid(await add(h, user, { ...body, parameters: bad }))).toEqual({
        "parameters.shift_start": "The shift start does not match the format H:i.",
        "parameters.shift_finish": "The selected shift finish is invalid.",
        "parameters.shift_start_tolerance": "The selected shift start tolerance is invalid.",
        "parameters.excessive_exit": "The excessive exit must be an integer.",
      });
      expect(await rows(h, user)).toEqual([]);
    });

    it("checks the body against the type: format, required fields, stops, email", async () => {
      const user = await h.newUser();
      const devices = [await h.addDevice(user)];
      const cases: [Body, Record<string, string>][] = [
        [{ type: 9 }, { type: "The selected type is invalid." }],
        [{ type: 10, format: "pdf" }, { format: "The format must be html for this report type." }],
        [{ type: 7 }, { geofences: "The geofences field is required for this report type." }],
        [{ type: 5, speed_limit: "" }, { speed_limit: "The speed limit field is required for this report type." }],
        [{ type: 3, stops: 7 }, { stops: "The selected stops is invalid." }],
        [{ email: "not-an-address" }, { email: "The email must be a valid email address, or several separated by commas." }],
        [{ email: "a@example.com,,b@example.com" }, { email: "The email must be a valid email address, or several separated by commas." }],
        [{ weekly: true }, { email: "The email field is required when the report is sent daily or weekly." }],
        [{ email: "a@example.com", send_to_email: "b@example.com" }, { email: "The email and send to email differ." }],
      ];
      for (const [change, errors] of cases) expect(invalid(await add(h, user, { title: "T", type: 1, format: "html", devices, ...change })), JSON.stringify(change)).toEqual(errors);
      const id = await addOk(h, user, { title: "Vendor name", type: 1, format: "html", devices, daily: "1", send_to_email: "boss@example.com" });
      expect(await recordOf(h, user, id)).toMatchObject({ daily: 1, email: "boss@example.com" });
    });

    it("refuses malformed fields before anything is written", async () => {
      const user = await h.newUser();
      const devices = [await h.addDevice(user)];
      const cases: [Body, string][] = [
        [{ title: "" }, "title"],
        [{ title: "   " }, "title"],
        [{ title: "x".repeat(256) }, "title"],
        [{ title: { $ne: 1 } }, "title"],
        [{ type: "'; DROP TABLE reports; --" }, "type"],
        [{ type: 1.5 }, "type"],
        [{ format: "docx" }, "format"],
        [{ format: "' OR 1=1 --" }, "format"],
        [{ devices: [] }, "devices"],
        [{ devices: ["abc"] }, "devices.0"],
        [{ devices: "1; DELETE FROM reports" }, "devices.0"],
        [{ devices: Array.from({ length: 1001 }, (_, i) => i + 1) }, "devices"],
        [{ speed_limit: -5 }, "speed_limit"],
        [{ speed_limit: "fast" }, "speed_limit"],
        [{ stops: 1e6 }, "stops"],
        [{ daily: "yes" }, "daily"],
        [{ email: "e".repeat(1001) }, "email"],
        [{ parameters: "shift_start=08:00" }, "parameters"],
      ];
      for (const [change, field] of cases) expect(invalid(await add(h, user, { title: "T", type: 1, format: "html", devices, ...change })), JSON.stringify(change).slice(0, 80)).toHaveProperty(field);
      for (const missing of ["title", "type", "format", "devices"]) {
        const body: Body = { title: "T", type: 1, format: "html", devices };
        delete body[missing];
        expect(invalid(await add(h, user, body))).toHaveProperty(missing);
      }
      expect(await rows(h, user)).toEqual([]);
      // Injection text in a free-text field is only text.
      const id = await addOk(h, user, { title: "'; DROP TABLE reports; --", type: 1, format: "html", devices });
      expect((await recordOf(h, user, id)).title).toBe("'; DROP TABLE reports; --");
    });

    it("answers another user's, a deleted and a missing device or geofence alike, creating nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const mine = await h.addDevice(a);
      const gone = await h.addDevice(a);
      ok(await h.get("/destroy_device", { user: a, query: { device_id: gone } }), OkSchema);
      const [theirDevice, theirGeofence] = [await h.addDevice(b), await addGeofence(h, b)];
      for (const device of [theirDevice, gone, 2_000_000_000]) {
        expect(invalid(await add(h, a, { title: "T", type: 1, format: "html", devices: [mine, device] }))).toEqual({ devices: "The selected devices are invalid." });
      }
      for (const geofence of [theirGeofence, 2_000_000_000]) {
        expect(invalid(await add(h, a, { title: "T", type: 7, format: "html", devices: [mine], geofences: [geofence] }))).toEqual({ geofences: "The selected geofences are invalid." });
      }
      expect(await rows(h, a)).toEqual([]);
    });
  });

  describe("edit_report", () => {
    it("rewrites the whole definition; fields the new type does not use are cleared", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const geofence = await addGeofence(h, user);
      const id = await addOk(h, user, { title: "Speed", type: 5, format: "pdf", devices: [device], speed_limit: 110, show_addresses: 1, daily: 1, email: "a@example.com" });
      ok(await h.post("/edit_report", { user, body: { id, title: "Shift", type: 28, format: "xls", devices: [device], geofences: [geofence], parameters: SHIFT } }), OkSchema);
      expect(await recordOf(h, user, id)).toMatchObject({ title: "Shift", type: 28, format: "xls", speed_limit: null, show_addresses: null, daily: 0, email: "", geofences: [geofence], parameters: { ...SHIFT, shift_finish_tolerance: 15, excessive_exit: 30 } });
    });

    it("answers another user's report as a missing one, leaving it unchanged", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const id = await addOk(h, a, { title: "Of A", type: 1, format: "html", devices: [await h.addDevice(a)] });
      const before = await rows(h, a);
      const body = { title: "Taken", type: 1, format: "html", devices: [await h.addDevice(b)] };
      const theirs = await h.post("/edit_report", { user: b, body: { ...body, id } });
      expect(failure(theirs, 404)).toBe("Report not found.");
      expect(theirs.body).toEqual((await h.post("/edit_report", { user: b, body: { ...body, id: 2_000_000_000 } })).body);
      expect(await rows(h, a)).toEqual(before);
    });

    it("refuses another user's device on the user's own report, changing nothing", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const id = await addOk(h, a, { title: "Mine", type: 1, format: "html", devices: [await h.addDevice(a)] });
      const before = await rows(h, a);
      expect(invalid(await h.post("/edit_report", { user: a, body: { id, title: "Mine", type: 1, format: "html", devices: [await h.addDevice(b)] } }))).toEqual({ devices: "The selected devices are invalid." });
      expect(invalid(await h.post("/edit_report", { user: a, body: { id, title: "Mine", type: 1, format: "html", devices: [1], speed_limit: { $gt: 0 } } }))).toHaveProperty("speed_limit");
      expect(await rows(h, a)).toEqual(before);
    });
  });

  describe("destroy_report", () => {
    it("deletes the user's report; another user's or a missing id is 404 and keeps it", async () => {
      const [a, b] = [await h.newUser(), await h.newUser()];
      const id = await addOk(h, a, { title: "Of A", type: 1, format: "html", devices: [await h.addDevice(a)] });
      const theirs = await h.get("/destroy_report", { user: b, query: { report_id: id } });
      expect(failure(theirs, 404)).toBe("Report not found.");
      expect(theirs.body).toEqual((await h.get("/destroy_report", { user: b, query: { report_id: 2_000_000_000 } })).body);
      expect(await rows(h, a)).toHaveLength(1);
      for (const bad of ["abc", "0", "1 OR 1=1"]) invalid(await h.get("/destroy_report", { user: a, query: { report_id: bad } }));
      ok(await h.get("/destroy_report", { user: a, query: { report_id: id } }), OkSchema);
      expect(await rows(h, a)).toEqual([]);
      failure(await h.get("/destroy_report", { user: a, query: { report_id: id } }), 404);
    });
  });
});

/*
 * add_report_data: what a report form offers. The answer is checked against our contract
 * and against the vendor Swagger's response schema for the path (./swagger.ts).
 */
import { expect, it } from "vitest";
import {
  AddReportDataResponseSchema,
  AddReportResponseSchema,
  GeoCreatedSchema,
  GetDevicesResponseSchema,
  GetGeofencesResponseSchema,
  GetReportsResponseSchema,
  reportTypes,
} from "@fleet/contracts";
import { describeApi, ok, type ApiHarness, type TestUser, signedLink } from "./fixture.js";
import { vendorErrors } from "./swagger.js";

// ---- the form data ---------------------------------------------------------------------

const SQUARE = [
  { lat: 54.1, lng: 25.1 },
  { lat: 54.2, lng: 25.1 },
  { lat: 54.2, lng: 25.2 },
  { lat: 54.1, lng: 25.2 },
  { lat: 54.1, lng: 25.1 },
];

async function addGeofences(h: ApiHarness, user: TestUser, tag: string): Promise<number[]> {
  const polygon = { name: `Depot ${tag}`, polygon_color: "#ff0000", type: "polygon", polygon: SQUARE };
  const circle = { name: `Yard ${tag}`, polygon_color: "#00ff00", type: "circle", center: { lat: 54.7, lng: 25.3 }, radius: 250 };
  const ids: number[] = [];
  for (const body of [polygon, circle]) ids.push(ok(await h.post("/add_geofence", { user, body }), GeoCreatedSchema).id);
  return ids;
}

async function addReport(h: ApiHarness, user: TestUser, title: string, devices: number[]): Promise<number> {
  return ok(await h.post("/add_report", { user, body: { title, type: 1, format: "pdf", devices, stops: 10 } }), AddReportResponseSchema).id;
}

const formData = async (h: ApiHarness, user: TestUser) => ok(await h.get("/add_report_data", { user }), AddReportDataResponseSchema);

describeApi("add_report_data", (h) => {
  it("lists the user's devices as get_devices' device records and the user's geofences as get_geofences', never another user's", async () => {
    const user = await h.newUser();
    const other = await h.newUser();
    const devices = [await h.addDevice(user, { name: "Van of mine" }), await h.addDevice(user, { name: "Truck of mine" })];
    const geofences = await addGeofences(h, user, "mine");
    await h.addDevice(other, { name: "Van of theirs" });
    await addGeofences(h, other, "theirs");
    await addReport(h, other, "Report of theirs", [await h.addDevice(other)]);

    const res = await h.get("/add_report_data", { user });
    const body = ok(res, AddReportDataResponseSchema);
    expect(body.devices.map((d) => d.id)).toEqual(devices.map(String));
    expect(body.devices.map((d) => d.name)).toEqual(["Van of mine", "Truck of mine"]);
    const listed = ok(await h.get("/get_devices", { user }), GetDevicesResponseSchema).flatMap((g) => g.items.map((i) => i.device_data));
    expect(body.devices).toEqual(listed.sort((a, b) => Number(a.id) - Number(b.id)));
    expect(body.geofences.map((g) => g.id)).toEqual(geofences);
    expect(body.geofences).toEqual(ok(await h.get("/get_geofences", { user }), GetGeofencesResponseSchema).items.geofences);
    for (const text of ["of theirs", "Depot theirs", "Yard theirs", other.email]) expect(res.text).not.toContain(text);
  });

  it("offers the formats, the minimal stops, the period filters and every report type of the catalogue", async () => {
    const body = await formData(h, await h.newUser());
    expect(body.formats).toEqual([
      { id: "html", value: "HTML" },
      { id: "xls", value: "XLS" },
      { id: "pdf", value: "PDF" },
      { id: "pdf_land", value: "PDF (Landscape)" },
    ]);
    expect(body.stops).toEqual([
      { id: 1, value: "> 1 min" },
      { id: 2, value: "> 2 min" },
      { id: 5, value: "> 5 min" },
      { id: 10, value: "> 10 min" },
      { id: 20, value: "> 20 min" },
      { id: 30, value: "> 30 min" },
      { id: 60, value: "> 1 h" },
      { id: 120, value: "> 2 h" },
      { id: 300, value: "> 5 h" },
    ]);
    // The vendor's ids: its 3 and 4 ("Before 2 days", "Before 3 days") are not offered.
    expect(body.filters).toEqual([
      { id: 0, value: "Custom" },
      { id: 1, value: "Today" },
      { id: 2, value: "Yesterday" },
      { id: 5, value: "This week" },
      { id: 6, value: "Last week" },
      { id: 7, value: "This month" },
      { id: 8, value: "Last month" },
    ]);
    expect(body.types).toEqual(reportTypes.map((t) => ({ id: t.type, value: t.name })));
    expect(body.types).toContainEqual({ id: 28, value: "Geofence in/out (Shift)" });
    expect(body.logs).toEqual({ sorting: { sort: "desc", sort_by: "created_at" } });
    expect(body.status).toBe(1);
  });

  it("shows the first page of the user's saved reports as get_reports does, its links leading to get_reports", async () => {
    const user = await h.newUser();
    const device = await h.addDevice(user);
    const ids: number[] = [];
    for (let i = 1; i <= 11; i++) ids.push(await addReport(h, user, `Report ${i} of mine`, [device]));

    const { reports } = await formData(h, user);
    const page = ok(await h.get("/get_reports", { user }), GetReportsResponseSchema).items.reports;
    expect(reports.data).toEqual(page.data);
    expect(reports.data.map((r) => r.id)).toEqual(ids.slice(0, 10));
    expect(reports.data[0]).toMatchObject({ title: "Report 1 of mine", type: 1, format: "pdf", stops: 10, devices: [device] });
    expect({ ...reports, data: [] }).toMatchObject({ total: 11, per_page: 10, current_page: 1, last_page: 2, from: 1, to: 10, prev_page_url: null, url: "/api/get_reports" });
    expect(reports.next_page_url).toMatch(/^\/api\/get_reports\?/);
    const next = ok(await h.inject({ method: "GET", url: signedLink(reports.next_page_url, user.hash) }), GetReportsResponseSchema).items.reports;
    expect(next.data.map((r) => r.id)).toEqual(ids.slice(10));
  });

  it("answers as the vendor's Swagger says", async () => {
    const user = await h.newUser();
    const devices = [await h.addDevice(user), await h.addDevice(user)];
    await addGeofences(h, user, "swagger");
    await addReport(h, user, "Weekly", devices);
    expect(vendorErrors("/add_report_data", (await h.get("/add_report_data", { user })).body)).toEqual([]);
  });

  it("answers a user with no records with empty lists", async () => {
    const body = await formData(h, await h.newUser());
    expect(body.devices).toEqual([]);
    expect(body.geofences).toEqual([]);
    expect(body.reports).toMatchObject({ total: 0, current_page: 1, last_page: 1, from: 0, to: 0, data: [] });
    // An empty page's first and last record are 0, the integers the Swagger's pagination types them.
    expect(vendorErrors("/add_report_data", body)).toEqual([]);
  });
});

/* The report definition endpoints in the matrices. */
import { AddReportResponseSchema } from "@fleet/contracts";
import { ok, type ApiHarness, type TestUser } from "../fixture.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

/** A valid definition of type 1 (which ignores geofences and parameters, so they may be anything valid). */
const reportBody = (o: Records, overrides: Record<string, unknown> = {}) => ({
  title: "Weekly summary",
  type: 1,
  format: "html",
  devices: [o.device],
  geofences: [o.geofence],
  speed_limit: 90,
  stops: 5,
  show_addresses: 1,
  zones_instead: 0,
  daily: 0,
  weekly: 1,
  email: "fleet@example.com",
  parameters: {},
  ...overrides,
});

/** A report of the user's device for a day: general information, which every device can have. */
const generateBody = (o: Records, overrides: Record<string, unknown> = {}) => ({ ...reportBody(o, { daily: 0, weekly: 0, email: "" }), date_from: "2026-03-10", date_to: "2026-03-10", from_time: "00:00", to_time: "23:59", ...overrides });

/** Type 7 needs geofences: the body for cases about the geofence ids. */
const geofenceBody = (o: Records, geofence: number) => reportBody(o, { type: 7, geofences: [geofence] });

const post = (h: ApiHarness, user: TestUser, path: string, body: unknown) => h.post(path, { user, body });

const idCases: IdCase[] = [
  { route: "post /add_report (devices)", call: (h, u, t, o) => post(h, u, "/add_report", reportBody(o, { devices: [o.device, t.device] })) },
  { route: "post /add_report (geofences)", call: (h, u, t, o) => post(h, u, "/add_report", geofenceBody(o, t.geofence)) },
  { route: "post /edit_report", call: (h, u, t, o) => post(h, u, "/edit_report", { id: t.report, ...reportBody(o, { title: "Taken over" }) }) },
  { route: "post /edit_report (devices)", call: (h, u, t, o) => post(h, u, "/edit_report", { id: o.report, ...reportBody(o, { devices: [t.device] }) }) },
  { route: "post /edit_report (geofences)", call: (h, u, t, o) => post(h, u, "/edit_report", { id: o.report, ...geofenceBody(o, t.geofence) }) },
  { route: "get /destroy_report", call: (h, u, t) => h.get("/destroy_report", { user: u, query: { report_id: t.report } }) },
  { route: "post /generate_report (devices)", call: (h, u, t, o) => post(h, u, "/generate_report", generateBody(o, { devices: [o.device, t.device] })) },
  { route: "post /generate_report (geofences)", call: (h, u, t, o) => post(h, u, "/generate_report", generateBody(o, { type: 7, geofences: [t.geofence] })) },
];

const listCases: ListCase[] = [
  { route: "get /get_reports", call: (h, u) => h.get("/get_reports", { user: u }) },
  { route: "get /get_reports_types", call: (h, u) => h.get("/get_reports_types", { user: u }) },
  { route: "get /add_report_data", call: (h, u) => h.get("/add_report_data", { user: u }) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /get_reports_types": () => ({}),
  "get /get_reports": () => ({ query: { page: 1, per_page: 10 } }),
  "get /add_report_data": () => ({}),
  "post /add_report": (o) => ({ body: reportBody(o) }),
  "post /edit_report": (o) => ({ body: { id: o.report, ...reportBody(o) } }),
  "get /destroy_report": (o) => ({ query: { report_id: o.report } }),
  "post /generate_report": (o) => ({ body: generateBody(o) }),
  // A well-formed token no file has: its own isolation is reports-generate.test.ts's.
  "get /report_download": () => ({ query: { token: "A".repeat(43) } }),
};

/** One report on the user's device, on its geofence too when the geo group seeded one. */
async function seed(h: ApiHarness, user: TestUser, base: Records, tag: string): Promise<Partial<Records>> {
  const kind = base.geofence ? { type: 7, geofences: [base.geofence] } : { type: 1 };
  const body = { title: `Report of ${tag}`, format: "html", devices: [base.device], ...kind };
  return { report: ok(await h.post("/add_report", { user, body }), AddReportResponseSchema).id };
}

export const reportsGroup: MatrixGroup = {
  seed,
  privateText: (tag) => [`Report of ${tag}`],
  idCases,
  listCases,
  // The link's token authorises it, not the caller (reports-generate.test.ts).
  accountOnly: ["get /report_download"],
  valid,
};

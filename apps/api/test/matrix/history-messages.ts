/* get_history_messages, delete_history_positions and export_history in the matrices: a device's positions, the part1 group's device. */
import type { ApiHarness, TestUser } from "../fixture.js";
import type { IdCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const DAY = { from_date: "2026-03-10", from_time: "00:00", to_date: "2026-03-10", to_time: "23:59:59" };
const FIX = Date.UTC(2026, 2, 10, 12, 0, 0);
/** The seeded positions' ids: one per seeded user, far from any a test writes. */
let nextPositionId = 900_000_000;

const idCases: IdCase[] = [
  { route: "get /get_history_messages", call: (h, u, t) => h.get("/get_history_messages", { user: u, query: { device_id: t.device, ...DAY } }) },
  { route: "post /delete_history_positions", call: (h, u, t) => h.post("/delete_history_positions", { user: u, query: { device_id: t.device }, body: { id: [1] } }) },
  { route: "get /export_history", call: (h, u, t) => h.get("/export_history", { user: u, query: { device_id: t.device, ...DAY, format: "gpx" } }) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /get_history_messages": (o) => ({ query: { device_id: o.device, ...DAY, page: 1, limit: 100 } }),
  // An id that names none of the seeded positions, so a valid call deletes nothing the matrix watches.
  "post /delete_history_positions": (o) => ({ query: { device_id: o.device }, body: { id: [1, 2] } }),
  "get /export_history": (o) => ({ query: { device_id: o.device, ...DAY, format: "kml" } }),
};

/** A position of the user's device, so the reads have something to show (and the owner's view something to keep). */
async function seed(h: ApiHarness, user: TestUser, base: Records): Promise<Partial<Records>> {
  const id = nextPositionId++;
  const row = { id, deviceId: base.device, uniqueId: `matrix-${user.id}`, protocol: "osmand", latitude: 54.7, longitude: 25.3, altitude: 100, course: 0, speedKmh: 0, distanceKm: 0, fixTime: FIX, serverTime: FIX, valid: true, engineOn: false, attributes: {} };
  await h.history.insert([row]);
  return {};
}

export const historyMessagesGroup: MatrixGroup = {
  seed,
  // Positions carry no text of the user's beyond the device, which part1 watches.
  privateText: () => [],
  idCases,
  listCases: [],
  valid,
};

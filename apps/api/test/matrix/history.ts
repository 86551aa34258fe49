/* The history endpoints in the matrices: they read the positions of a device, the part1 group's. */
import type { IdCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const DAY = { from_date: "2026-03-10", from_time: "00:00", to_date: "2026-03-10", to_time: "23:59:59" };

const idCases: IdCase[] = [{ route: "get /get_history", call: (h, u, t) => h.get("/get_history", { user: u, query: { device_id: t.device, ...DAY } }) }];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /get_history": (o) => ({ query: { device_id: o.device, ...DAY, snap_to_road: "false", stops: 300 } }),
};

export const historyGroup: MatrixGroup = {
  // Reads only: nothing to seed beyond the device, and nothing of its own to keep private.
  seed: async () => ({}),
  privateText: () => [],
  idCases,
  listCases: [],
  valid,
};

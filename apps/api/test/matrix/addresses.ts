/* The address endpoints in the matrices. They take no record ids; /address reads the caller's geofences, so its list case is asked at the point the geo group's seeded geofence holds. */
import type { ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

/** Inside the geo group's SQUARE (Vilnius old town), where each user has a geofence of their own. */
const IN_SEEDED_GEOFENCE = { lat: 54.69, lng: 25.28 };

const listCases: ListCase[] = [
  { route: "get /address", call: (h, u) => h.get("/address", { user: u, query: IN_SEEDED_GEOFENCE }) },
  { route: "get /address/reverse", call: (h, u) => h.get("/address/reverse", { user: u, query: IN_SEEDED_GEOFENCE }) },
  { route: "get /address/search", call: (h, u) => h.get("/address/search", { user: u, query: { q: "Vilnius" } }) },
  { route: "get /address/autocomplete", call: (h, u) => h.get("/address/autocomplete", { user: u, query: { q: "Vil" } }) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /address": () => ({ query: IN_SEEDED_GEOFENCE }),
  "get /address/reverse": () => ({ query: IN_SEEDED_GEOFENCE }),
  "get /address/search": () => ({ query: { q: "Vilnius" } }),
  "get /address/autocomplete": () => ({ query: { q: "Vil" } }),
};

export const addressesGroup: MatrixGroup = {
  seed: async () => ({}),
  privateText: () => [],
  idCases: [],
  listCases,
  valid,
};

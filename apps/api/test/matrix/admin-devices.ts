/* The administration of clients and devices in the malformed-input matrix (administrators see every account, so no isolation cases). */
import type { MatrixGroup, Records, RequestSpec } from "./types.js";

const valid: Record<string, (o: Records) => RequestSpec> = {
  "put /admin/client": (o) => ({ body: { id: o.client, email: "matrix-client@example.com", active: true, devices_limit: 5, expiration_date: "2099-01-01", objects: [o.device] } }),
  "post /admin/client/status": (o) => ({ body: { id: o.client, status: true } }),
  "delete /admin/client/{id}": (o) => ({ params: { id: o.client } }),
  "delete /admin/clients": (o) => ({ body: { ids: [o.client] } }),
  "get /admin/client/{id}/devices": (o) => ({ params: { id: o.client }, query: { limit: 10, page: 1 } }),
  "get /admin/devices": () => ({ query: { s: "van", property: "name", limit: 10, page: 1 } }),
  "get /admin/device/{device}": (o) => ({ params: { device: o.device } }),
  "post /admin/device/{device}/user": (o) => ({ params: { device: o.device }, body: { user_id: o.client } }),
  "delete /admin/device/{device}/user": (o) => ({ params: { device: o.device }, query: { user_id: o.client } }),
  "post /admin/device/{device}/status": (o) => ({ params: { device: o.device }, body: { active: 1 } }),
  "post /admin/device/{device}/expiration": (o) => ({ params: { device: o.device }, body: { expiration_date: 1_900_000_000 } }),
  "get /admin/device/{device}/users": (o) => ({ params: { device: o.device }, query: { limit: 10 } }),
};

export const adminDevicesGroup: MatrixGroup = {
  // A client of its own for the requests to name: the matrix user stays untouched.
  seed: async (h) => ({ client: (await h.newUser()).id }),
  privateText: () => [],
  idCases: [],
  listCases: [],
  accountOnly: Object.keys(valid),
  valid,
};

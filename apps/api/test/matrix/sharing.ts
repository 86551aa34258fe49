/* Sharing links in the matrices, and the link's public view. */
import { SharingResponseSchema } from "@fleet/contracts";
import { ok } from "../fixture.js";
import { put } from "./geo.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const idCases: IdCase[] = [
  { route: "post /sharing (devices)", call: (h, u, t, o) => h.post("/sharing", { user: u, body: { name: "Taken over", devices: [o.device, t.device] } }) },
  { route: "get /sharing/{id}", call: (h, u, t) => h.get(`/sharing/${t.sharing}`, { user: u }) },
  { route: "put /sharing/{id}", call: (h, u, t) => put(h, u, `/sharing/${t.sharing}`, { name: "Taken over", active: false }) },
  { route: "put /sharing/{id} (devices)", call: (h, u, t, o) => put(h, u, `/sharing/${o.sharing}`, { devices: [t.device] }) },
  { route: "put /sharing/{id}/devices", call: (h, u, t, o) => put(h, u, `/sharing/${t.sharing}/devices`, { devices: [o.device] }) },
  { route: "put /sharing/{id}/devices (devices)", call: (h, u, t, o) => put(h, u, `/sharing/${o.sharing}/devices`, { devices: [t.device] }) },
  { route: "delete /sharing/{id}", call: (h, u, t) => h.request("DELETE", `/sharing/${t.sharing}`, { user: u }) },
];

const listCases: ListCase[] = [{ route: "get /sharing", call: (h, u) => h.get("/sharing", { user: u }) }];

const body = (o: Records) => ({ name: "Customer", devices: [o.device], active: true, enable_expiration_date: true, expiration_date: "2124-03-01 00:00:00", delete_after_expiration: false });

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /sharing": () => ({ query: { page: 1, limit: 10 } }),
  "post /sharing": (o) => ({ body: body(o) }),
  "get /sharing/{id}": (o) => ({ params: { id: o.sharing } }),
  "put /sharing/{id}": (o) => ({ params: { id: o.sharing }, body: body(o) }),
  "put /sharing/{id}/devices": (o) => ({ params: { id: o.sharing }, body: { devices: [o.device] } }),
  "delete /sharing/{id}": (o) => ({ params: { id: o.sharing } }),
  "get /shared_devices": () => ({ query: { token: "A".repeat(32) } }),
};

export const sharingGroup: MatrixGroup = {
  async seed(h, user, base, tag) {
    return { sharing: ok(await h.post("/sharing", { user, body: { name: `Sharing of ${tag}`, devices: [base.device] } }), SharingResponseSchema).id };
  },
  privateText: (tag) => [`Sharing of ${tag}`],
  idCases,
  listCases,
  // The link's view answers whoever holds a sharing's hash, which is its credential.
  accountOnly: ["get /shared_devices"],
  valid,
};

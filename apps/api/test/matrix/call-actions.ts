/* Call actions in the matrices. */
import { CallActionResponseSchema } from "@fleet/contracts";
import { ok } from "../fixture.js";
import { put } from "./geo.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const idCases: IdCase[] = [
  { route: "post /call_actions/store (device_id)", call: (h, u, t) => h.post("/call_actions/store", { user: u, body: { device_id: t.device, response_type: "answer" } }) },
  { route: "post /call_actions/store (alert_id)", call: (h, u, t, o) => h.post("/call_actions/store", { user: u, body: { device_id: o.device, alert_id: t.alert, response_type: "answer" } }) },
  { route: "get /call_actions/{id}", call: (h, u, t) => h.get(`/call_actions/${t.callAction}`, { user: u }) },
  { route: "put /call_actions/update/{id}", call: (h, u, t) => put(h, u, `/call_actions/update/${t.callAction}`, { remarks: "Taken over" }) },
  { route: "put /call_actions/update/{id} (device_id)", call: (h, u, t, o) => put(h, u, `/call_actions/update/${o.callAction}`, { device_id: t.device }) },
  { route: "delete /call_actions/destory/{id}", call: (h, u, t) => h.request("DELETE", `/call_actions/destory/${t.callAction}`, { user: u }) },
];

const listCases: ListCase[] = [
  { route: "get /call_actions", call: (h, u) => h.get("/call_actions", { user: u }) },
  { route: "get /call_actions/event_types", call: (h, u) => h.get("/call_actions/event_types", { user: u }) },
  { route: "get /call_actions/response_types", call: (h, u) => h.get("/call_actions/response_types", { user: u }) },
];

const body = (o: Records) => ({ device_id: o.device, alert_id: o.alert, called_at: "2026-11-20 08:05:00", response_type: "no_answer", remarks: "Rang twice" });

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /call_actions": (o) => ({ query: { page: 1, limit: 10, device_id: o.device } }),
  "get /call_actions/event_types": () => ({}),
  "get /call_actions/response_types": () => ({}),
  "post /call_actions/store": (o) => ({ body: body(o) }),
  "get /call_actions/{id}": (o) => ({ params: { id: o.callAction } }),
  "put /call_actions/update/{id}": (o) => ({ params: { id: o.callAction }, body: body(o) }),
  "delete /call_actions/destory/{id}": (o) => ({ params: { id: o.callAction } }),
};

export const callActionsGroup: MatrixGroup = {
  async seed(h, user, base, tag) {
    const body = { device_id: base.device, alert_id: base.alert, response_type: "answer", remarks: `Call of ${tag}` };
    return { callAction: ok(await h.post("/call_actions/store", { user, body }), CallActionResponseSchema).id };
  },
  privateText: (tag) => [`Call of ${tag}`],
  idCases,
  listCases,
  valid,
};

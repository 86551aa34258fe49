/* A device's photos in the matrices. */
import { DeviceMediaUploadResponseSchema } from "@fleet/contracts";
import { ok, type ApiHarness, type TestUser } from "../fixture.js";
import { PNG_BASE64 } from "../task-body.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const PNG_DATA_URL = `data:image/png;base64,${PNG_BASE64}`;

const file = (h: ApiHarness, user: TestUser, method: "GET" | "DELETE", device: number, name: string) => h.request(method, `/devices/${device}/media/file/${name}`, { user });

const idCases: IdCase[] = [
  { route: "get /devices/{device_id}/media", call: (h, u, t) => h.get(`/devices/${t.device}/media`, { user: u }) },
  { route: "post /devices/{device_id}/media", call: (h, u, t) => h.post(`/devices/${t.device}/media`, { user: u, body: { file: PNG_DATA_URL, camera_name: "Intruder" } }) },
  { route: "get /devices/{device_id}/media/file/{filename}", call: (h, u, t) => file(h, u, "GET", t.device, t.media) },
  // Another user's file name under the caller's own device: found only under its own.
  { route: "get /devices/{device_id}/media/file/{filename} (filename)", call: (h, u, t, o) => file(h, u, "GET", o.device, t.media) },
  { route: "delete /devices/{device_id}/media/file/{filename}", call: (h, u, t) => file(h, u, "DELETE", t.device, t.media) },
  { route: "delete /devices/{device_id}/media/file/{filename} (filename)", call: (h, u, t, o) => file(h, u, "DELETE", o.device, t.media) },
];

const listCases: ListCase[] = [];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /devices/{device_id}/media": (o) => ({ params: { device_id: o.device }, query: { page: 1, limit: 15 } }),
  "post /devices/{device_id}/media": (o) => ({ params: { device_id: o.device }, body: { file: PNG_DATA_URL, camera_name: "Rear" } }),
  "get /devices/{device_id}/media/file/{filename}": (o) => ({ params: { device_id: o.device, filename: o.media } }),
  "delete /devices/{device_id}/media/file/{filename}": (o) => ({ params: { device_id: o.device, filename: o.media } }),
};

export const deviceMediaGroup: MatrixGroup = {
  async seed(h, user, base, tag) {
    const body = { file: PNG_DATA_URL, camera_name: `Camera of ${tag}` };
    const url = ok(await h.post(`/devices/${base.device}/media`, { user, body }), DeviceMediaUploadResponseSchema).data.url;
    return { media: url.split("/").at(-1)! };
  },
  privateText: (tag) => [`Camera of ${tag}`],
  idCases,
  listCases,
  valid,
};

/* The events endpoints in the matrices. Events are written by the rules service, so the seed records them as it would. */
import { recordEvents } from "@fleet/db";
import type { ApiHarness, TestUser } from "../fixture.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const idCases: IdCase[] = [{ route: "get /get_events (device_id)", call: (h, u, t) => h.get("/get_events", { user: u, query: { device_id: t.device } }) }];

const listCases: ListCase[] = [
  { route: "get /get_events", call: (h, u) => h.get("/get_events", { user: u }) },
  { route: "get /get_events_by_protocol", call: (h, u) => h.get("/get_events_by_protocol", { user: u, query: { protocol: "osmand", type: 1 } }) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /get_events": (o) => ({ query: { device_id: o.device, type: "geofence_in", date_from: "2025-01-01", date_to: "2025-12-31 23:59:59", search: "Event", page: 1, per_page: 30 } }),
  "get /get_events_by_protocol": () => ({ query: { protocol: "osmand", type: 1 } }),
  "get /destroy_events": () => ({}),
};

/** An event on the user's device, in its geofence when the geo group seeded one. */
async function seed(h: ApiHarness, user: TestUser, base: Records, tag: string): Promise<Partial<Records>> {
  await recordEvents(h.db, [
    {
      userId: user.id,
      deviceId: base.device,
      type: "geofence_in",
      message: `Event of ${tag}`,
      address: `Address of ${tag}`,
      time: new Date("2025-06-01T08:00:00Z"),
      latitude: 54.7,
      longitude: 25.3,
      geofenceId: base.geofence || null,
      alertId: base.alert || null,
      dedupeKey: `matrix-${tag}`,
    },
  ]);
  return {};
}

export const eventsGroup: MatrixGroup = {
  seed,
  privateText: (tag) => [`Event of ${tag}`, `Address of ${tag}`],
  idCases,
  listCases,
  // It deletes the caller's own events only (events.test.ts shows another user's stay); the
  // isolation test's reads before and after would see its own deletion.
  accountOnly: ["get /destroy_events"],
  valid,
};

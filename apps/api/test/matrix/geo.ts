/* Geofences, geofence groups, routes and map icons in the matrices. */
import { GeoCreatedSchema } from "@fleet/contracts";
import { ok, type ApiHarness, type TestUser } from "../fixture.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

/** A closed square around Vilnius old town. */
export const SQUARE = [
  { lat: 54.68, lng: 25.27 },
  { lat: 54.68, lng: 25.29 },
  { lat: 54.7, lng: 25.29 },
  { lat: 54.7, lng: 25.27 },
  { lat: 54.68, lng: 25.27 },
];
const LINE = [
  { lat: 54.68, lng: 25.27 },
  { lat: 54.69, lng: 25.28 },
];

export const geofenceBody = (extra: Record<string, unknown> = {}) => ({ name: "Zone", polygon_color: "#00AB33", type: "polygon", polygon: SQUARE, ...extra });
export const routeBody = (extra: Record<string, unknown> = {}) => ({ name: "Road", color: "#AA00F5", polyline: LINE, ...extra });
export const mapIconBody = (extra: Record<string, unknown> = {}) => ({ name: "Depot", description: "", map_icon_id: 1, coordinates: { lat: 54.69, lng: 25.28 }, ...extra });

const get = (h: ApiHarness, user: TestUser, path: string, query: Record<string, string | number>) => h.get(path, { user, query });
const post = (h: ApiHarness, user: TestUser, path: string, body: unknown) => h.post(path, { user, body });
/** The vendor's PUT, which the harness's helpers do not speak. */
export const put = (h: ApiHarness, user: TestUser, path: string, body: unknown) =>
  h.inject({ method: "PUT", url: `/api${path}`, query: { lang: "en", user_api_hash: user.hash }, headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });

const idCases: IdCase[] = [
  { route: "post /add_geofence (group_id)", call: (h, u, t) => post(h, u, "/add_geofence", geofenceBody({ group_id: t.geofenceGroup })) },
  { route: "post /edit_geofence", call: (h, u, t) => post(h, u, "/edit_geofence", geofenceBody({ id: t.geofence, name: "Taken over" })) },
  { route: "post /edit_geofence (group_id)", call: (h, u, t, o) => post(h, u, "/edit_geofence", geofenceBody({ id: o.geofence, group_id: t.geofenceGroup })) },
  { route: "get /destroy_geofence", call: (h, u, t) => get(h, u, "/destroy_geofence", { geofence_id: t.geofence }) },
  { route: "get /change_active_geofence", call: (h, u, t) => get(h, u, "/change_active_geofence", { id: t.geofence, active: "false" }) },
  { route: "post /change_active_geofence", call: (h, u, t, o) => post(h, u, "/change_active_geofence", { id: [o.geofence, t.geofence], active: false }) },
  { route: "post /geofences_groups/store (geofences)", call: (h, u, t, o) => post(h, u, "/geofences_groups/store", { title: "Taken over", geofences: [o.geofence, t.geofence] }) },
  { route: "put /geofences_groups/update/{id}", call: (h, u, t) => put(h, u, `/geofences_groups/update/${t.geofenceGroup}`, { title: "Taken over" }) },
  { route: "post /geofences_groups/update/{id}", call: (h, u, t) => post(h, u, `/geofences_groups/update/${t.geofenceGroup}`, { title: "Taken over", geofences: [] }) },
  { route: "post /geofences_groups/update/{id} (geofences)", call: (h, u, t, o) => post(h, u, `/geofences_groups/update/${o.geofenceGroup}`, { geofences: [t.geofence] }) },
  { route: "get /geofences_groups/destroy/{id}", call: (h, u, t) => get(h, u, `/geofences_groups/destroy/${t.geofenceGroup}`, {}) },
  { route: "post /edit_route", call: (h, u, t) => post(h, u, "/edit_route", routeBody({ id: t.route, name: "Taken over" })) },
  { route: "get /destroy_route", call: (h, u, t) => get(h, u, "/destroy_route", { route_id: t.route }) },
  { route: "get /change_active_route", call: (h, u, t) => get(h, u, "/change_active_route", { id: t.route, active: 0 }) },
  { route: "post /change_active_route", call: (h, u, t, o) => post(h, u, "/change_active_route", { id: [o.route, t.route], active: false }) },
  { route: "post /edit_map_icon", call: (h, u, t) => post(h, u, "/edit_map_icon", mapIconBody({ id: t.mapIcon, name: "Taken over" })) },
  { route: "get /destroy_map_icon", call: (h, u, t) => get(h, u, "/destroy_map_icon", { map_icon_id: t.mapIcon }) },
  { route: "get /change_active_map_icon", call: (h, u, t) => get(h, u, "/change_active_map_icon", { id: t.mapIcon, active: "0" }) },
  { route: "post /change_active_map_icon", call: (h, u, t, o) => post(h, u, "/change_active_map_icon", { id: [o.mapIcon, t.mapIcon], active: false }) },
];

const listCases: ListCase[] = [
  { route: "get /get_geofences", call: (h, u) => h.get("/get_geofences", { user: u }) },
  { route: "get /geofences_groups", call: (h, u) => h.get("/geofences_groups", { user: u, query: { search_phrase: "of" } }) },
  { route: "get /get_routes", call: (h, u) => h.get("/get_routes", { user: u }) },
  { route: "get /get_map_icons", call: (h, u) => h.get("/get_map_icons", { user: u }) },
  { route: "get /get_user_map_icons", call: (h, u) => h.get("/get_user_map_icons", { user: u }) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /get_geofences": () => ({}),
  "post /add_geofence": () => ({ body: geofenceBody() }),
  "post /edit_geofence": (o) => ({ body: geofenceBody({ id: o.geofence, group_id: o.geofenceGroup, active: true }) }),
  "get /destroy_geofence": (o) => ({ query: { geofence_id: o.geofence } }),
  "get /change_active_geofence": (o) => ({ query: { id: o.geofence, active: "true" } }),
  "post /change_active_geofence": (o) => ({ body: { id: [o.geofence], active: true } }),
  "get /geofences_groups": () => ({ query: { search_phrase: "group", limit: 10, page: 1, sort_by: "title", sort: "desc" } }),
  "post /geofences_groups/store": (o) => ({ body: { title: "Group", open: true, geofences: [o.geofence] } }),
  "put /geofences_groups/update/{id}": (o) => ({ params: { id: o.geofenceGroup }, body: { title: "Group", open: false, geofences: [o.geofence] } }),
  "post /geofences_groups/update/{id}": (o) => ({ params: { id: o.geofenceGroup }, body: { title: "Group", open: false, geofences: [o.geofence] } }),
  "get /geofences_groups/destroy/{id}": (o) => ({ params: { id: o.geofenceGroup } }),
  "get /get_routes": () => ({ query: { page: 1 } }),
  "post /add_route": () => ({ body: routeBody() }),
  "post /edit_route": (o) => ({ body: routeBody({ id: o.route }) }),
  "get /destroy_route": (o) => ({ query: { route_id: o.route } }),
  "get /change_active_route": (o) => ({ query: { id: o.route, active: "true" } }),
  "post /change_active_route": (o) => ({ body: { id: o.route, active: true } }),
  "get /get_map_icons": () => ({}),
  "get /get_user_map_icons": () => ({}),
  "post /add_map_icon": () => ({ body: mapIconBody() }),
  "post /edit_map_icon": (o) => ({ body: mapIconBody({ id: o.mapIcon }) }),
  "get /destroy_map_icon": (o) => ({ query: { map_icon_id: o.mapIcon } }),
  "get /change_active_map_icon": (o) => ({ query: { id: o.mapIcon, active: "true" } }),
  "post /change_active_map_icon": (o) => ({ body: { id: [o.mapIcon], active: true } }),
};

async function seed(h: ApiHarness, user: TestUser, _base: Records, tag: string): Promise<Partial<Records>> {
  const geofenceGroup = ok(await post(h, user, "/geofences_groups/store", { title: `Geofence group of ${tag}` }), GeoCreatedSchema).id;
  const geofence = ok(await post(h, user, "/add_geofence", geofenceBody({ name: `Geofence of ${tag}`, group_id: geofenceGroup })), GeoCreatedSchema).id;
  const route = ok(await post(h, user, "/add_route", routeBody({ name: `Route of ${tag}` })), GeoCreatedSchema).id;
  const mapIcon = ok(await post(h, user, "/add_map_icon", mapIconBody({ name: `Map icon of ${tag}`, description: `Note of ${tag}` })), GeoCreatedSchema).id;
  return { geofence, geofenceGroup, route, mapIcon };
}

export const geoGroup: MatrixGroup = {
  seed,
  privateText: (tag) => [`Geofence of ${tag}`, `Geofence group of ${tag}`, `Route of ${tag}`, `Map icon of ${tag}`, `Note of ${tag}`],
  idCases,
  listCases,
  accountOnly: ["post /add_route", "post /add_map_icon"],
  valid,
};

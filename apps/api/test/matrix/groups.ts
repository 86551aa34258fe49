/* Device, route and map icon groups (devices_groups, routes_groups, pois_groups) and point_in_geofences in the matrices. */
import { GeoCreatedSchema } from "@fleet/contracts";
import { ok, type ApiHarness, type TestUser } from "../fixture.js";
import { put } from "./geo.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const get = (h: ApiHarness, user: TestUser, path: string, query: Record<string, string | number> = {}) => h.get(path, { user, query });
const post = (h: ApiHarness, user: TestUser, path: string, body: unknown) => h.post(path, { user, body });

/** One kind of group: its path, its members' request name, and where the matrix keeps the ids. */
interface Kind {
  path: string;
  members: string;
  group: (r: Records) => number;
  member: (r: Records) => number;
}

const KINDS: Kind[] = [
  { path: "devices_groups", members: "devices", group: (r) => r.group, member: (r) => r.device },
  { path: "routes_groups", members: "routes", group: (r) => r.routeGroup, member: (r) => r.route },
  { path: "pois_groups", members: "pois", group: (r) => r.mapIconGroup, member: (r) => r.mapIcon },
];

const idCases: IdCase[] = KINDS.flatMap(({ path, members, group, member }): IdCase[] => [
  { route: `post /${path}/store (${members})`, call: (h, u, t, o) => post(h, u, `/${path}/store`, { title: "Taken over", [members]: [member(o), member(t)] }) },
  { route: `put /${path}/update/{id}`, call: (h, u, t) => put(h, u, `/${path}/update/${group(t)}`, { title: "Taken over" }) },
  { route: `post /${path}/update/{id}`, call: (h, u, t) => post(h, u, `/${path}/update/${group(t)}`, { title: "Taken over", [members]: [] }) },
  { route: `post /${path}/update/{id} (${members})`, call: (h, u, t, o) => post(h, u, `/${path}/update/${group(o)}`, { [members]: [member(t)] }) },
  { route: `get /${path}/destroy/{id}`, call: (h, u, t) => get(h, u, `/${path}/destroy/${group(t)}`) },
]);

/** Inside the geofence every seed draws (matrix/geo.ts' SQUARE). */
const INSIDE = { lat: 54.69, lng: 25.28 };

const listCases: ListCase[] = [
  ...KINDS.map(({ path }): ListCase => ({ route: `get /${path}`, call: (h, u) => get(h, u, `/${path}`, { search_phrase: "of" }) })),
  { route: "get /point_in_geofences", call: (h, u) => get(h, u, "/point_in_geofences", INSIDE) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  ...Object.fromEntries(
    KINDS.flatMap(({ path, members, group, member }) => {
      const body = (o: Records) => ({ title: "Group", open: false, [members]: [member(o)] });
      return [
        [`get /${path}`, () => ({ query: { search_phrase: "group", "filter[title]": "Group", limit: 10, page: 1, "sorting[sort_by]": "title", "sorting[sort]": "desc" } })],
        [`post /${path}/store`, (o: Records) => ({ body: body(o) })],
        [`put /${path}/update/{id}`, (o: Records) => ({ params: { id: group(o) }, body: body(o) })],
        [`post /${path}/update/{id}`, (o: Records) => ({ params: { id: group(o) }, body: body(o) })],
        [`get /${path}/destroy/{id}`, (o: Records) => ({ params: { id: group(o) } })],
      ];
    }),
  ),
  "get /point_in_geofences": () => ({ query: INSIDE }),
};

async function seed(h: ApiHarness, user: TestUser, base: Records, tag: string): Promise<Partial<Records>> {
  const routeGroup = ok(await post(h, user, "/routes_groups/store", { title: `Route group of ${tag}`, routes: [base.route] }), GeoCreatedSchema).id;
  const mapIconGroup = ok(await post(h, user, "/pois_groups/store", { title: `Map icon group of ${tag}`, pois: [base.mapIcon] }), GeoCreatedSchema).id;
  return { routeGroup, mapIconGroup };
}

export const groupsGroup: MatrixGroup = {
  seed,
  privateText: (tag) => [`Route group of ${tag}`, `Map icon group of ${tag}`],
  idCases,
  listCases,
  valid,
};

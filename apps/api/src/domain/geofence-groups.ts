import { NotFoundError, type GeofenceGroupRecord, type GeofenceGroupsQuery, type StoreGeofenceGroupBody, type UpdateGeofenceGroupBody } from "@fleet/contracts";
import { createGeofenceGroup, destroyGeofenceGroup, pageUserGeofenceGroups, updateGeofenceGroup, type Db, type GeofenceGroup, type User } from "@fleet/db";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { worded, type Wording } from "./refusals.js";

/*
 * The vendor's geofence groups: list, store and update as its swagger has them, plus a
 * destroy it does not show. `open` (whether a client shows a group expanded) has no
 * column, so it is accepted and always returned false.
 */

const WHAT = "Geofence group";

// The request names the members `geofences`: "The selected geofences are invalid."
const wording: Wording = { geofenceIds: { field: "geofences" } };

export function groupRecord(g: GeofenceGroup): GeofenceGroupRecord {
  return { id: g.id, user_id: g.userId, title: g.title, open: false };
}

/** A page of the user's groups, optionally filtered by title and sorted; `url` is the request's, for the page links. */
export async function list(db: Db, user: User, query: GeofenceGroupsQuery, url: string) {
  const { search_phrase, limit, page: pageNo, sort_by, sort } = query;
  const page = pageRequest({ page: pageNo, per_page: limit });
  const { total, rows } = await pageUserGeofenceGroups(db, user.id, { search: search_phrase, sortBy: sort_by ?? "id", sort: sort ?? "asc", ...pageWindow(page) });
  const { data, from: _from, to: _to, ...pagination } = paginate({ url }, page, total, rows.map(groupRecord));
  return { status: 1 as const, data, pagination };
}

export async function store(db: Db, user: User, body: StoreGeofenceGroupBody) {
  const group = await worded(createGeofenceGroup(db, user.id, { title: body.title, geofenceIds: body.geofences }), wording);
  return { status: 1 as const, id: group.id };
}

export async function update(db: Db, user: User, id: number, body: UpdateGeofenceGroupBody) {
  const group = await worded(updateGeofenceGroup(db, user.id, id, { title: body.title, geofenceIds: body.geofences }), wording);
  if (!group) throw new NotFoundError(WHAT);
  return { status: 1 as const, id: group.id };
}

export async function destroy(db: Db, user: User, id: number) {
  if (!(await destroyGeofenceGroup(db, user.id, id))) throw new NotFoundError(WHAT);
  return { status: 1 as const, id };
}

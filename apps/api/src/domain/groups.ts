import type { GroupRecord, GroupsQuery } from "@fleet/contracts";
import {
  createDeviceGroup,
  createMapIconGroup,
  createRouteGroup,
  destroyDeviceGroup,
  destroyMapIconGroup,
  destroyRouteGroup,
  pageDeviceGroups,
  pageMapIconGroups,
  pageRouteGroups,
  updateDeviceGroup,
  updateMapIconGroup,
  updateRouteGroup,
  type Db,
  type GroupPage,
  type User,
} from "@fleet/db";
import { pageRequest, pageWindow, paginateCompact } from "../lib/pagination.js";
import { found } from "./found.js";
import { worded, type Wording } from "./refusals.js";

/*
 * The vendor's groups of geofences, devices, routes and map icons (`*_groups`): list,
 * store and update as its swagger has them, plus a destroy it does not show. `open`
 * (whether a client shows a group expanded) has no column, so it is accepted and always
 * returned false. A device group is the user's own view: it moves the user's pivot rows,
 * and is the same group edit_setup's `groups` writes and get_devices groups by.
 */

interface GroupRow {
  id: number;
  userId: number;
  title: string;
}

/** What a kind of group needs from its queries, each scoped to the user; a miss is undefined or false. */
export interface GroupQueries<G extends GroupRow> {
  page(db: Db, userId: number, page: GroupPage): Promise<{ total: number; rows: G[] }>;
  create(db: Db, userId: number, title: string, memberIds: readonly number[] | undefined): Promise<G>;
  update(db: Db, userId: number, id: number, title: string | undefined, memberIds: readonly number[] | undefined): Promise<G | undefined>;
  destroy(db: Db, userId: number, id: number): Promise<boolean>;
}

export interface GroupKind<G extends GroupRow, K extends string> {
  /** The 404's words: "Device group not found." */
  what: string;
  /** The request's name for the members (`devices`), which a refusal names too. */
  members: K;
  /** The queries' name for the members in a refusal (`deviceIds`). */
  memberKey: string;
  queries: GroupQueries<G>;
}

/** A store or update body: the title and the members under their request name. */
export type GroupBody<K extends string> = { title?: string } & { [P in K]?: number[] };

export function groupRecord(g: GroupRow): GroupRecord {
  return { id: g.id, user_id: g.userId, title: g.title, open: false };
}

/** The list, store, update and destroy of one kind of group. */
export function groupDomain<G extends GroupRow, K extends string>(kind: GroupKind<G, K>) {
  const { what, members, queries } = kind;
  // "The selected devices are invalid."
  const wording: Wording = { [kind.memberKey]: { field: members } };
  const memberIds = (body: GroupBody<K>) => body[members] as number[] | undefined;

  return {
    /** A page of the user's groups, searched, filtered and sorted; `url` is the request's, for the page links. */
    async list(db: Db, user: User, query: GroupsQuery, url: string) {
      const { search_phrase, filter, limit, page: pageNo, sorting } = query;
      const page = pageRequest({ page: pageNo, per_page: limit });
      const sortBy = query.sort_by ?? sorting?.sort_by ?? "id";
      const sort = query.sort ?? sorting?.sort ?? "asc";
      const { total, rows } = await queries.page(db, user.id, { search: search_phrase, filter, sortBy, sort, ...pageWindow(page) });
      return { status: 1 as const, ...paginateCompact({ url }, page, total, rows.map(groupRecord)) };
    },

    async store(db: Db, user: User, body: GroupBody<K> & { title: string }) {
      const group = await worded(queries.create(db, user.id, body.title, memberIds(body)), wording);
      return { status: 1 as const, id: group.id };
    },

    async update(db: Db, user: User, id: number, body: GroupBody<K>) {
      const group = await found(worded(queries.update(db, user.id, id, body.title, memberIds(body)), wording), what);
      return { status: 1 as const, id: group.id };
    },

    async destroy(db: Db, user: User, id: number) {
      await found(queries.destroy(db, user.id, id), what);
      return { status: 1 as const, id };
    },
  };
}

export type GroupDomain = ReturnType<typeof groupDomain>;

export const deviceGroups = groupDomain({
  what: "Device group",
  members: "devices",
  memberKey: "deviceIds",
  queries: {
    page: pageDeviceGroups,
    create: (db, userId, title, deviceIds) => createDeviceGroup(db, userId, { title, deviceIds }),
    update: (db, userId, id, title, deviceIds) => updateDeviceGroup(db, userId, id, { title, deviceIds }),
    destroy: destroyDeviceGroup,
  },
});

export const routeGroups = groupDomain({
  what: "Route group",
  members: "routes",
  memberKey: "routeIds",
  queries: {
    page: pageRouteGroups,
    create: (db, userId, title, routeIds) => createRouteGroup(db, userId, { title, routeIds }),
    update: (db, userId, id, title, routeIds) => updateRouteGroup(db, userId, id, { title, routeIds }),
    destroy: destroyRouteGroup,
  },
});

export const poiGroups = groupDomain({
  what: "Map icon group",
  members: "pois",
  memberKey: "mapIconIds",
  queries: {
    page: pageMapIconGroups,
    create: (db, userId, title, mapIconIds) => createMapIconGroup(db, userId, { title, mapIconIds }),
    update: (db, userId, id, title, mapIconIds) => updateMapIconGroup(db, userId, id, { title, mapIconIds }),
    destroy: destroyMapIconGroup,
  },
});

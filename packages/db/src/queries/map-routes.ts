import type { Db, Queryable } from "../client.js";
import { groupsOf, type GroupPage } from "../grouped.js";
import { ownedRows, type Page } from "../owned.js";
import { routeGroups, routes, type LatLng, type RouteGroup, type Route } from "../schema/geofences.js";

/** A route's writable fields, already checked. */
export interface RouteInput {
  name: string;
  color: string;
  polyline: LatLng[];
}

const owned = ownedRows(routes);
const grouping = groupsOf(routeGroups, { table: routes, id: routes.id, userId: routes.userId, groupId: routes.groupId }, "routeIds");
const values = (input: RouteInput) => ({ name: input.name, color: input.color, polyline: input.polyline });

/** One page of the user's routes by id, and how many the user has in all. */
export const pageUserRoutes = (db: Queryable, userId: number, page: Page): Promise<{ total: number; rows: Route[] }> => owned.page(db, userId, page);

/** The user's route, or undefined when it does not exist or is another user's. */
export const findUserRoute = (db: Queryable, userId: number, routeId: number): Promise<Route | undefined> => owned.find(db, userId, routeId);

export const createRoute = (db: Queryable, userId: number, input: RouteInput): Promise<Route> => owned.create(db, userId, values(input));

/** Rewrites the user's route; undefined when it does not exist or is another user's. */
export const updateRoute = (db: Queryable, userId: number, routeId: number, input: RouteInput): Promise<Route | undefined> => owned.update(db, userId, routeId, values(input));

/** Deletes the user's route; false when it does not exist or is another user's. */
export const destroyRoute = (db: Queryable, userId: number, routeId: number): Promise<boolean> => owned.destroy(db, userId, routeId);

/** Sets `active` on every listed route of the user, all or nothing (false: nothing changed). */
export const setRoutesActive = (db: Db, userId: number, ids: readonly number[], active: boolean): Promise<boolean> => owned.setActive(db, userId, ids, active);

// ---- groups ----------------------------------------------------------------------------

/** One page of the user's route groups, and how many match in all. */
export const pageRouteGroups = (db: Queryable, userId: number, page: GroupPage): Promise<{ total: number; rows: RouteGroup[] }> => grouping.page(db, userId, page);

export interface RouteGroupInput {
  /** Undefined keeps the title (on update). */
  title?: string;
  /** The group's complete membership; undefined keeps it (on update). */
  routeIds?: readonly number[];
}

/**
 * Creates the user's route group, moving the listed routes into it, in one transaction.
 * @throws RefusedError `{routeIds: unknown}` when any listed id is not one of the user's routes.
 */
export async function createRouteGroup(db: Db, userId: number, input: RouteGroupInput & { title: string }): Promise<RouteGroup> {
  return (await grouping.create(db, userId, { title: input.title, memberIds: input.routeIds })).group;
}

/**
 * Renames the user's route group and/or replaces its routes (those left out become
 * ungrouped), in one transaction. Undefined when the group does not exist or is another user's.
 * @throws RefusedError `{routeIds: unknown}` when any listed id is not one of the user's routes.
 */
export async function updateRouteGroup(db: Db, userId: number, groupId: number, input: RouteGroupInput): Promise<RouteGroup | undefined> {
  return (await grouping.update(db, userId, groupId, { title: input.title, memberIds: input.routeIds }))?.group;
}

/** Deletes the user's route group, its routes becoming ungrouped; false when it does not exist or is another user's. */
export async function destroyRouteGroup(db: Db, userId: number, groupId: number): Promise<boolean> {
  return (await grouping.destroy(db, userId, groupId)) !== undefined;
}

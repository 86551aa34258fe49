import type { Db, Queryable } from "../client.js";
import { ownedRows, type Page } from "../owned.js";
import { routes, type LatLng, type Route } from "../schema/geofences.js";

/** A route's writable fields, already checked. */
export interface RouteInput {
  name: string;
  color: string;
  polyline: LatLng[];
}

const owned = ownedRows(routes);
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

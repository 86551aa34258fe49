import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { routes, type LatLng, type Route } from "../schema/geofences.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;

/** A route's writable fields, already checked. */
export interface RouteInput {
  name: string;
  color: string;
  polyline: LatLng[];
}

/** One page of the user's routes by id, and how many the user has in all. */
export async function pageUserRoutes(db: Queryable, userId: number, page: { limit: number; offset: number }): Promise<{ total: number; rows: Route[] }> {
  const [rows, [counted]] = await Promise.all([
    db.select().from(routes).where(eq(routes.userId, userId)).orderBy(asc(routes.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(routes).where(eq(routes.userId, userId)),
  ]);
  return { total: counted?.n ?? 0, rows };
}

/** The user's route, or undefined when it does not exist or is another user's. */
export async function findUserRoute(db: Queryable, userId: number, routeId: number): Promise<Route | undefined> {
  if (!isRowId(routeId)) return undefined;
  const [row] = await db
    .select()
    .from(routes)
    .where(and(eq(routes.id, routeId), eq(routes.userId, userId)));
  return row;
}

export async function createRoute(db: Queryable, userId: number, input: RouteInput): Promise<Route> {
  const [row] = await db
    .insert(routes)
    .values({ userId, name: input.name, color: input.color, polyline: input.polyline })
    .returning();
  return row!;
}

/** Rewrites the user's route; undefined when it does not exist or is another user's. */
export async function updateRoute(db: Queryable, userId: number, routeId: number, input: RouteInput): Promise<Route | undefined> {
  if (!isRowId(routeId)) return undefined;
  const [row] = await db
    .update(routes)
    .set({ name: input.name, color: input.color, polyline: input.polyline })
    .where(and(eq(routes.id, routeId), eq(routes.userId, userId)))
    .returning();
  return row;
}

/** Deletes the user's route; false when it does not exist or is another user's. */
export async function destroyRoute(db: Queryable, userId: number, routeId: number): Promise<boolean> {
  if (!isRowId(routeId)) return false;
  const gone = await db
    .delete(routes)
    .where(and(eq(routes.id, routeId), eq(routes.userId, userId)))
    .returning({ id: routes.id });
  return gone.length > 0;
}

/**
 * Sets `active` on every listed route of the user, all or nothing: false (nothing
 * changed) when any id does not exist or is another user's.
 */
export async function setRoutesActive(db: Db, userId: number, ids: readonly number[], active: boolean): Promise<boolean> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0 || !wanted.every(isRowId)) return false;
  return db.transaction(async (tx) => {
    const mine = and(eq(routes.userId, userId), inArray(routes.id, wanted));
    // In id order, so two requests locking overlapping sets cannot deadlock.
    const locked = await tx.select({ id: routes.id }).from(routes).where(mine).orderBy(asc(routes.id)).for("update");
    if (locked.length !== wanted.length) return false;
    await tx.update(routes).set({ active }).where(mine);
    return true;
  });
}

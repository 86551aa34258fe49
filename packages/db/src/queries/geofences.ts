import { and, asc, count, desc, eq, ilike, inArray, not, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { geofenceGroups, geofences, type Geofence, type GeofenceGroup, type LatLng } from "../schema/geofences.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;

/** A geofence group id that does not exist or is another user's (the two look alike). */
export class UnknownGeofenceGroupError extends Error {
  override readonly name = "UnknownGeofenceGroupError";
  readonly field = "group_id";
  constructor(readonly groupId: number) {
    super(`Geofence group ${groupId} not found`);
  }
}

/** Geofence ids of which at least one does not exist or is another user's. */
export class UnknownGeofencesError extends Error {
  override readonly name = "UnknownGeofencesError";
  readonly field = "geofences";
  constructor(readonly geofenceIds: readonly number[]) {
    super(`Geofences not found: ${geofenceIds.slice(0, 10).join(", ")}`);
  }
}

/**
 * A geofence's writable fields, already checked: a polygon's closed ring with no center or
 * radius, or a circle's center and radius (metres) with no ring. `groupId` null ungroups,
 * undefined keeps (on update); `active` undefined keeps (on update) or is on (on create).
 */
export interface GeofenceInput {
  name: string;
  type: "polygon" | "circle";
  polygonColor: string;
  coordinates: LatLng[];
  center: LatLng | null;
  radius: number | null;
  groupId?: number | null;
  active?: boolean;
}

/** The user's geofences, by id. */
export function listUserGeofences(db: Queryable, userId: number): Promise<Geofence[]> {
  return db.select().from(geofences).where(eq(geofences.userId, userId)).orderBy(asc(geofences.id));
}

/** The user's geofence, or undefined when it does not exist or is another user's. */
export async function findUserGeofence(db: Queryable, userId: number, geofenceId: number): Promise<Geofence | undefined> {
  if (!isRowId(geofenceId)) return undefined;
  const [row] = await db
    .select()
    .from(geofences)
    .where(and(eq(geofences.id, geofenceId), eq(geofences.userId, userId)));
  return row;
}

/**
 * Locks the user's group against deletion until the transaction ends, so the geofence
 * written next cannot point at a group deleted meanwhile (a foreign key error, a 500).
 * @throws UnknownGeofenceGroupError when the group is not the user's.
 */
async function holdGroup(tx: Tx, userId: number, groupId: number): Promise<void> {
  const [found] = isRowId(groupId)
    ? await tx
        .select({ id: geofenceGroups.id })
        .from(geofenceGroups)
        .where(and(eq(geofenceGroups.id, groupId), eq(geofenceGroups.userId, userId)))
        .for("share")
    : [];
  if (!found) throw new UnknownGeofenceGroupError(groupId);
}

function geofenceValues(input: GeofenceInput) {
  return {
    name: input.name,
    type: input.type,
    polygonColor: input.polygonColor,
    coordinates: input.coordinates,
    center: input.center,
    radius: input.radius,
    ...(input.groupId === undefined ? {} : { groupId: input.groupId }),
    ...(input.active === undefined ? {} : { active: input.active }),
  };
}

/**
 * Inserts the user's geofence.
 * @throws UnknownGeofenceGroupError when groupId is set and not one of the user's groups.
 */
export async function createGeofence(db: Db, userId: number, input: GeofenceInput): Promise<Geofence> {
  return db.transaction(async (tx) => {
    if (input.groupId != null) await holdGroup(tx, userId, input.groupId);
    const [row] = await tx
      .insert(geofences)
      .values({ ...geofenceValues(input), userId })
      .returning();
    return row!;
  });
}

/**
 * Rewrites the user's geofence. Returns undefined when it does not exist or is another user's.
 * @throws UnknownGeofenceGroupError when groupId is set and not one of the user's groups.
 */
export async function updateGeofence(db: Db, userId: number, geofenceId: number, input: GeofenceInput): Promise<Geofence | undefined> {
  if (!isRowId(geofenceId)) return undefined;
  return db.transaction(async (tx) => {
    if (!(await findUserGeofence(tx, userId, geofenceId))) return undefined;
    if (input.groupId != null) await holdGroup(tx, userId, input.groupId);
    const [row] = await tx
      .update(geofences)
      .set(geofenceValues(input))
      .where(and(eq(geofences.id, geofenceId), eq(geofences.userId, userId)))
      .returning();
    return row;
  });
}

/** Deletes the user's geofence; false when it does not exist or is another user's. */
export async function destroyGeofence(db: Queryable, userId: number, geofenceId: number): Promise<boolean> {
  if (!isRowId(geofenceId)) return false;
  const gone = await db
    .delete(geofences)
    .where(and(eq(geofences.id, geofenceId), eq(geofences.userId, userId)))
    .returning({ id: geofences.id });
  return gone.length > 0;
}

/**
 * Sets `active` on every listed geofence of the user, all or nothing: false (nothing
 * changed) when any id does not exist or is another user's.
 */
export async function setGeofencesActive(db: Db, userId: number, ids: readonly number[], active: boolean): Promise<boolean> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0 || !wanted.every(isRowId)) return false;
  return db.transaction(async (tx) => {
    const mine = and(eq(geofences.userId, userId), inArray(geofences.id, wanted));
    // In id order, so two requests locking overlapping sets cannot deadlock.
    const locked = await tx.select({ id: geofences.id }).from(geofences).where(mine).orderBy(asc(geofences.id)).for("update");
    if (locked.length !== wanted.length) return false;
    await tx.update(geofences).set({ active }).where(mine);
    return true;
  });
}

// ---- groups ---------------------------------------------------------------------------

/** The user's geofence groups, by id. */
export function listUserGeofenceGroups(db: Queryable, userId: number): Promise<GeofenceGroup[]> {
  return db.select().from(geofenceGroups).where(eq(geofenceGroups.userId, userId)).orderBy(asc(geofenceGroups.id));
}

export interface GeofenceGroupPage {
  /** Part of the title to look for, any case; LIKE wildcards in it match themselves. */
  search?: string;
  sortBy: "id" | "title";
  sort: "asc" | "desc";
  limit: number;
  offset: number;
}

/** One page of the user's geofence groups, and how many match in all. */
export async function pageUserGeofenceGroups(db: Queryable, userId: number, page: GeofenceGroupPage): Promise<{ total: number; rows: GeofenceGroup[] }> {
  const search = page.search?.trim();
  const where = and(eq(geofenceGroups.userId, userId), search ? ilike(geofenceGroups.title, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined);
  // Titles sort by lower case: the same order under any collation (PGlite's is C).
  const column = page.sortBy === "title" ? sql`lower(${geofenceGroups.title})` : geofenceGroups.id;
  const direction = page.sort === "desc" ? desc : asc;
  const [rows, [counted]] = await Promise.all([
    // id breaks ties between equal titles, so pages do not overlap.
    db.select().from(geofenceGroups).where(where).orderBy(direction(column), direction(geofenceGroups.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(geofenceGroups).where(where),
  ]);
  return { total: counted?.n ?? 0, rows };
}

export interface GeofenceGroupInput {
  /** Undefined keeps the title (on update). */
  title?: string;
  /** The group's complete membership; undefined keeps it (on update). */
  geofenceIds?: readonly number[];
}

/**
 * Makes `ids` the group's members and ungroups its other geofences. The caller holds the
 * group's row lock, so no geofence joins it meanwhile; the rows touched are locked here in
 * id order, as every multi-row write of this module does, so concurrent writes cannot deadlock.
 * @throws UnknownGeofencesError when any id is not one of the user's geofences.
 */
async function setMembers(tx: Tx, userId: number, groupId: number, ids: readonly number[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (!wanted.every(isRowId)) throw new UnknownGeofencesError(wanted);
  const listed = wanted.length > 0 ? inArray(geofences.id, wanted) : undefined;
  const touched = await tx
    .select({ id: geofences.id })
    .from(geofences)
    .where(and(eq(geofences.userId, userId), listed ? or(listed, eq(geofences.groupId, groupId)) : eq(geofences.groupId, groupId)))
    .orderBy(asc(geofences.id))
    .for("update");
  const found = new Set(touched.map((r) => r.id));
  const unknown = wanted.filter((id) => !found.has(id));
  if (unknown.length > 0) throw new UnknownGeofencesError(unknown);
  if (listed) await tx.update(geofences).set({ groupId }).where(and(eq(geofences.userId, userId), listed));
  await tx
    .update(geofences)
    .set({ groupId: null })
    .where(and(eq(geofences.userId, userId), eq(geofences.groupId, groupId), listed ? not(listed) : undefined));
}

/**
 * Creates the user's group, moving the listed geofences into it, in one transaction.
 * @throws UnknownGeofencesError when any listed id is not one of the user's geofences.
 */
export async function createGeofenceGroup(db: Db, userId: number, input: GeofenceGroupInput & { title: string }): Promise<GeofenceGroup> {
  return db.transaction(async (tx) => {
    const [group] = await tx.insert(geofenceGroups).values({ userId, title: input.title }).returning();
    if (input.geofenceIds) await setMembers(tx, userId, group!.id, input.geofenceIds);
    return group!;
  });
}

/**
 * Renames the user's group and/or replaces its members, in one transaction. Returns
 * undefined when the group does not exist or is another user's.
 * @throws UnknownGeofencesError when any listed id is not one of the user's geofences.
 */
export async function updateGeofenceGroup(db: Db, userId: number, groupId: number, input: GeofenceGroupInput): Promise<GeofenceGroup | undefined> {
  if (!isRowId(groupId)) return undefined;
  return db.transaction(async (tx) => {
    const mine = and(eq(geofenceGroups.id, groupId), eq(geofenceGroups.userId, userId));
    // Locked first: a concurrent destroy waits, and the members are not moved into a group being deleted.
    const [group] = await tx.select().from(geofenceGroups).where(mine).for("update");
    if (!group) return undefined;
    if (input.geofenceIds) await setMembers(tx, userId, groupId, input.geofenceIds);
    if (input.title === undefined) return group;
    const [renamed] = await tx.update(geofenceGroups).set({ title: input.title }).where(mine).returning();
    return renamed;
  });
}

/**
 * Deletes the user's group; its geofences become ungrouped (the foreign key sets null).
 * False when the group does not exist or is another user's.
 */
export async function destroyGeofenceGroup(db: Db, userId: number, groupId: number): Promise<boolean> {
  if (!isRowId(groupId)) return false;
  return db.transaction(async (tx) => {
    const mine = and(eq(geofenceGroups.id, groupId), eq(geofenceGroups.userId, userId));
    const [group] = await tx.select({ id: geofenceGroups.id }).from(geofenceGroups).where(mine).for("update");
    if (!group) return false;
    // The members in id order before the delete's own updates take them in any order.
    await tx.select({ id: geofences.id }).from(geofences).where(eq(geofences.groupId, groupId)).orderBy(asc(geofences.id)).for("update");
    await tx.delete(geofenceGroups).where(mine);
    return true;
  });
}

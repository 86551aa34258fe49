import { and, asc, count, desc, eq, ilike, inArray, not, or, sql } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { RefusedError } from "../errors.js";
import { ownedRows } from "../owned.js";
import { geofenceGroups, geofences, type Geofence, type GeofenceGroup, type LatLng } from "../schema/geofences.js";
import { isRowId } from "../row-id.js";

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

const owned = ownedRows(geofences);
const ownedGroups = ownedRows(geofenceGroups);

/** The user's geofences, by id. */
export const listUserGeofences = (db: Queryable, userId: number): Promise<Geofence[]> => owned.list(db, userId);

/** The user's geofence, or undefined when it does not exist or is another user's. */
export const findUserGeofence = (db: Queryable, userId: number, geofenceId: number): Promise<Geofence | undefined> => owned.find(db, userId, geofenceId);

/** Deletes the user's geofence; false when it does not exist or is another user's. */
export const destroyGeofence = (db: Queryable, userId: number, geofenceId: number): Promise<boolean> => owned.destroy(db, userId, geofenceId);

/** Sets `active` on every listed geofence of the user, all or nothing (false: nothing changed). */
export const setGeofencesActive = (db: Db, userId: number, ids: readonly number[], active: boolean): Promise<boolean> => owned.setActive(db, userId, ids, active);

/**
 * Locks the user's group against deletion until the transaction ends, so the geofence
 * written next cannot point at a group deleted meanwhile (a foreign key error, a 500).
 * @throws RefusedError `{groupId: unknown}` when the group is not the user's.
 */
async function holdGroup(tx: Tx, userId: number, groupId: number | null | undefined): Promise<void> {
  if (groupId == null) return;
  const [found] = isRowId(groupId) ? await tx.select({ id: geofenceGroups.id }).from(geofenceGroups).where(ownedGroups.mine(userId, groupId)).for("share") : [];
  if (!found) throw new RefusedError({ groupId: { kind: "unknown" } });
}

function geofenceValues(input: GeofenceInput) {
  const { groupId, active, ...shape } = input;
  return { ...shape, ...(groupId === undefined ? {} : { groupId }), ...(active === undefined ? {} : { active }) };
}

/**
 * Inserts the user's geofence.
 * @throws RefusedError `{groupId: unknown}` when groupId is set and not one of the user's groups.
 */
export async function createGeofence(db: Db, userId: number, input: GeofenceInput): Promise<Geofence> {
  return db.transaction(async (tx) => {
    await holdGroup(tx, userId, input.groupId);
    return owned.create(tx, userId, geofenceValues(input));
  });
}

/**
 * Rewrites the user's geofence. Returns undefined when it does not exist or is another user's.
 * @throws RefusedError `{groupId: unknown}` when groupId is set and not one of the user's groups.
 */
export async function updateGeofence(db: Db, userId: number, geofenceId: number, input: GeofenceInput): Promise<Geofence | undefined> {
  if (!isRowId(geofenceId)) return undefined;
  return db.transaction(async (tx) => {
    if (!(await owned.find(tx, userId, geofenceId))) return undefined;
    await holdGroup(tx, userId, input.groupId);
    return owned.update(tx, userId, geofenceId, geofenceValues(input));
  });
}

// ---- groups ---------------------------------------------------------------------------

/** The user's geofence groups, by id. */
export const listUserGeofenceGroups = (db: Queryable, userId: number): Promise<GeofenceGroup[]> => ownedGroups.list(db, userId);

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

const unknownGeofences = () => new RefusedError({ geofenceIds: { kind: "unknown", many: true } });

/**
 * Makes `ids` the group's members and ungroups its other geofences. The caller holds the
 * group's row lock, so no geofence joins it meanwhile; the rows touched are locked here in
 * id order, as every multi-row write of this module does, so concurrent writes cannot deadlock.
 * @throws RefusedError `{geofenceIds: unknown}` when any id is not one of the user's geofences.
 */
async function setMembers(tx: Tx, userId: number, groupId: number, ids: readonly number[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (!wanted.every(isRowId)) throw unknownGeofences();
  const listed = wanted.length > 0 ? inArray(geofences.id, wanted) : undefined;
  const members = eq(geofences.groupId, groupId);
  const touched = await tx
    .select({ id: geofences.id })
    .from(geofences)
    .where(and(eq(geofences.userId, userId), listed ? or(listed, members) : members))
    .orderBy(asc(geofences.id))
    .for("update");
  const found = new Set(touched.map((r) => r.id));
  if (wanted.some((id) => !found.has(id))) throw unknownGeofences();
  if (listed) await tx.update(geofences).set({ groupId }).where(and(eq(geofences.userId, userId), listed));
  await tx
    .update(geofences)
    .set({ groupId: null })
    .where(and(eq(geofences.userId, userId), members, listed ? not(listed) : undefined));
}

/**
 * The user's group, locked until the transaction ends (a concurrent update or destroy of
 * it waits); undefined when it does not exist or is another user's.
 */
async function lockGroup(tx: Tx, userId: number, groupId: number): Promise<GeofenceGroup | undefined> {
  const [group] = await tx.select().from(geofenceGroups).where(ownedGroups.mine(userId, groupId)).for("update");
  return group;
}

/**
 * Creates the user's group, moving the listed geofences into it, in one transaction.
 * @throws RefusedError `{geofenceIds: unknown}` when any listed id is not one of the user's geofences.
 */
export async function createGeofenceGroup(db: Db, userId: number, input: GeofenceGroupInput & { title: string }): Promise<GeofenceGroup> {
  return db.transaction(async (tx) => {
    const group = await ownedGroups.create(tx, userId, { title: input.title });
    if (input.geofenceIds) await setMembers(tx, userId, group.id, input.geofenceIds);
    return group;
  });
}

/**
 * Renames the user's group and/or replaces its members, in one transaction. Returns
 * undefined when the group does not exist or is another user's.
 * @throws RefusedError `{geofenceIds: unknown}` when any listed id is not one of the user's geofences.
 */
export async function updateGeofenceGroup(db: Db, userId: number, groupId: number, input: GeofenceGroupInput): Promise<GeofenceGroup | undefined> {
  if (!isRowId(groupId)) return undefined;
  return db.transaction(async (tx) => {
    // Locked first: a concurrent destroy waits, and the members are not moved into a group being deleted.
    const group = await lockGroup(tx, userId, groupId);
    if (!group) return undefined;
    if (input.geofenceIds) await setMembers(tx, userId, groupId, input.geofenceIds);
    if (input.title === undefined) return group;
    return ownedGroups.update(tx, userId, groupId, { title: input.title });
  });
}

/**
 * Deletes the user's group; its geofences become ungrouped (the foreign key sets null).
 * False when the group does not exist or is another user's.
 */
export async function destroyGeofenceGroup(db: Db, userId: number, groupId: number): Promise<boolean> {
  if (!isRowId(groupId)) return false;
  return db.transaction(async (tx) => {
    if (!(await lockGroup(tx, userId, groupId))) return false;
    // The members in id order before the delete's own updates take them in any order.
    await tx.select({ id: geofences.id }).from(geofences).where(eq(geofences.groupId, groupId)).orderBy(asc(geofences.id)).for("update");
    return ownedGroups.destroy(tx, userId, groupId);
  });
}

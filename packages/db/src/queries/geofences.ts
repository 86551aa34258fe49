import type { Db, Queryable } from "../client.js";
import { groupsOf, type GroupPage } from "../grouped.js";
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
  /** km/h; null for none; undefined keeps (on update) or is none (on create). */
  speedLimit?: number | null;
  groupId?: number | null;
  active?: boolean;
}

const owned = ownedRows(geofences);
const grouping = groupsOf(geofenceGroups, { table: geofences, id: geofences.id, userId: geofences.userId, groupId: geofences.groupId }, "geofenceIds");

/** The user's geofences, by id. */
export const listUserGeofences = (db: Queryable, userId: number): Promise<Geofence[]> => owned.list(db, userId);

/** The user's geofence, or undefined when it does not exist or is another user's. */
export const findUserGeofence = (db: Queryable, userId: number, geofenceId: number): Promise<Geofence | undefined> => owned.find(db, userId, geofenceId);

/** Deletes the user's geofence; false when it does not exist or is another user's. */
export const destroyGeofence = (db: Queryable, userId: number, geofenceId: number): Promise<boolean> => owned.destroy(db, userId, geofenceId);

/** Sets `active` on every listed geofence of the user, all or nothing (false: nothing changed). */
export const setGeofencesActive = (db: Db, userId: number, ids: readonly number[], active: boolean): Promise<boolean> => owned.setActive(db, userId, ids, active);

function geofenceValues(input: GeofenceInput) {
  const { groupId, active, speedLimit, ...shape } = input;
  return { ...shape, ...(groupId === undefined ? {} : { groupId }), ...(active === undefined ? {} : { active }), ...(speedLimit === undefined ? {} : { speedLimit }) };
}

/**
 * Inserts the user's geofence.
 * @throws RefusedError `{groupId: unknown}` when groupId is set and not one of the user's groups.
 */
export async function createGeofence(db: Db, userId: number, input: GeofenceInput): Promise<Geofence> {
  return db.transaction(async (tx) => {
    await grouping.hold(tx, userId, input.groupId);
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
    await grouping.hold(tx, userId, input.groupId);
    return owned.update(tx, userId, geofenceId, geofenceValues(input));
  });
}

// ---- groups ----------------------------------------------------------------------------

/** The user's geofence groups, by id. */
export const listUserGeofenceGroups = (db: Queryable, userId: number): Promise<GeofenceGroup[]> => grouping.list(db, userId);

export type GeofenceGroupPage = GroupPage;

/** One page of the user's geofence groups, and how many match in all. */
export const pageUserGeofenceGroups = (db: Queryable, userId: number, page: GroupPage): Promise<{ total: number; rows: GeofenceGroup[] }> => grouping.page(db, userId, page);

export interface GeofenceGroupInput {
  /** Undefined keeps the title (on update). */
  title?: string;
  /** The group's complete membership; undefined keeps it (on update). */
  geofenceIds?: readonly number[];
}

/**
 * Creates the user's group, moving the listed geofences into it, in one transaction.
 * @throws RefusedError `{geofenceIds: unknown}` when any listed id is not one of the user's geofences.
 */
export async function createGeofenceGroup(db: Db, userId: number, input: GeofenceGroupInput & { title: string }): Promise<GeofenceGroup> {
  return (await grouping.create(db, userId, { title: input.title, memberIds: input.geofenceIds })).group;
}

/**
 * Renames the user's group and/or replaces its members (those left out become ungrouped),
 * in one transaction. Returns undefined when the group does not exist or is another user's.
 * @throws RefusedError `{geofenceIds: unknown}` when any listed id is not one of the user's geofences.
 */
export async function updateGeofenceGroup(db: Db, userId: number, groupId: number, input: GeofenceGroupInput): Promise<GeofenceGroup | undefined> {
  return (await grouping.update(db, userId, groupId, { title: input.title, memberIds: input.geofenceIds }))?.group;
}

/**
 * Deletes the user's group; its geofences become ungrouped (the foreign key sets null).
 * False when the group does not exist or is another user's.
 */
export async function destroyGeofenceGroup(db: Db, userId: number, groupId: number): Promise<boolean> {
  return (await grouping.destroy(db, userId, groupId)) !== undefined;
}

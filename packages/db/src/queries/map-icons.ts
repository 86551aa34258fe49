import type { Db, Queryable } from "../client.js";
import { groupsOf, type GroupPage } from "../grouped.js";
import { ownedRows } from "../owned.js";
import { mapIconGroups, userMapIcons, type LatLng, type MapIconGroup, type UserMapIcon } from "../schema/geofences.js";

/** A user map icon's writable fields, already checked; `description` undefined keeps it (on update). */
export interface UserMapIconInput {
  mapIconId: number;
  name: string;
  description?: string;
  coordinates: LatLng;
}

const owned = ownedRows(userMapIcons);
const grouping = groupsOf(mapIconGroups, { table: userMapIcons, id: userMapIcons.id, userId: userMapIcons.userId, groupId: userMapIcons.groupId }, "mapIconIds");

function values(input: UserMapIconInput) {
  return {
    mapIconId: input.mapIconId,
    name: input.name,
    coordinates: input.coordinates,
    ...(input.description === undefined ? {} : { description: input.description }),
  };
}

/** The user's map icons, by id. */
export const listUserMapIcons = (db: Queryable, userId: number): Promise<UserMapIcon[]> => owned.list(db, userId);

/** The user's map icon, or undefined when it does not exist or is another user's. */
export const findUserMapIcon = (db: Queryable, userId: number, id: number): Promise<UserMapIcon | undefined> => owned.find(db, userId, id);

export const createUserMapIcon = (db: Queryable, userId: number, input: UserMapIconInput): Promise<UserMapIcon> => owned.create(db, userId, values(input));

/** Rewrites the user's map icon; undefined when it does not exist or is another user's. */
export const updateUserMapIcon = (db: Queryable, userId: number, id: number, input: UserMapIconInput): Promise<UserMapIcon | undefined> => owned.update(db, userId, id, values(input));

/** Deletes the user's map icon; false when it does not exist or is another user's. */
export const destroyUserMapIcon = (db: Queryable, userId: number, id: number): Promise<boolean> => owned.destroy(db, userId, id);

/** Sets `active` on every listed map icon of the user, all or nothing (false: nothing changed). */
export const setUserMapIconsActive = (db: Db, userId: number, ids: readonly number[], active: boolean): Promise<boolean> => owned.setActive(db, userId, ids, active);

// ---- groups ----------------------------------------------------------------------------

/** One page of the user's map icon groups, and how many match in all. */
export const pageMapIconGroups = (db: Queryable, userId: number, page: GroupPage): Promise<{ total: number; rows: MapIconGroup[] }> => grouping.page(db, userId, page);

export interface MapIconGroupInput {
  /** Undefined keeps the title (on update). */
  title?: string;
  /** The group's complete membership; undefined keeps it (on update). */
  mapIconIds?: readonly number[];
}

/**
 * Creates the user's map icon group, moving the listed map icons into it, in one transaction.
 * @throws RefusedError `{mapIconIds: unknown}` when any listed id is not one of the user's map icons.
 */
export async function createMapIconGroup(db: Db, userId: number, input: MapIconGroupInput & { title: string }): Promise<MapIconGroup> {
  return (await grouping.create(db, userId, { title: input.title, memberIds: input.mapIconIds })).group;
}

/**
 * Renames the user's map icon group and/or replaces its map icons (those left out become
 * ungrouped), in one transaction. Undefined when the group does not exist or is another user's.
 * @throws RefusedError `{mapIconIds: unknown}` when any listed id is not one of the user's map icons.
 */
export async function updateMapIconGroup(db: Db, userId: number, groupId: number, input: MapIconGroupInput): Promise<MapIconGroup | undefined> {
  return (await grouping.update(db, userId, groupId, { title: input.title, memberIds: input.mapIconIds }))?.group;
}

/** Deletes the user's map icon group, its map icons becoming ungrouped; false when it does not exist or is another user's. */
export async function destroyMapIconGroup(db: Db, userId: number, groupId: number): Promise<boolean> {
  return (await grouping.destroy(db, userId, groupId)) !== undefined;
}

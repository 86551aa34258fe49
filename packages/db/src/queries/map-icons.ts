import type { Db, Queryable } from "../client.js";
import { ownedRows } from "../owned.js";
import { userMapIcons, type LatLng, type UserMapIcon } from "../schema/geofences.js";

/** A user map icon's writable fields, already checked; `description` undefined keeps it (on update). */
export interface UserMapIconInput {
  mapIconId: number;
  name: string;
  description?: string;
  coordinates: LatLng;
}

const owned = ownedRows(userMapIcons);

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

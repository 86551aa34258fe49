import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { userMapIcons, type LatLng, type UserMapIcon } from "../schema/geofences.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;

/** A user map icon's writable fields, already checked; `description` undefined keeps it (on update). */
export interface UserMapIconInput {
  mapIconId: number;
  name: string;
  description?: string;
  coordinates: LatLng;
}

function values(input: UserMapIconInput) {
  return {
    mapIconId: input.mapIconId,
    name: input.name,
    coordinates: input.coordinates,
    ...(input.description === undefined ? {} : { description: input.description }),
  };
}

/** The user's map icons, by id. */
export function listUserMapIcons(db: Queryable, userId: number): Promise<UserMapIcon[]> {
  return db.select().from(userMapIcons).where(eq(userMapIcons.userId, userId)).orderBy(asc(userMapIcons.id));
}

/** The user's map icon, or undefined when it does not exist or is another user's. */
export async function findUserMapIcon(db: Queryable, userId: number, id: number): Promise<UserMapIcon | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db
    .select()
    .from(userMapIcons)
    .where(and(eq(userMapIcons.id, id), eq(userMapIcons.userId, userId)));
  return row;
}

export async function createUserMapIcon(db: Queryable, userId: number, input: UserMapIconInput): Promise<UserMapIcon> {
  const [row] = await db
    .insert(userMapIcons)
    .values({ ...values(input), userId })
    .returning();
  return row!;
}

/** Rewrites the user's map icon; undefined when it does not exist or is another user's. */
export async function updateUserMapIcon(db: Queryable, userId: number, id: number, input: UserMapIconInput): Promise<UserMapIcon | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db
    .update(userMapIcons)
    .set(values(input))
    .where(and(eq(userMapIcons.id, id), eq(userMapIcons.userId, userId)))
    .returning();
  return row;
}

/** Deletes the user's map icon; false when it does not exist or is another user's. */
export async function destroyUserMapIcon(db: Queryable, userId: number, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  const gone = await db
    .delete(userMapIcons)
    .where(and(eq(userMapIcons.id, id), eq(userMapIcons.userId, userId)))
    .returning({ id: userMapIcons.id });
  return gone.length > 0;
}

/**
 * Sets `active` on every listed map icon of the user, all or nothing: false (nothing
 * changed) when any id does not exist or is another user's.
 */
export async function setUserMapIconsActive(db: Db, userId: number, ids: readonly number[], active: boolean): Promise<boolean> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0 || !wanted.every(isRowId)) return false;
  return db.transaction(async (tx) => {
    const mine = and(eq(userMapIcons.userId, userId), inArray(userMapIcons.id, wanted));
    // In id order, so two requests locking overlapping sets cannot deadlock.
    const locked = await tx.select({ id: userMapIcons.id }).from(userMapIcons).where(mine).orderBy(asc(userMapIcons.id)).for("update");
    if (locked.length !== wanted.length) return false;
    await tx.update(userMapIcons).set({ active }).where(mine);
    return true;
  });
}

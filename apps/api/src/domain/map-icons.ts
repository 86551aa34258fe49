import {
  InvalidInputError,
  findMapIcon,
  mapIconCatalogue,
  readChangeActive,
  readMapIconPoint,
  type AddMapIconBody,
  type ChangeActive,
  type EditMapIconBody,
  type UserMapIconRecord,
  type UserClock,
} from "@fleet/contracts";
import { createUserMapIcon, destroyUserMapIcon, listUserMapIcons, setUserMapIconsActive, updateUserMapIcon, type Db, type User, type UserMapIcon, type UserMapIconInput } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { found } from "./found.js";

/*
 * Map icons: the shipped catalogue (get_map_icons) and the user's points of interest
 * drawn with one of its icons (the other endpoints; their ids are the user's records).
 */

const WHAT = "Map icon";

// A stored icon id always comes from the catalogue; this stands in should one be retired.
const missingIcon = (id: number) => ({ id, path: "", width: "0.00", height: "0.00" });

/** The User map icon record: `coordinates` as JSON text and the catalogue entry embedded. */
function record(m: UserMapIcon, clock: UserClock): UserMapIconRecord {
  return {
    id: m.id,
    user_id: m.userId,
    map_icon_id: m.mapIconId,
    active: m.active ? 1 : 0,
    name: m.name,
    description: m.description,
    coordinates: JSON.stringify({ lat: m.coordinates.lat, lng: m.coordinates.lng }),
    created_at: clock.format(m.createdAt.getTime()),
    updated_at: clock.format(m.updatedAt.getTime()),
    map_icon: findMapIcon(m.mapIconId) ?? missingIcon(m.mapIconId),
  };
}

/** The body as the row's fields; every bad field named at once. */
function input(b: AddMapIconBody): UserMapIconInput {
  const errors: Record<string, string> = {};
  if (!findMapIcon(b.map_icon_id)) errors.map_icon_id = "The selected map icon id is invalid.";
  const point = readMapIconPoint(b.coordinates);
  if (!point) errors.coordinates = "The coordinates must be {lat, lng}, lat -90 to 90 and lng -180 to 180.";
  if (!point || Object.keys(errors).length > 0) throw new InvalidInputError(errors);
  return { mapIconId: b.map_icon_id, name: b.name, description: b.description, coordinates: point };
}

export const catalogue = () => ({ items: [...mapIconCatalogue], status: 1 as const });

export async function list(db: Db, user: User) {
  const rows = await listUserMapIcons(db, user.id);
  return { items: { mapIcons: rows.map((m) => record(m, clockOf(user))) }, status: 1 as const };
}

export async function add(db: Db, user: User, body: AddMapIconBody) {
  return { status: 1 as const, id: (await createUserMapIcon(db, user.id, input(body))).id };
}

export const edit = (db: Db, user: User, body: EditMapIconBody) => found(updateUserMapIcon(db, user.id, body.id, input(body)), WHAT);

export const destroy = (db: Db, user: User, id: number) => found(destroyUserMapIcon(db, user.id, id), WHAT);

export async function changeActive(db: Db, user: User, change: ChangeActive) {
  const { ids, active } = readChangeActive(change);
  return found(setUserMapIconsActive(db, user.id, ids, active), WHAT);
}

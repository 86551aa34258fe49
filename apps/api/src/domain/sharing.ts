import { randomBytes } from "node:crypto";
import {
  InvalidInputError,
  NO_DATE,
  NotFoundError,
  isTruthy,
  parseTaskDateTime,
  type SharedDevicesResponseSchema,
  type SharingBody,
  type SharingRecord,
  type SharingUpdateBody,
  type UserClock,
} from "@fleet/contracts";
import { createSharing, destroySharing, findSharedByHash, findSharing, findUserById, isUserUsable, listUserDevicesByIds, pageSharings, updateSharing, type Db, type SharingInput, type SharingWithDevices, type User } from "@fleet/db";
import type { LiveState } from "@fleet/contracts";
import type { Static } from "@sinclair/typebox";
import { clockOf } from "../lib/clock.js";
import { liveItem, liveListContext } from "../lib/live-item.js";
import { pageRequest, pageWindow, paginateCompact } from "../lib/pagination.js";
import { found } from "./found.js";
import { worded, type Wording } from "./refusals.js";

/*
 * Sharing links (the vendor's Sharing): a user picks devices, and anyone holding the link's
 * hash sees them live, in the sharer's units and clock, while the link is active and not
 * expired. The hash is the credential: 24 random bytes, never logged (it travels as `token`).
 */

const WHAT = "Sharing";
/** Far-off expiries stand for "until revoked" (the vendor's own example is 2124). */
const MAX_EXPIRY_YEAR = 9999;
const wording: Wording = { deviceIds: { field: "devices" } };

export function record(s: SharingWithDevices, clock: UserClock): SharingRecord {
  return {
    id: s.id,
    user_id: s.userId,
    name: s.name,
    hash: s.hash,
    expiration_date: s.expiresAt ? clock.format(s.expiresAt.getTime()) : NO_DATE,
    active: s.active ? 1 : 0,
    delete_after_expiration: s.deleteAfterExpiration ? 1 : 0,
    devices: s.deviceIds,
    created_at: clock.format(s.createdAt.getTime()),
    updated_at: clock.format(s.updatedAt.getTime()),
  };
}

/**
 * The body's fields that are present, as columns. `enable_expiration_date` off means the
 * sharing never expires, whatever `expiration_date` says; on, it needs `expiration_date`;
 * left out, an `expiration_date` given is the new expiry.
 */
function patchOf(b: SharingUpdateBody, clock: UserClock): Partial<SharingInput> {
  const enable = isTruthy(b.enable_expiration_date) ?? (b.expiration_date === undefined ? undefined : true);
  let expiresAt: Date | null | undefined;
  if (enable === false) expiresAt = null;
  else if (enable === true) {
    const ms = b.expiration_date === undefined ? undefined : parseTaskDateTime(b.expiration_date, clock, MAX_EXPIRY_YEAR);
    if (ms === undefined) {
      const why = b.expiration_date === undefined ? "is required when enable expiration date is on" : `is not a valid date-time between 1970 and ${MAX_EXPIRY_YEAR}`;
      throw new InvalidInputError({ expiration_date: `The expiration date ${why}.` });
    }
    expiresAt = new Date(ms);
  }
  return {
    name: b.name?.trim(),
    active: isTruthy(b.active),
    expiresAt,
    deleteAfterExpiration: isTruthy(b.delete_after_expiration),
    deviceIds: b.devices,
  };
}

const answer = (s: SharingWithDevices, user: User) => ({ status: 1 as const, ...record(s, clockOf(user)) });

/** A page of the user's sharings, in the vendor's `{data, pagination}`; `url` is the request's, for the page links. */
export async function list(db: Db, user: User, query: { page?: number; per_page?: number; limit?: number }, url: string) {
  const page = pageRequest(query);
  const { total, rows } = await pageSharings(db, user.id, pageWindow(page));
  return { status: 1 as const, ...paginateCompact({ url }, page, total, rows.map((s) => record(s, clockOf(user)))) };
}

export const get = async (db: Db, user: User, id: number) => answer(await found(findSharing(db, user.id, id), WHAT), user);

export async function create(db: Db, user: User, body: SharingBody) {
  const patch = patchOf(body, clockOf(user));
  const input: SharingInput = {
    name: patch.name!,
    active: patch.active ?? true,
    expiresAt: patch.expiresAt ?? null,
    deleteAfterExpiration: patch.deleteAfterExpiration ?? false,
    deviceIds: patch.deviceIds ?? [],
  };
  return answer(await worded(createSharing(db, user.id, randomBytes(24).toString("base64url"), input), wording), user);
}

export const update = async (db: Db, user: User, id: number, body: SharingUpdateBody) => answer(await found(worded(updateSharing(db, user.id, id, patchOf(body, clockOf(user))), wording), WHAT), user);

export const setDevices = (db: Db, user: User, id: number, devices: number[]) => update(db, user, id, { devices });

export const destroy = (db: Db, user: User, id: number) => found(destroySharing(db, user.id, id), WHAT);

export interface SharedDeps {
  db: Db;
  states(deviceIds: readonly number[]): Promise<Map<number, LiveState>>;
  offlineAfterMs: number;
}

/**
 * What a sharing link shows: its devices where they are now, in the sharer's units and
 * clock. A wrong, inactive or expired link is missing, whichever it is.
 */
export async function shared(deps: SharedDeps, hash: string, now = Date.now()): Promise<Static<typeof SharedDevicesResponseSchema>> {
  const sharing = await findSharedByHash(deps.db, hash);
  const sharer = sharing && (await findUserById(deps.db, sharing.userId));
  // A sharer who may not sign in (locked out, expired) publishes nothing either.
  if (!sharing || !sharer || !isUserUsable(sharer)) throw new NotFoundError(WHAT);
  const [records, states] = await Promise.all([listUserDevicesByIds(deps.db, sharer.id, sharing.deviceIds), deps.states(sharing.deviceIds)]);
  const ctx = liveListContext(sharer, now, deps.offlineAfterMs);
  const items = records.map((device) => {
    const i = liveItem({ device }, states.get(device.id), ctx);
    const { id, name, online, time, timestamp, lat, lng, speed, course, altitude, stop_duration, tail, distance_unit_hour, unit_of_altitude, icon_color } = i;
    return { id, name, online, time, timestamp, lat, lng, speed, course, altitude, stop_duration, tail, distance_unit_hour, unit_of_altitude, icon_color };
  });
  return { status: 1, name: sharing.name, expiration_date: record(sharing, clockOf(sharer)).expiration_date, items };
}

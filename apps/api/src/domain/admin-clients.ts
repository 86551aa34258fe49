import { FailureError, InvalidInputError, isTruthy, type AdminClientStatusBody, type AdminClientUpdateBody, type UserClock } from "@fleet/contracts";
import { deleteUsers, normalizeEmail, setUserActive, updateClient, type ClientPatch, type Db, type User } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { objectsWording, parseExpiration } from "./admin.js";
import { found } from "./found.js";
import { worded } from "./refusals.js";

/*
 * A client's account as administrators change it: its fields, whether it may sign in, and
 * removing it. An administrator cannot lock, demote or remove their own account, so the
 * platform always keeps the one who is using it.
 */

const CLIENT = "Client";

function notSelf(admin: User, userId: number, what: string): void {
  if (admin.id === userId) throw new FailureError(403, `You cannot ${what} your own account.`);
}

/** The body's account fields as a patch; `enable_*` off clears the limit or expiry, left out keeps them. */
function patchOf(b: AdminClientUpdateBody, clock: UserClock): ClientPatch {
  if (b.password !== undefined && b.password !== b.password_confirmation) throw new InvalidInputError({ password: "The password confirmation does not match." });
  let expirationDate: Date | null | undefined;
  if (isTruthy(b.enable_expiration_date) === false) expirationDate = null;
  else if (b.expiration_date !== undefined) {
    expirationDate = b.expiration_date === null ? null : parseExpiration(b.expiration_date, clock);
    if (expirationDate === undefined) throw new InvalidInputError({ expiration_date: "The expiration date is not a valid date." });
  }
  const devicesLimit = isTruthy(b.enable_devices_limit) === false || b.devices_limit === 0 ? null : b.devices_limit;
  return { email: b.email, password: b.password, groupId: b.group_id, active: isTruthy(b.active), devicesLimit, expirationDate };
}

export async function update(db: Db, admin: User, b: AdminClientUpdateBody) {
  const patch = patchOf(b, clockOf(admin));
  if (b.id === admin.id) {
    if (patch.active === false) notSelf(admin, b.id, "deactivate");
    if (patch.groupId !== undefined && patch.groupId !== admin.groupId) notSelf(admin, b.id, "change the group of");
    // An expiry already passed would lock the administrator out at the next request.
    if (patch.expirationDate && patch.expirationDate.getTime() <= Date.now()) notSelf(admin, b.id, "expire");
  }
  await found(worded(updateClient(db, b.id, { ...patch, deviceIds: b.objects }), objectsWording), CLIENT);
}

/** Resolves with the client's id (it may have been named by email). */
export async function setStatus(db: Db, admin: User, b: AdminClientStatusBody): Promise<number> {
  if (b.id === undefined && b.email === undefined) throw new InvalidInputError({ id: "The id field is required when email is not present." });
  const active = isTruthy(b.status)!;
  if (!active && (b.id === admin.id || (b.id === undefined && b.email !== undefined && normalizeEmail(b.email) === admin.email))) notSelf(admin, admin.id, "deactivate");
  return found(setUserActive(db, { id: b.id, email: b.id === undefined ? b.email : undefined }, active), CLIENT);
}

export async function remove(db: Db, admin: User, ids: readonly number[]) {
  if (ids.includes(admin.id)) notSelf(admin, admin.id, "delete");
  await found(deleteUsers(db, ids), CLIENT);
}

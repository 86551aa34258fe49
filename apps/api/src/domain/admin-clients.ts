import { FailureError, InvalidInputError, isTruthy, type AdminClientStatusBody, type AdminClientUpdateBody } from "@fleet/contracts";
import { assignDeviceUser, deleteUsers, findAnyDevice, findUserById, pageClientDevices, revokeDeviceUser, setUserActive, updateClient, type ClientPatch, type Db, type User } from "@fleet/db";
import { parseExpiration } from "./admin.js";
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
function patchOf(b: AdminClientUpdateBody): ClientPatch {
  if (b.password !== undefined && b.password !== b.password_confirmation) throw new InvalidInputError({ password: "The password confirmation does not match." });
  let expirationDate: Date | null | undefined;
  if (isTruthy(b.enable_expiration_date) === false) expirationDate = null;
  else if (b.expiration_date !== undefined) {
    expirationDate = b.expiration_date === null ? null : parseExpiration(b.expiration_date);
    if (expirationDate === undefined) throw new InvalidInputError({ expiration_date: "The expiration date is not a valid date." });
  }
  const devicesLimit = isTruthy(b.enable_devices_limit) === false ? null : b.devices_limit;
  return { email: b.email, password: b.password, groupId: b.group_id, active: isTruthy(b.active), devicesLimit, expirationDate };
}

/** Refuses a device list that names a device that does not exist, or more than the account may hold; before anything is written. */
async function checkObjects(db: Db, deviceIds: readonly number[], devicesLimit: number | null): Promise<void> {
  for (const id of deviceIds) if (!(await findAnyDevice(db, id))) throw new InvalidInputError({ objects: "The selected objects are invalid." });
  if (devicesLimit !== null && deviceIds.length > devicesLimit) throw new InvalidInputError({ objects: `The objects may hold at most ${devicesLimit}.` });
}

/** Makes `deviceIds` the client's complete list of devices: the missing ones given, the others taken away as the client's own destroy_device would. */
async function setObjects(db: Db, user: User, deviceIds: readonly number[]): Promise<void> {
  const had: number[] = [];
  for (let offset = 0; ; offset += 1000) {
    const { rows } = await pageClientDevices(db, user.id, { limit: 1000, offset });
    had.push(...rows.map((d) => d.id));
    if (rows.length < 1000) break;
  }
  for (const id of had) if (!deviceIds.includes(id)) await revokeDeviceUser(db, id, user.id);
  for (const id of deviceIds) if (!had.includes(id)) await assignDeviceUser(db, id, user);
}

export async function update(db: Db, admin: User, b: AdminClientUpdateBody) {
  const patch = patchOf(b);
  if (patch.active === false) notSelf(admin, b.id, "deactivate");
  if (patch.groupId !== undefined && patch.groupId !== admin.groupId) notSelf(admin, b.id, "change the group of");
  const current = await found(findUserById(db, b.id), CLIENT);
  const objects = b.objects === undefined ? undefined : [...new Set(b.objects)];
  if (objects) await checkObjects(db, objects, patch.devicesLimit === undefined ? current.devicesLimit : patch.devicesLimit);
  const user = await found(worded(updateClient(db, b.id, patch), {}), CLIENT);
  if (objects) await setObjects(db, user, objects);
}

export async function setStatus(db: Db, admin: User, b: AdminClientStatusBody) {
  if (b.id === undefined && b.email === undefined) throw new InvalidInputError({ id: "The id field is required when email is not present." });
  const active = isTruthy(b.status)!;
  if (!active && (b.id === admin.id || (b.id === undefined && b.email?.trim().toLowerCase() === admin.email))) notSelf(admin, admin.id, "deactivate");
  await found(setUserActive(db, { id: b.id, email: b.id === undefined ? b.email : undefined }, active), CLIENT);
}

export async function remove(db: Db, admin: User, ids: readonly number[]) {
  if (ids.includes(admin.id)) notSelf(admin, admin.id, "delete");
  await found(deleteUsers(db, ids), CLIENT);
}

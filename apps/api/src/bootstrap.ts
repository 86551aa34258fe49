import { UserGroup, createUser, findUserByEmail, type Db } from "@fleet/db";

/**
 * Creates the administrator account from FLEET_ADMIN_EMAIL / FLEET_ADMIN_PASSWORD the
 * first time the API starts against a store; later starts leave it (and any password
 * change) alone. Returns whether it was created.
 */
export async function ensureAdmin(db: Db, email: string, password: string): Promise<boolean> {
  if (await findUserByEmail(db, email)) return false;
  try {
    await createUser(db, { email, password, groupId: UserGroup.administrator });
    return true;
  } catch (err) {
    // Another API instance starting at the same moment created it first.
    if (await findUserByEmail(db, email)) return false;
    throw err;
  }
}

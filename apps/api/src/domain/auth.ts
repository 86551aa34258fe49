import { WrongCredentialsError, formatDateTime, type LoginBody, type UserData } from "@fleet/contracts";
import { UserGroup, verifyLogin, type Db, type User } from "@fleet/db";

/*
 * Signing in (email and password for the user_api_hash every other request carries) and
 * what the signed-in account looks like.
 */

const DAY_MS = 86_400_000;

/** The api hash for these credentials; a wrong password, an unknown email and an unusable account alike are refused. */
export async function login(db: Db, body: LoginBody) {
  const user = await verifyLogin(db, body.email, body.password);
  if (!user) throw new WrongCredentialsError();
  return { status: 1 as const, user_api_hash: user.apiHash };
}

export function userData(user: User): UserData {
  const exp = user.expirationDate;
  return {
    email: user.email,
    expiration_date: exp ? formatDateTime(exp.getTime(), user.timezoneId) : null,
    days_left: exp ? Math.max(0, Math.ceil((exp.getTime() - Date.now()) / DAY_MS)) : null,
    plan: user.groupId === UserGroup.administrator ? "Administrator" : "Standard",
    devices_limit: user.devicesLimit ?? 0,
    group_id: user.groupId,
  };
}

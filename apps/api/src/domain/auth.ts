import { InvalidInputError, WrongCredentialsError, type LoginBody, type UserData } from "@fleet/contracts";
import { clockOf } from "../lib/clock.js";
import { UserGroup, findUserByEmail, isUserUsable, setUserLang, verifyLogin, type Db, type User } from "@fleet/db";

/*
 * Signing in (email and password for the user_api_hash every other request carries) and
 * what the signed-in account looks like.
 */

const DAY_MS = 86_400_000;

/**
 * The api hash for these credentials; a wrong password, an unknown email and an unusable
 * account alike are refused. `lang`, the request's language when it is one of the API's,
 * becomes the account's: alert messages and mails speak the language of the app the user last
 * signed in from (nothing else sets it). `relearn` is told when it changed, for the rules.
 */
export async function login(db: Db, body: LoginBody, opts: { lang?: string; log?: { info(obj: object, msg: string): void }; relearn?(userId: number): Promise<void> } = {}) {
  const user = await verifyLogin(db, body.email, body.password);
  if (!user) throw new WrongCredentialsError();
  // One more write only when the language is another than the account's.
  if (opts.lang !== undefined && opts.lang !== user.lang && (await setUserLang(db, user.id, opts.lang))) await opts.relearn?.(user.id);
  const as = body.as?.trim();
  // Signing in as another user (the vendor's `as`) is an administrator's support tool; anyone
  // else's `as` is ignored, as vendor forms may send one, and they sign in as themselves.
  if (!as || user.groupId !== UserGroup.administrator) return { status: 1 as const, user_api_hash: user.apiHash };
  const other = await findUserByEmail(db, as);
  if (!other || !isUserUsable(other)) throw new InvalidInputError({ as: "No user who may sign in has this email." });
  // Ids only: who acted as whom is worth an audit line, and neither is a secret.
  opts.log?.info({ administratorId: user.id, userId: other.id }, "administrator signed in as another user");
  return { status: 1 as const, user_api_hash: other.apiHash };
}

export function userData(user: User): UserData {
  const exp = user.expirationDate;
  return {
    email: user.email,
    expiration_date: exp ? clockOf(user).format(exp.getTime()) : null,
    days_left: exp ? Math.max(0, Math.ceil((exp.getTime() - Date.now()) / DAY_MS)) : null,
    plan: user.groupId === UserGroup.administrator ? "Administrator" : "Standard",
    devices_limit: user.devicesLimit ?? 0,
    group_id: user.groupId,
  };
}

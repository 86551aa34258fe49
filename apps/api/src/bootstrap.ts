import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { UserGroup, createUser, findUserByEmail, verifyPassword, type Db } from "@fleet/db";

/**
 * Passwords an attacker tries first: this project's old default and the usual suspects. A server
 * reachable beyond loopback refuses to start while its administrator has one of them.
 */
export const KNOWN_WEAK_PASSWORDS: readonly string[] = ["admin12345", "admin", "admin123", "password", "password1", "123456", "12345678", "123456789", "changeme", "qwerty", "fleet", "secret"];

/** Shorter than this is weak too, for a password given in FLEET_ADMIN_PASSWORD. */
const MIN_STRONG_LENGTH = 10;

export interface AdminAccount {
  created: boolean;
  /** Set when the password was generated: shown once to whoever started the server, stored only hashed. */
  generatedPassword?: string;
}

/** A strong password of 24 URL-safe characters (144 random bits). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * Creates the administrator the first time the API starts against a store, with
 * FLEET_ADMIN_PASSWORD or, when that is unset, a generated password the caller prints once.
 * Later starts leave the account (and any password change) alone.
 */
export async function ensureAdmin(db: Db, email: string, password: string | undefined): Promise<AdminAccount> {
  if (await findUserByEmail(db, email)) return { created: false };
  const chosen = password ?? generatePassword();
  try {
    await createUser(db, { email, password: chosen, groupId: UserGroup.administrator });
    return password === undefined ? { created: true, generatedPassword: chosen } : { created: true };
  } catch (err) {
    // Another API instance starting at the same moment created it first.
    if (await findUserByEmail(db, email)) return { created: false };
    throw err;
  }
}

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

/** Why the server must not start as configured. */
export class UnsafeStartError extends Error {
  override name = "UnsafeStartError";
}

const FIX = `set a strong FLEET_ADMIN_PASSWORD (${MIN_STRONG_LENGTH}+ characters, not a common one), change the administrator's password, or bind HOST=127.0.0.1`;

/**
 * Refuses a server bound beyond loopback whose configured administrator password is weak (a
 * known password or under ten characters). Called before the store is opened, so a refused
 * start has written nothing: no administrator created with that password.
 */
export function assertSafeAdminPassword(opts: { host: string; password: string | undefined }): void {
  if (isLoopbackHost(opts.host) || opts.password === undefined) return;
  if (opts.password.length < MIN_STRONG_LENGTH || KNOWN_WEAK_PASSWORDS.includes(opts.password.toLowerCase())) {
    throw new UnsafeStartError(`refusing to listen on ${opts.host} with a weak FLEET_ADMIN_PASSWORD: ${FIX}`);
  }
}

/**
 * Refuses a server bound beyond loopback whose administrator password is known to be weak: the
 * configured one (assertSafeAdminPassword), or the stored account's (checked against the known
 * list, so an old store created with the former default is caught too).
 */
export async function assertSafeAdmin(db: Db, opts: { host: string; email: string; password: string | undefined }): Promise<void> {
  if (isLoopbackHost(opts.host)) return;
  assertSafeAdminPassword(opts);
  const admin = await findUserByEmail(db, opts.email);
  if (!admin) return;
  for (const weak of KNOWN_WEAK_PASSWORDS) {
    if (await verifyPassword(weak, admin.passwordHash)) {
      throw new UnsafeStartError(`refusing to listen on ${opts.host}: the administrator ${opts.email} has a well-known password; ${FIX}`);
    }
  }
}

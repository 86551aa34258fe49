import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../client.js";
import { passwordResets } from "../schema/password-resets.js";
import { users, type User } from "../schema/users.js";
import { announceUsersChanged } from "../user-changes.js";
import { changePassword, createUser, findUserByEmail, type CreateUserInput } from "./users.js";

/** What is stored of a token: its SHA-256, so a read of the table gives no working link. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * A new single-use token for `email`'s account, valid for `ttlMs`; undefined when no such user
 * exists (the caller answers alike either way). Earlier tokens of the user stop working: only
 * the newest link mailed is good.
 */
export async function issuePasswordReset(db: Db, email: string, ttlMs: number, now = new Date()): Promise<{ user: User; token: string } | undefined> {
  const user = await findUserByEmail(db, email);
  if (!user) return undefined;
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await tx.insert(passwordResets).values({ userId: user.id, tokenHash: tokenHash(token), expiresAt: new Date(now.getTime() + ttlMs) });
  });
  return { user, token };
}

/**
 * A signed-up account and the token of its "set your password" link, in one transaction.
 * @throws RefusedError `{email: taken}` as createUser.
 */
export async function createUserWithReset(db: Db, input: CreateUserInput, ttlMs: number, now = new Date()): Promise<{ user: User; token: string }> {
  const token = randomBytes(32).toString("base64url");
  const user = await db.transaction(async (tx) => {
    const created = await createUser(tx, input);
    await tx.insert(passwordResets).values({ userId: created.id, tokenHash: tokenHash(token), expiresAt: new Date(now.getTime() + ttlMs) });
    return created;
  });
  return { user, token };
}

/** Takes back a sign-up whose mail could not be sent, so the email can sign up again. */
export async function deleteSignedUpUser(db: Db, userId: number): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}

/**
 * Sets `password` for the account whose unexpired, unused token this is, if that account has
 * `email`; marks the token used and issues a new api hash (the old one stops working). False for
 * a wrong, used or expired token or another account's email, alike.
 */
export async function resetPassword(db: Db, email: string, token: string, password: string, now = new Date()): Promise<boolean> {
  const userId = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: passwordResets.id, userId: passwordResets.userId, email: users.email })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(and(eq(passwordResets.tokenHash, tokenHash(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .for("update", { of: passwordResets });
    if (!row || row.email !== email.trim().toLowerCase()) return undefined;
    await tx.update(passwordResets).set({ usedAt: now }).where(eq(passwordResets.id, row.id));
    return (await changePassword(tx, row.userId, password)) ? row.userId : undefined;
  });
  // Again after the commit: the cache of this process must not keep the old hash.
  if (userId !== undefined) announceUsersChanged(db, [userId]);
  return userId !== undefined;
}

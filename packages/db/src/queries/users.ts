import { randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Queryable } from "../client.js";
import { RefusedError, uniqueViolation } from "../errors.js";
import { hashPassword, verifyPassword } from "../password.js";
import { users, type User, type UserGroupId } from "../schema/users.js";

export interface CreateUserInput {
  email: string;
  password: string;
  groupId?: UserGroupId;
  active?: boolean;
  devicesLimit?: number | null;
  expirationDate?: Date | null;
  lang?: string;
  timezoneId?: number;
  unitOfDistance?: User["unitOfDistance"];
  unitOfCapacity?: User["unitOfCapacity"];
  unitOfAltitude?: User["unitOfAltitude"];
  mapId?: number;
}

/** Emails compare case-insensitively: they are stored and looked up lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A fresh `user_api_hash`: 32 random bytes as 64 hex characters. */
export function newApiHash(): string {
  return randomBytes(32).toString("hex");
}

/** Whether the account may authenticate now: active and not past its expiration date. */
export function isUserUsable(user: Pick<User, "active" | "expirationDate">, now = new Date()): boolean {
  return user.active && (user.expirationDate === null || user.expirationDate > now);
}

/**
 * Creates a user with a hashed password and a new api hash. The returned row includes
 * `passwordHash` and `apiHash`; the API masks them as the spec's account record does.
 * @throws RefusedError `{email: taken}` when the (lower-cased) email is taken.
 */
export async function createUser(db: Queryable, input: CreateUserInput): Promise<User> {
  const { password, email, ...rest } = input;
  const values = { ...rest, email: normalizeEmail(email), passwordHash: await hashPassword(password), apiHash: newApiHash() };
  try {
    const [user] = await db.insert(users).values(values).returning();
    return user!;
  } catch (err) {
    if (uniqueViolation(err) === "users_email_unique") throw new RefusedError({ email: { kind: "taken" } });
    throw err;
  }
}

export async function findUserById(db: Queryable, id: number): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, normalizeEmail(email)));
  return user;
}

// Checked against when the email is unknown, so that answer takes as long as a wrong
// password and response times do not reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;

/**
 * The user for these credentials, or null when the email is unknown, the password wrong,
 * or the account inactive or expired. On success records the login time (`loged_at`).
 */
export async function verifyLogin(db: Queryable, email: string, password: string): Promise<User | null> {
  const user = await findUserByEmail(db, email);
  if (!user) {
    await verifyPassword(password, await (dummyHash ??= hashPassword("no such user")));
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash)) || !isUserUsable(user)) return null;
  const [updated] = await db.update(users).set({ logedAt: new Date() }).where(eq(users.id, user.id)).returning();
  return updated ?? null;
}

/**
 * The user a `user_api_hash` authenticates, or undefined when the hash is unknown or the
 * account is inactive or expired: every caller wants exactly that, so it is checked here.
 */
export async function findUserByApiHash(db: Queryable, apiHash: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.apiHash, apiHash));
  return user && isUserUsable(user) ? user : undefined;
}

/** Issues a new api hash (the old one stops working at once); undefined if no such user. */
export async function rotateApiHash(db: Queryable, userId: number): Promise<string | undefined> {
  const [row] = await db
    .update(users)
    .set({ apiHash: newApiHash() })
    .where(eq(users.id, userId))
    .returning({ apiHash: users.apiHash });
  return row?.apiHash;
}

/** Every user, by id (the administrators' client list). */
export function listUsers(db: Queryable): Promise<User[]> {
  return db.select().from(users).orderBy(asc(users.id));
}

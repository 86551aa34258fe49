import { randomBytes } from "node:crypto";
import { and, asc, eq, ne } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { announceChanged, devicesSeenBy } from "../device-changes.js";
import { RefusedError, uniqueViolation } from "../errors.js";
import { isRowId } from "../row-id.js";
import { hashPassword, verifyPassword } from "../password.js";
import { announceUsersChanged } from "../user-changes.js";
import { users, type DstSettings, type SmsGatewayParams, type User, type UserGroupId } from "../schema/users.js";
import { replaceDeviceGroups, type DeviceGroupInput } from "./device-groups.js";

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
 * Creates a user with a hashed password (hashPassword, unless a test suite hashes each of its
 * passwords once) and a new api hash. The returned row includes
 * `passwordHash` and `apiHash`; the API masks them as the spec's account record does.
 * @throws RefusedError `{email: taken}` when the (lower-cased) email is taken.
 */
export async function createUser(db: Queryable, input: CreateUserInput, hash: (password: string) => Promise<string> = hashPassword): Promise<User> {
  const { password, email, ...rest } = input;
  const values = { ...rest, email: normalizeEmail(email), passwordHash: await hash(password), apiHash: newApiHash() };
  try {
    const [user] = await db.insert(users).values(values).returning();
    return user!;
  } catch (err) {
    if (uniqueViolation(err) === "users_email_unique") throw new RefusedError({ email: { kind: "taken" } });
    throw err;
  }
}

export async function findUserById(db: Queryable, id: number): Promise<User | undefined> {
  if (!isRowId(id)) return undefined;
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
/** The user these credentials sign in, stamped as signed in now; null when refused. */
export async function verifyLogin(db: Queryable, email: string, password: string): Promise<User | null> {
  const user = await findUserByEmail(db, email);
  if (!user) {
    await verifyPassword(password, await (dummyHash ??= hashPassword("no such user")));
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash)) || !isUserUsable(user)) return null;
  const [updated] = await db.update(users).set({ logedAt: new Date() }).where(eq(users.id, user.id)).returning();
  announceUsersChanged(db, [user.id]);
  return updated ?? null;
}

/** Makes `lang` the user's language; whether it changed (the user spoke another before). */
export async function setUserLang(db: Queryable, userId: number, lang: string): Promise<boolean> {
  const changed = await db.update(users).set({ lang }).where(and(eq(users.id, userId), ne(users.lang, lang))).returning({ id: users.id });
  if (changed.length > 0) announceUsersChanged(db, [userId]);
  return changed.length > 0;
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
  announceUsersChanged(db, [userId]);
  return row?.apiHash;
}

/** Every user, by id (the administrators' client list). */
export function listUsers(db: Queryable): Promise<User[]> {
  return db.select().from(users).orderBy(asc(users.id));
}

/*
 * What a user sets on their own account (edit_setup, change_password): units, timezone,
 * SMS gateway, DST rule, the device groups, the password.
 */

/** The account fields `edit_setup` writes; an optional field left undefined keeps its stored value. */
export interface AccountSettingsInput {
  unitOfDistance: User["unitOfDistance"];
  unitOfCapacity: User["unitOfCapacity"];
  unitOfAltitude: User["unitOfAltitude"];
  timezoneId: number;
  smsGateway: boolean;
  smsGatewayUrl?: string;
  /** Merged into the stored params key by key; undefined keys keep theirs. */
  smsGatewayParams?: Partial<SmsGatewayParams>;
  /** null clears the rule. */
  dst?: DstSettings | null;
  weekStartDay?: number;
}

/**
 * Saves `edit_setup` in one transaction: the account settings and the user's complete list
 * of device groups (see replaceDeviceGroups), then announces the devices the live list now
 * shows differently. Undefined when the user no longer exists.
 * @throws RefusedError `groups.<i>.id` unknown when a group id is not one of the user's; nothing is changed.
 */
export async function saveAccountSetup(db: Db, userId: number, settings: AccountSettingsInput, groups: readonly DeviceGroupInput[]): Promise<User | undefined> {
  const saved = await db.transaction(async (tx) => {
    // Locked so two concurrent saves merge their SMS gateway params one after the other.
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!before) return undefined;
    const regrouped = await replaceDeviceGroups(tx, userId, groups);
    const user = await updateAccountSettings(tx, before, settings);
    // New units or timezone redisplay every device the user sees, the regrouped ones among them.
    return { user, changed: displayChanged(before, user) ? await devicesSeenBy(tx, userId) : regrouped };
  });
  if (saved) {
    announceUsersChanged(db, [saved.user.id]);
    await announceChanged(db, saved.changed);
  }
  return saved?.user;
}

async function updateAccountSettings(tx: Tx, before: User, s: AccountSettingsInput): Promise<User> {
  const [user] = await tx
    .update(users)
    .set({
      unitOfDistance: s.unitOfDistance,
      unitOfCapacity: s.unitOfCapacity,
      unitOfAltitude: s.unitOfAltitude,
      timezoneId: s.timezoneId,
      smsGateway: s.smsGateway,
      smsGatewayParams: { ...before.smsGatewayParams, ...definedOnly(s.smsGatewayParams ?? {}) },
      // drizzle leaves undefined values out of the SET list, so these keep the stored value.
      smsGatewayUrl: s.smsGatewayUrl,
      dst: s.dst,
      weekStartDay: s.weekStartDay,
    })
    .where(eq(users.id, before.id))
    .returning();
  return user!;
}

/** Whether the live list shows the user's devices differently now (units and times). */
function displayChanged(a: User, b: User): boolean {
  return a.unitOfDistance !== b.unitOfDistance || a.unitOfCapacity !== b.unitOfCapacity || a.unitOfAltitude !== b.unitOfAltitude || a.timezoneId !== b.timezoneId;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Stores a new password and issues a new api hash in one statement (so one transaction):
 * the old `user_api_hash` stops working at once and only a new login with the new password
 * gives access again. False when the user no longer exists.
 */
export async function changePassword(db: Queryable, userId: number, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  const [row] = await db.update(users).set({ passwordHash, apiHash: newApiHash() }).where(eq(users.id, userId)).returning({ id: users.id });
  announceUsersChanged(db, [userId]);
  return row !== undefined;
}

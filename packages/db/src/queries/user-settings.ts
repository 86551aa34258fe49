import { eq } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { announceChanged, devicesSeenBy } from "../device-changes.js";
import { hashPassword } from "../password.js";
import { users, type DstSettings, type SmsGatewayParams, type User } from "../schema/users.js";
import { replaceDeviceGroups, type DeviceGroupInput } from "./device-groups.js";
import { newApiHash } from "./users.js";

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
  if (saved) await announceChanged(db, saved.changed);
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
  return row !== undefined;
}

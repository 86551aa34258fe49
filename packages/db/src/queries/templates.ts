import { and, asc, count, eq } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { gprsTemplates, smsTemplates } from "../schema/commands.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;
type Page = { limit: number; offset: number };

export type GprsTemplate = typeof gprsTemplates.$inferSelect;
export type SmsTemplate = typeof smsTemplates.$inferSelect;

export interface GprsTemplateInput {
  title: string;
  message: string;
  protocol: string;
}

/** SMS template fields; an absent one keeps its stored value on update ("" on create). */
export interface SmsTemplateInput {
  title?: string;
  message?: string;
}

/** An SMS template whose title and message would both be blank: an empty, nameless option. */
export class EmptySmsTemplateError extends Error {
  override readonly name = "EmptySmsTemplateError";
  readonly field = "message";
  constructor() {
    super("An SMS template needs a title or a message");
  }
}

const blank = (s: string) => s.trim() === "";

// ---- GPRS ------------------------------------------------------------------------------

/** One page of the user's GPRS templates by id, and how many the user has in all. */
export async function listUserGprsTemplates(db: Queryable, userId: number, page: Page): Promise<{ total: number; templates: GprsTemplate[] }> {
  const mine = eq(gprsTemplates.userId, userId);
  const [rows, [counted]] = await Promise.all([
    db.select().from(gprsTemplates).where(mine).orderBy(asc(gprsTemplates.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(gprsTemplates).where(mine),
  ]);
  return { total: counted?.n ?? 0, templates: rows };
}

/** Every GPRS template of the user by id (the command form's picker). */
export function allUserGprsTemplates(db: Queryable, userId: number): Promise<GprsTemplate[]> {
  return db.select().from(gprsTemplates).where(eq(gprsTemplates.userId, userId)).orderBy(asc(gprsTemplates.id));
}

/** The user's GPRS template, or undefined when it does not exist or is another user's (callers answer both alike). */
export async function findUserGprsTemplate(db: Queryable, userId: number, id: number): Promise<GprsTemplate | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db
    .select()
    .from(gprsTemplates)
    .where(and(eq(gprsTemplates.id, id), eq(gprsTemplates.userId, userId)));
  return row;
}

export async function createGprsTemplate(db: Queryable, userId: number, input: GprsTemplateInput): Promise<GprsTemplate> {
  const [row] = await db
    .insert(gprsTemplates)
    .values({ userId, title: input.title, message: input.message, protocol: input.protocol })
    .returning();
  return row!;
}

/** Rewrites the user's template; undefined when it does not exist or is another user's. */
export async function updateGprsTemplate(db: Queryable, userId: number, id: number, input: GprsTemplateInput): Promise<GprsTemplate | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db
    .update(gprsTemplates)
    .set({ title: input.title, message: input.message, protocol: input.protocol })
    .where(and(eq(gprsTemplates.id, id), eq(gprsTemplates.userId, userId)))
    .returning();
  return row;
}

/** Deletes the user's template; false when it does not exist or is another user's. */
export async function destroyGprsTemplate(db: Queryable, userId: number, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  const gone = await db
    .delete(gprsTemplates)
    .where(and(eq(gprsTemplates.id, id), eq(gprsTemplates.userId, userId)))
    .returning({ id: gprsTemplates.id });
  return gone.length > 0;
}

// ---- SMS -------------------------------------------------------------------------------

export async function listUserSmsTemplates(db: Queryable, userId: number, page: Page): Promise<{ total: number; templates: SmsTemplate[] }> {
  const mine = eq(smsTemplates.userId, userId);
  const [rows, [counted]] = await Promise.all([
    db.select().from(smsTemplates).where(mine).orderBy(asc(smsTemplates.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(smsTemplates).where(mine),
  ]);
  return { total: counted?.n ?? 0, templates: rows };
}

export function allUserSmsTemplates(db: Queryable, userId: number): Promise<SmsTemplate[]> {
  return db.select().from(smsTemplates).where(eq(smsTemplates.userId, userId)).orderBy(asc(smsTemplates.id));
}

export async function findUserSmsTemplate(db: Queryable, userId: number, id: number): Promise<SmsTemplate | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db
    .select()
    .from(smsTemplates)
    .where(and(eq(smsTemplates.id, id), eq(smsTemplates.userId, userId)));
  return row;
}

/** @throws EmptySmsTemplateError when title and message would both be blank. */
export async function createSmsTemplate(db: Queryable, userId: number, input: SmsTemplateInput): Promise<SmsTemplate> {
  const title = input.title ?? "";
  const message = input.message ?? "";
  if (blank(title) && blank(message)) throw new EmptySmsTemplateError();
  const [row] = await db.insert(smsTemplates).values({ userId, title, message }).returning();
  return row!;
}

/**
 * Updates the user's template, absent fields keeping their values, in one transaction
 * (the row is locked while the merged result is checked). Undefined when it does not
 * exist or is another user's.
 * @throws EmptySmsTemplateError when the result's title and message would both be blank.
 */
export async function updateSmsTemplate(db: Db, userId: number, id: number, input: SmsTemplateInput): Promise<SmsTemplate | undefined> {
  if (!isRowId(id)) return undefined;
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(smsTemplates)
      .where(and(eq(smsTemplates.id, id), eq(smsTemplates.userId, userId)))
      .for("update");
    if (!current) return undefined;
    const title = input.title ?? current.title;
    const message = input.message ?? current.message;
    if (blank(title) && blank(message)) throw new EmptySmsTemplateError();
    const [row] = await tx.update(smsTemplates).set({ title, message }).where(eq(smsTemplates.id, id)).returning();
    return row;
  });
}

export async function destroySmsTemplate(db: Queryable, userId: number, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  const gone = await db
    .delete(smsTemplates)
    .where(and(eq(smsTemplates.id, id), eq(smsTemplates.userId, userId)))
    .returning({ id: smsTemplates.id });
  return gone.length > 0;
}

import type { Db, Queryable } from "../client.js";
import { assertNotRefused } from "../errors.js";
import { ownedRows, type Page } from "../owned.js";
import { gprsTemplates, smsTemplates } from "../schema/commands.js";
import { isRowId } from "../row-id.js";

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

const gprs = ownedRows(gprsTemplates);
const sms = ownedRows(smsTemplates);

// ---- GPRS ------------------------------------------------------------------------------

/** One page of the user's GPRS templates by id, and how many the user has in all. */
export const pageUserGprsTemplates = (db: Queryable, userId: number, page: Page): Promise<{ total: number; rows: GprsTemplate[] }> => gprs.page(db, userId, page);

/** Every GPRS template of the user by id (the command form's picker). */
export const allUserGprsTemplates = (db: Queryable, userId: number): Promise<GprsTemplate[]> => gprs.list(db, userId);

/** The user's GPRS template, or undefined when it does not exist or is another user's (callers answer both alike). */
export const findUserGprsTemplate = (db: Queryable, userId: number, id: number): Promise<GprsTemplate | undefined> => gprs.find(db, userId, id);

export const createGprsTemplate = (db: Queryable, userId: number, input: GprsTemplateInput): Promise<GprsTemplate> => gprs.create(db, userId, { ...input });

/** Rewrites the user's template; undefined when it does not exist or is another user's. */
export const updateGprsTemplate = (db: Queryable, userId: number, id: number, input: GprsTemplateInput): Promise<GprsTemplate | undefined> => gprs.update(db, userId, id, { ...input });

/** Deletes the user's template; false when it does not exist or is another user's. */
export const destroyGprsTemplate = (db: Queryable, userId: number, id: number): Promise<boolean> => gprs.destroy(db, userId, id);

// ---- SMS -------------------------------------------------------------------------------

/** A title and a message both blank would make an empty, nameless option. */
function assertNotEmpty(title: string, message: string): void {
  assertNotRefused(title.trim() === "" && message.trim() === "" ? { message: { kind: "blank" } } : {});
}

export const pageUserSmsTemplates = (db: Queryable, userId: number, page: Page): Promise<{ total: number; rows: SmsTemplate[] }> => sms.page(db, userId, page);

export const allUserSmsTemplates = (db: Queryable, userId: number): Promise<SmsTemplate[]> => sms.list(db, userId);

export const findUserSmsTemplate = (db: Queryable, userId: number, id: number): Promise<SmsTemplate | undefined> => sms.find(db, userId, id);

/** @throws RefusedError `{message: blank}` when title and message would both be blank. */
export async function createSmsTemplate(db: Queryable, userId: number, input: SmsTemplateInput): Promise<SmsTemplate> {
  const values = { title: input.title ?? "", message: input.message ?? "" };
  assertNotEmpty(values.title, values.message);
  return sms.create(db, userId, values);
}

/**
 * Updates the user's template, absent fields keeping their values, in one transaction
 * (the row is locked while the merged result is checked). Undefined when it does not
 * exist or is another user's.
 * @throws RefusedError `{message: blank}` when the result's title and message would both be blank.
 */
export async function updateSmsTemplate(db: Db, userId: number, id: number, input: SmsTemplateInput): Promise<SmsTemplate | undefined> {
  if (!isRowId(id)) return undefined;
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(smsTemplates).where(sms.mine(userId, id)).for("update");
    if (!current) return undefined;
    const values = { title: input.title ?? current.title, message: input.message ?? current.message };
    assertNotEmpty(values.title, values.message);
    return sms.update(tx, userId, id, values);
  });
}

export const destroySmsTemplate = (db: Queryable, userId: number, id: number): Promise<boolean> => sms.destroy(db, userId, id);

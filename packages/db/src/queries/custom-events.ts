import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { customEvents, type CustomEvent, type CustomEventCondition } from "../schema/alerts.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;

/** What add_custom_event and edit_custom_event write; `always` left out keeps the stored flag on edit. */
export interface CustomEventInput {
  protocol: string;
  message: string;
  conditions: CustomEventCondition[];
  always?: boolean;
}

const mine = (userId: number, id: number) => and(eq(customEvents.id, id), eq(customEvents.userId, userId));

/** One page of the user's custom events by id, and how many the user has in all. */
export async function listUserCustomEvents(db: Queryable, userId: number, page: { limit: number; offset: number }): Promise<{ total: number; events: CustomEvent[] }> {
  const [rows, [counted]] = await Promise.all([
    db.select().from(customEvents).where(eq(customEvents.userId, userId)).orderBy(asc(customEvents.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(customEvents).where(eq(customEvents.userId, userId)),
  ]);
  return { total: counted?.n ?? 0, events: rows };
}

/** The user's custom event, or undefined when it does not exist or is another user's (callers answer both alike). */
export async function findUserCustomEvent(db: Queryable, userId: number, id: number): Promise<CustomEvent | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db.select().from(customEvents).where(mine(userId, id));
  return row;
}

/**
 * The user's custom events, by protocol then id; only those of `protocolNames` when given
 * (an empty list matches none).
 */
export async function listCustomEventsByProtocol(db: Queryable, userId: number, protocolNames?: readonly string[]): Promise<CustomEvent[]> {
  if (protocolNames?.length === 0) return [];
  const scope = protocolNames ? and(eq(customEvents.userId, userId), inArray(customEvents.protocol, [...protocolNames])) : eq(customEvents.userId, userId);
  return db.select().from(customEvents).where(scope).orderBy(asc(customEvents.protocol), asc(customEvents.id));
}

export async function createCustomEvent(db: Queryable, userId: number, input: CustomEventInput): Promise<CustomEvent> {
  const [row] = await db
    .insert(customEvents)
    .values({ userId, protocol: input.protocol, message: input.message, conditions: input.conditions, always: input.always ?? false })
    .returning();
  return row!;
}

/** Rewrites the user's custom event in one statement; undefined when it does not exist or is another user's. */
export async function updateCustomEvent(db: Queryable, userId: number, id: number, input: CustomEventInput): Promise<CustomEvent | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db
    .update(customEvents)
    .set({
      protocol: input.protocol,
      message: input.message,
      conditions: input.conditions,
      ...(input.always === undefined ? {} : { always: input.always }),
      updatedAt: new Date(),
    })
    .where(mine(userId, id))
    .returning();
  return row;
}

/**
 * Deletes the user's custom event. Alerts that name it keep the id in their list, which
 * reads leave out once the event is gone (see alerts' reference filtering).
 */
export async function destroyCustomEvent(db: Queryable, userId: number, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  const gone = await db.delete(customEvents).where(mine(userId, id)).returning({ id: customEvents.id });
  return gone.length > 0;
}

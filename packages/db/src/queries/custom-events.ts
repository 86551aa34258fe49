import { and, asc, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../client.js";
import { ownedRows, type Page } from "../owned.js";
import { customEvents, type CustomEvent, type CustomEventCondition } from "../schema/alerts.js";

/** What add_custom_event and edit_custom_event write; `always` left out keeps the stored flag on edit. */
export interface CustomEventInput {
  protocol: string;
  message: string;
  conditions: CustomEventCondition[];
  always?: boolean;
}

const owned = ownedRows(customEvents);

function values(input: CustomEventInput) {
  return { protocol: input.protocol, message: input.message, conditions: input.conditions, ...(input.always === undefined ? {} : { always: input.always }) };
}

/** One page of the user's custom events by id, and how many the user has in all. */
export const pageUserCustomEvents = (db: Queryable, userId: number, page: Page): Promise<{ total: number; rows: CustomEvent[] }> => owned.page(db, userId, page);

/** The user's custom event, or undefined when it does not exist or is another user's (callers answer both alike). */
export const findUserCustomEvent = (db: Queryable, userId: number, id: number): Promise<CustomEvent | undefined> => owned.find(db, userId, id);

/**
 * The user's custom events, by protocol then id; only those of `protocolNames` when given
 * (an empty list matches none).
 */
export async function listCustomEventsByProtocol(db: Queryable, userId: number, protocolNames?: readonly string[]): Promise<CustomEvent[]> {
  if (protocolNames?.length === 0) return [];
  const scope = protocolNames ? and(eq(customEvents.userId, userId), inArray(customEvents.protocol, [...protocolNames])) : eq(customEvents.userId, userId);
  return db.select().from(customEvents).where(scope).orderBy(asc(customEvents.protocol), asc(customEvents.id));
}

export const createCustomEvent = (db: Queryable, userId: number, input: CustomEventInput): Promise<CustomEvent> => owned.create(db, userId, values(input));

/** Rewrites the user's custom event in one statement; undefined when it does not exist or is another user's. */
export const updateCustomEvent = (db: Queryable, userId: number, id: number, input: CustomEventInput): Promise<CustomEvent | undefined> => owned.update(db, userId, id, values(input));

/**
 * Deletes the user's custom event. Alerts that name it keep the id in their list, which
 * reads leave out once the event is gone (see alerts' reference filtering).
 */
export const destroyCustomEvent = (db: Queryable, userId: number, id: number): Promise<boolean> => owned.destroy(db, userId, id);

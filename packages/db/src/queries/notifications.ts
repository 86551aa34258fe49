import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Queryable, Tx } from "../client.js";
import type { EventRow } from "../schema/events.js";
import { notifications, type NotificationChannel, type NotificationRow } from "../schema/notifications.js";
import type { EventInput } from "./events.js";

/** A notification to queue with its event: the channel and what its adapter sends. */
export interface EventNotification {
  channel: NotificationChannel;
  payload: Record<string, unknown>;
}

/** Queues the notifications of the events a recordEvents call inserted, in its transaction. */
export async function queueNotifications(tx: Tx, inserted: readonly EventRow[], input: readonly EventInput[], notificationsOf: (event: EventInput) => readonly EventNotification[]): Promise<void> {
  const byKey = new Map(input.map((e) => [`${e.userId}:${e.dedupeKey}`, e]));
  const rows = inserted.flatMap((row) => {
    const event = byKey.get(`${row.userId}:${row.dedupeKey}`);
    // The event's own id goes into what is sent (a webhook's event.id).
    return event ? notificationsOf(event).map((n) => ({ eventId: row.id, userId: row.userId, channel: n.channel, payload: { ...n.payload, eventId: row.id } })) : [];
  });
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(notifications).values(rows.slice(i, i + 1000)).onConflictDoNothing();
}

/**
 * Takes up to `limit` notifications that are due, for `leaseMs`: they are not due again
 * until then, so another dispatcher (another instance) skips them, and one whose dispatcher
 * died is taken again when the lease ends. Each take counts as an attempt.
 */
export async function claimDueNotifications(db: Queryable, opts: { limit: number; leaseMs: number; now?: Date }): Promise<NotificationRow[]> {
  const now = opts.now ?? new Date();
  const due = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.status, "pending"), lte(notifications.nextAt, now)))
    .orderBy(notifications.nextAt)
    .limit(opts.limit)
    .for("update", { skipLocked: true });
  return db
    .update(notifications)
    .set({ nextAt: new Date(now.getTime() + opts.leaseMs), attempts: sql`${notifications.attempts} + 1`, updatedAt: now })
    .where(inArray(notifications.id, due))
    .returning();
}

/** How an attempt ended: delivered, failed for good, or due again at `retryAt`. */
export type NotificationOutcome = { status: "sent" } | { status: "failed"; error: string } | { status: "pending"; error: string; retryAt: Date };

export async function finishNotification(db: Queryable, id: number, outcome: NotificationOutcome): Promise<void> {
  const now = new Date();
  await db
    .update(notifications)
    .set(
      outcome.status === "sent"
        ? { status: "sent", lastError: null, updatedAt: now }
        : outcome.status === "failed"
          ? { status: "failed", lastError: outcome.error, updatedAt: now }
          : { status: "pending", lastError: outcome.error, nextAt: outcome.retryAt, updatedAt: now },
    )
    .where(eq(notifications.id, id));
}

/** The notifications of some events, for tests and operators' tools. */
export async function listEventNotifications(db: Queryable, eventIds: readonly number[]): Promise<NotificationRow[]> {
  if (eventIds.length === 0) return [];
  return db.select().from(notifications).where(inArray(notifications.eventId, [...eventIds])).orderBy(notifications.id);
}

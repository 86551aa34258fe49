import { and, eq, inArray, lt, lte, sql } from "drizzle-orm";
import type { Queryable, Tx } from "../client.js";
import { events, type EventRow } from "../schema/events.js";
import { notifications, type NotificationChannel, type NotificationRow } from "../schema/notifications.js";
import { users } from "../schema/users.js";
import { isUserUsable } from "./users.js";
import type { EventInput } from "./events.js";

/** A notification to queue with its event: the channel and what its adapter sends. */
export interface EventNotification {
  channel: NotificationChannel;
  payload: Record<string, unknown>;
  /**
   * The alert's silence ("ignore notifications if repeated in minutes"): not queued when an
   * event of the same user, alert, device, type and geofence has a fix time in the N minutes
   * before this event's, recorded earlier or in the same batch. The event is recorded either way.
   */
  silentMinutes?: number;
}

/**
 * Queues the notifications of the events a recordEvents call inserted, in its transaction,
 * but for those an alert's silence leaves out (at most one query, only when some
 * notification has a silence).
 */
export async function queueNotifications(tx: Tx, inserted: readonly EventRow[], input: readonly EventInput[], notificationsOf: (event: EventInput) => readonly EventNotification[]): Promise<void> {
  const byKey = new Map(input.map((e) => [`${e.userId}:${e.dedupeKey}`, e]));
  const planned = inserted.flatMap((row) => {
    const event = byKey.get(`${row.userId}:${row.dedupeKey}`);
    return event ? [{ row, list: notificationsOf(event) }] : [];
  });
  const previous = await previousFirings(tx, planned);
  const rows = planned.flatMap(({ row, list }) => {
    const last = previous.get(row.id);
    const silenced = (n: EventNotification) => last !== undefined && n.silentMinutes !== undefined && last >= row.time.getTime() - n.silentMinutes * 60_000;
    // The event's own id goes into what is sent (a webhook's event.id).
    return list.filter((n) => !silenced(n)).map((n) => ({ eventId: row.id, userId: row.userId, channel: n.channel, payload: { ...n.payload, eventId: row.id } }));
  });
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(notifications).values(rows.slice(i, i + 1000)).onConflictDoNothing();
}

/**
 * For each event with a silence on a notification: the fix time (ms) of the latest other event
 * of its user, alert, device, type and geofence (null-safe) in the longest of its silences
 * before it, when there is one. The batch's own events are already inserted, so an earlier
 * one of the batch counts too; the window is [time - N min, time), so the event itself and
 * one at the same instant do not.
 */
async function previousFirings(tx: Tx, planned: readonly { row: EventRow; list: readonly EventNotification[] }[]): Promise<Map<number, number>> {
  const candidates = planned.flatMap(({ row, list }) => {
    const minutes = Math.max(0, ...list.map((n) => n.silentMinutes ?? 0));
    return row.alertId !== null && minutes > 0
      ? [{ id: row.id, user_id: row.userId, alert_id: row.alertId, device_id: row.deviceId, type: row.type, geofence_id: row.geofenceId, time: row.time.toISOString(), minutes }]
      : [];
  });
  if (candidates.length === 0) return new Map();
  const result = await tx.execute(sql`
    select c.id, (
      select extract(epoch from max(e.time)) * 1000 from ${events} e
      where e.user_id = c.user_id and e.device_id = c.device_id and e.alert_id = c.alert_id and e.type = c.type
        and e.geofence_id is not distinct from c.geofence_id
        and e.time >= c.time - make_interval(mins => c.minutes) and e.time < c.time
    )::float8 as last
    from json_to_recordset(${JSON.stringify(candidates)}::json)
      as c(id bigint, user_id int, alert_id int, device_id int, type text, geofence_id int, time timestamptz, minutes int)`);
  const out = new Map<number, number>();
  // Both drivers answer with `rows`; bigint and float8 may come as text, hence Number.
  for (const r of (result as unknown as { rows: { id: unknown; last: unknown }[] }).rows) if (r.last !== null) out.set(Number(r.id), Number(r.last));
  return out;
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

/**
 * Of these events, the ones whose notifications are no longer sent nor tried again, with why:
 * the alert or maintenance service is gone (deleted: the event keeps neither), as an operator
 * deleting a noisy alert expects, or its owner may no longer sign in (deactivated or expired since it was queued), as
 * a shut-out account's alerts fire nothing.
 */
export async function undeliverableEvents(db: Queryable, eventIds: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (eventIds.length === 0) return out;
  const rows = await db
    .select({ id: events.id, alertId: events.alertId, serviceId: events.serviceId, active: users.active, expirationDate: users.expirationDate })
    .from(events)
    .innerJoin(users, eq(users.id, events.userId))
    .where(inArray(events.id, [...eventIds]));
  for (const r of rows) {
    // An event keeps the link to the alert or the service that made it while that exists.
    if (r.alertId === null && r.serviceId === null) out.set(r.id, "the alert or service was deleted");
    else if (!isUserUsable(r)) out.set(r.id, "the account may not sign in (deactivated or expired)");
  }
  return out;
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

/**
 * Deletes up to `limit` notifications that are done (sent, or failed for good) and were last
 * attempted before `before`; resolves with how many. The outbox is for delivering: what it
 * says of a delivery long past is in the logs. Ordered by the due index, so the scan reads
 * only rows old enough to go.
 */
export async function pruneNotifications(db: Queryable, opts: { before: Date; limit: number }): Promise<number> {
  const done = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(inArray(notifications.status, ["sent", "failed"]), lt(notifications.nextAt, opts.before)))
    .limit(opts.limit);
  const deleted = await db.delete(notifications).where(inArray(notifications.id, done)).returning({ id: notifications.id });
  return deleted.length;
}

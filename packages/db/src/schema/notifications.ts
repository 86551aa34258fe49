import { bigint, bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { events } from "./events.js";
import { users } from "./users.js";

export const notificationChannels = ["webhook", "email", "sms", "command"] as const;
export type NotificationChannel = (typeof notificationChannels)[number];

export const notificationStatuses = ["pending", "sent", "failed"] as const;
export type NotificationStatus = (typeof notificationStatuses)[number];

/**
 * The outbox of alert notifications: one row per event and channel, written in the event's
 * own transaction, so an event is never recorded without its notifications nor notified
 * twice. A dispatcher takes due rows (FOR UPDATE SKIP LOCKED, so several instances share
 * them), delivers them, and marks each sent, failed for good, or due again later.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventId: bigint("event_id", { mode: "number" })
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: notificationChannels }).notNull(),
    /** What the channel's adapter sends, as the rules service built it when the event was found. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: notificationStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When the row is next due: now for a new one, later after a failed attempt or while an attempt holds it. */
    nextAt: ts("next_at").notNull().defaultNow(),
    /** Why the last attempt failed; never a secret (no URL query, no credentials). */
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("notifications_event_channel_unique").on(t.eventId, t.channel), index("notifications_due_idx").on(t.status, t.nextAt), index("notifications_user_id_idx").on(t.userId)],
);

export type NotificationRow = typeof notifications.$inferSelect;

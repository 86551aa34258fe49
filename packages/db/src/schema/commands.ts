import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { devices } from "./devices.js";
import { users } from "./users.js";

/** A user's GPRS command template (a raw command for a protocol). */
export const gprsTemplates = pgTable(
  "gprs_templates",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    message: text("message").notNull(),
    protocol: text("protocol").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("gprs_templates_user_id_idx").on(t.userId)],
);

/** A user's SMS command template. */
export const smsTemplates = pgTable(
  "sms_templates",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull().default(""),
    message: text("message").notNull().default(""),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("sms_templates_user_id_idx").on(t.userId)],
);

export const commandChannels = ["gprs", "sms"] as const;
export const commandStatuses = ["queued", "sent", "failed"] as const;

/**
 * A command sent to a device, by GPRS (queued on the `commands` topic for a device
 * gateway) or SMS (through the account's gateway). `requestKey` makes a retried request
 * the same command rather than a second one.
 */
export const sentCommands = pgTable(
  "sent_commands",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: integer("device_id").references(() => devices.id, { onDelete: "set null" }),
    channel: text("channel", { enum: commandChannels }).notNull(),
    type: text("type").notNull(),
    /** The command's attribute values, or for SMS the phone number and message. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: commandStatuses }).notNull().default("queued"),
    error: text("error"),
    requestKey: text("request_key"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("sent_commands_user_id_idx").on(t.userId),
    uniqueIndex("sent_commands_request_key_unique").on(t.userId, t.channel, t.deviceId, t.requestKey).where(sql`${t.requestKey} is not null`),
    check("sent_commands_channel_valid", sql`${t.channel} in ('gprs', 'sms')`),
    check("sent_commands_status_valid", sql`${t.status} in ('queued', 'sent', 'failed')`),
  ],
);

export type SentCommand = typeof sentCommands.$inferSelect;

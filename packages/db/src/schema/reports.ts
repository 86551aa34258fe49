import { boolean, doublePrecision, index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { users } from "./users.js";

/** A saved report definition (generation comes later). */
export const reports = pgTable(
  "reports",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    type: integer("type").notNull(),
    format: text("format").notNull(),
    showAddresses: boolean("show_addresses").notNull().default(false),
    zonesInstead: boolean("zones_instead").notNull().default(false),
    stops: integer("stops").notNull().default(0),
    speedLimit: doublePrecision("speed_limit"),
    daily: boolean("daily").notNull().default(false),
    weekly: boolean("weekly").notNull().default(false),
    email: text("email").notNull().default(""),
    devices: jsonb("devices").$type<number[]>().notNull().default([]),
    geofences: jsonb("geofences").$type<number[]>().notNull().default([]),
    parameters: jsonb("parameters").$type<Record<string, unknown>>().notNull().default({}),
    dailyEmailSent: ts("daily_email_sent"),
    weeklyEmailSent: ts("weekly_email_sent"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("reports_user_id_idx").on(t.userId)],
);

export type Report = typeof reports.$inferSelect;

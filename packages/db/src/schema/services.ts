import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { devices } from "./devices.js";
import { users } from "./users.js";

export const serviceExpirationBy = ["odometer", "engine_hours", "days"] as const;
export type ServiceExpirationBy = (typeof serviceExpirationBy)[number];

/**
 * A maintenance service of a device. For odometer and engine hours, `interval`,
 * `lastService` and `triggerEventLeft` are km and hours; for days, `lastService` is the
 * date of the last service (`YYYY-MM-DD`) and the other two are days. What it expires at
 * and whether it is expired are computed on read from the device's current counters.
 */
export const services = pgTable(
  "services",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    expirationBy: text("expiration_by", { enum: serviceExpirationBy }).$type<ServiceExpirationBy>().notNull(),
    interval: doublePrecision("interval").notNull(),
    // A number for odometer and engine hours, a date for days.
    lastService: text("last_service").notNull(),
    triggerEventLeft: doublePrecision("trigger_event_left").notNull().default(0),
    renewAfterExpiration: boolean("renew_after_expiration").notNull().default(false),
    // Set by the rules service when it has notified that the service is due (remind reached).
    eventSent: boolean("event_sent").notNull().default(false),
    // The cycle whose reminder went out (its start: km, hours or a date, as lastService): a
    // renewing service rolls into a new cycle without a write, and that cycle's reminder is due anew.
    notifiedCycle: text("notified_cycle"),
    email: text("email").notNull().default(""),
    mobilePhone: text("mobile_phone").notNull().default(""),
    description: text("description").notNull().default(""),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("services_device_id_idx").on(t.deviceId),
    index("services_user_id_idx").on(t.userId),
    check("services_expiration_by_valid", sql`${t.expirationBy} in ('odometer','engine_hours','days')`),
  ],
);

export type Service = typeof services.$inferSelect;
export type NewService = typeof services.$inferInsert;

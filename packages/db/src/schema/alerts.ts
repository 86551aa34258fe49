import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { devices } from "./devices.js";
import { users } from "./users.js";

/** One condition of a custom event: `type` 1 equals, 2 greater than, 3 less than. */
export interface CustomEventCondition {
  tag: string;
  type: 1 | 2 | 3;
  tag_value: string;
}

/** A user-defined event: conditions on a protocol's position attributes, and its message. */
export const customEvents = pgTable(
  "custom_events",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    protocol: text("protocol").notNull(),
    conditions: jsonb("conditions").$type<CustomEventCondition[]>().notNull().default([]),
    message: text("message").notNull(),
    // Raise the event on every matching position, not only when the conditions start to hold.
    always: boolean("always").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("custom_events_user_id_idx").on(t.userId)],
);

export type CustomEvent = typeof customEvents.$inferSelect;

export interface AlertNotifications {
  sound: { active: boolean };
  push: { active: boolean };
  email: { active: boolean; input: string };
  sms: { active: boolean; input: string };
  webhook: { active: boolean; input: string };
  command: { active: boolean; type: string; key: string | number | boolean | null } | null;
  /**
   * The vendor's "ignore notifications if repeated in minutes": while active, an event gets no
   * notifications when the same alert, device, geofence and type recorded one in the `input`
   * minutes before it (the event itself is recorded). Rows written before it existed lack it: off.
   */
  silent?: { active: boolean; input: number };
}

/** Every channel off: what an alert notifies by when it says nothing of its channels. */
export const NO_NOTIFICATIONS: AlertNotifications = {
  sound: { active: false },
  push: { active: false },
  email: { active: false, input: "" },
  sms: { active: false, input: "" },
  webhook: { active: false, input: "" },
  command: null,
};

/**
 * An alert: which devices, of which type (with that type's attributes), where (zone +
 * zones), when (schedules) and how to notify. Ids of geofences, drivers, custom events and
 * points of interest it names are kept as arrays and filtered to the user's existing records on read.
 */
export const alerts = pgTable(
  "alerts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type").notNull(),
    active: boolean("active").notNull().default(true),
    /** The chosen type's attribute values, by attribute name. */
    attributes: jsonb("attributes").$type<Record<string, unknown>>().notNull().default({}),
    // 0 anywhere, 1 only inside the `zones` geofences, 2 only outside them.
    zone: integer("zone").notNull().default(0),
    zones: jsonb("zones").$type<number[]>().notNull().default([]),
    geofences: jsonb("geofences").$type<number[]>().notNull().default([]),
    drivers: jsonb("drivers").$type<number[]>().notNull().default([]),
    eventsCustom: jsonb("events_custom").$type<number[]>().notNull().default([]),
    /** Points of interest (user_map_icons) of a poi_stop_duration or poi_idle_duration alert. */
    pois: jsonb("pois").$type<number[]>().notNull().default([]),
    schedule: boolean("schedule").notNull().default(false),
    /** weekday → the active "HH:MM" quarter-hour slots. */
    schedules: jsonb("schedules").$type<Record<string, string[]>>().notNull().default({}),
    notifications: jsonb("notifications").$type<AlertNotifications>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("alerts_user_id_idx").on(t.userId)],
);

export type Alert = typeof alerts.$inferSelect;

/**
 * Which devices an alert watches (a table, so the rules service can look alerts up by device),
 * each with the period in which the alert applies to that device: from `active_from`
 * (inclusive) until `active_to` (exclusive); null is no bound on that side.
 */
export const alertDevices = pgTable(
  "alert_devices",
  {
    alertId: integer("alert_id")
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    activeFrom: ts("active_from"),
    activeTo: ts("active_to"),
  },
  (t) => [
    primaryKey({ name: "alert_devices_pk", columns: [t.alertId, t.deviceId] }),
    index("alert_devices_device_id_idx").on(t.deviceId),
    // A period that ends before it starts would silence the alert for good without saying so.
    check("alert_devices_period_order", sql`${t.activeFrom} is null or ${t.activeTo} is null or ${t.activeTo} > ${t.activeFrom}`),
  ],
);

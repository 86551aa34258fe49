import { bigint, bigserial, boolean, doublePrecision, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { alerts } from "./alerts.js";
import { ts } from "./columns.js";
import { devices } from "./devices.js";
import { geofences } from "./geofences.js";
import { services } from "./services.js";
import { users } from "./users.js";

/**
 * An event the rules service recorded for a user (an alert that fired on a position):
 * what happened (`type`, `message`), where and when (the position's fix, speed in km/h,
 * altitude in m), and which alert and geofence made it. Written only through
 * recordEvents, once per `dedupe_key` of the user, so a replayed position records nothing new.
 * Never updated: `updated_at` is the spec's field and equals `created_at`.
 */
export const events = pgTable(
  "events",
  {
    // Events outgrow the other tables by orders of magnitude: 64-bit ids.
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    // A deleted alert or geofence leaves its events, without the link.
    alertId: integer("alert_id").references(() => alerts.id, { onDelete: "set null" }),
    geofenceId: integer("geofence_id").references(() => geofences.id, { onDelete: "set null" }),
    // A maintenance service's reminder (type "service") names its service instead of an alert.
    serviceId: integer("service_id").references(() => services.id, { onDelete: "set null" }),
    // The position's id in history (ClickHouse), which no foreign key can reach.
    positionId: bigint("position_id", { mode: "number" }),
    type: text("type").notNull(),
    message: text("message").notNull().default(""),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    speedKmh: doublePrecision("speed").notNull().default(0),
    altitudeM: doublePrecision("altitude").notNull().default(0),
    course: doublePrecision("course"),
    power: doublePrecision("power"),
    address: text("address").notNull().default(""),
    /** The alert's sound and push channels were on: clients that poll events play a sound or push. */
    sound: boolean("sound").notNull().default(false),
    push: boolean("push").notNull().default(false),
    /** The position's fix time: what "when" means to a user, and what get_events filters and sorts by. */
    time: ts("time").notNull(),
    /** The writer's key for "this event": the same key again for the same user records nothing. */
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // Per user: one writer's key cannot swallow another user's event.
    uniqueIndex("events_user_dedupe_key_unique").on(t.userId, t.dedupeKey),
    // get_events newest first, for the user or for one of the user's devices.
    index("events_user_time_idx").on(t.userId, t.time.desc(), t.id.desc()),
    index("events_user_device_time_idx").on(t.userId, t.deviceId, t.time.desc(), t.id.desc()),
    // Deleting a device, an alert or a geofence finds its events without a scan.
    index("events_device_id_idx").on(t.deviceId),
    index("events_alert_id_idx").on(t.alertId),
    index("events_geofence_id_idx").on(t.geofenceId),
    index("events_service_id_idx").on(t.serviceId),
  ],
);

/** Not `Event`, which would shadow the DOM's global type where imported. */
export type EventRow = typeof events.$inferSelect;

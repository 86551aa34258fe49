import { index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { devices } from "./devices.js";
import { users } from "./users.js";

/**
 * A user's drivers. `device_id` is the device the driver is assigned to; a position from
 * any of the user's devices carrying the driver's `rfid` makes the driver that device's
 * current one (user_devices.current_driver_id).
 */
export const drivers = pgTable(
  "drivers",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // null once the device is destroyed: the driver record outlives it.
    deviceId: integer("device_id").references(() => devices.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    // '' = none. Matched case-insensitively against position attributes (stored as sent).
    rfid: text("rfid").notNull().default(""),
    phone: text("phone").notNull().default(""),
    email: text("email").notNull().default(""),
    description: text("description").notNull().default(""),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("drivers_user_id_idx").on(t.userId), index("drivers_device_id_idx").on(t.deviceId)],
);

export type Driver = typeof drivers.$inferSelect;
export type NewDriver = typeof drivers.$inferInsert;

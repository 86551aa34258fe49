import { boolean, index, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { deviceGroups } from "./device-groups.js";
import { devices } from "./devices.js";
import { drivers } from "./drivers.js";
import { users } from "./users.js";

/**
 * Which users see which devices, with the per-user settings the spec shows in a device's
 * `pivot` object. A device may be shared by several users.
 */
export const userDevices = pgTable(
  "user_devices",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    // null = ungrouped. The group's owner is checked by the query layer, not by this key.
    groupId: integer("group_id").references(() => deviceGroups.id, { onDelete: "set null" }),
    currentDriverId: integer("current_driver_id").references(() => drivers.id, { onDelete: "set null" }),
    // Fix time of the position whose RFID made the current driver, so a replayed or late
    // older position cannot switch back to an earlier driver. null = set by hand.
    currentDriverSince: timestamp("current_driver_since", { withTimezone: true, mode: "date" }),
    active: boolean("active").notNull().default(true),
    // null = follow the device, then the user.
    timezoneId: integer("timezone_id"),
  },
  (t) => [
    primaryKey({ name: "user_devices_pk", columns: [t.userId, t.deviceId] }),
    // The primary key serves lookups by user; this one serves "who owns this device".
    index("user_devices_device_id_idx").on(t.deviceId),
  ],
);

export type UserDevice = typeof userDevices.$inferSelect;
export type NewUserDevice = typeof userDevices.$inferInsert;

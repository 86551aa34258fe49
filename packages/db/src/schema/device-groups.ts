import { index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { users } from "./users.js";

/** A user's own grouping of devices (`edit_setup` `groups`, `add_device_data` `device_groups`). */
export const deviceGroups = pgTable(
  "device_groups",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
  },
  (t) => [index("device_groups_user_id_idx").on(t.userId)],
);

export type DeviceGroup = typeof deviceGroups.$inferSelect;
export type NewDeviceGroup = typeof deviceGroups.$inferInsert;

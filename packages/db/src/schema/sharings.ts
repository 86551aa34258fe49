import { boolean, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { devices } from "./devices.js";
import { users } from "./users.js";

/**
 * A link through which anyone holding its hash sees some of a user's devices live (the
 * vendor's Sharing): the hash is the credential, so it is random, unique and never logged.
 * It shows nothing while inactive or once `expiresAt` has passed; with
 * `deleteAfterExpiration` it is removed then.
 */
export const sharings = pgTable(
  "sharings",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    hash: text("hash").notNull(),
    active: boolean("active").notNull().default(true),
    /** Null: never expires. */
    expiresAt: ts("expires_at"),
    deleteAfterExpiration: boolean("delete_after_expiration").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("sharings_user_id_idx").on(t.userId), uniqueIndex("sharings_hash_unique").on(t.hash)],
);

/** The devices a sharing shows; a device its sharer no longer has leaves it (a trigger on user_devices, migration 0023). */
export const sharingDevices = pgTable(
  "sharing_devices",
  {
    sharingId: integer("sharing_id")
      .notNull()
      .references(() => sharings.id, { onDelete: "cascade" }),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.sharingId, t.deviceId] }), index("sharing_devices_device_id_idx").on(t.deviceId)],
);

export type Sharing = typeof sharings.$inferSelect;

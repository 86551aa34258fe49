import { bigint, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Trackers that send positions but match no device, so an administrator can see and add
 * them. The tracker aggregates sightings and upserts them in batches (recordUnregistered).
 */
export const unregisteredDevices = pgTable("unregistered_devices", {
  uniqueId: text("unique_id").primaryKey(),
  protocol: text("protocol").notNull(),
  firstSeen: timestamp("first_seen", { withTimezone: true, mode: "date" }).notNull(),
  lastSeen: timestamp("last_seen", { withTimezone: true, mode: "date" }).notNull(),
  // bigint because a chatty unknown tracker counts forever; as a JS number it is exact to 2^53.
  count: bigint("count", { mode: "number" }).notNull().default(0),
});

export type UnregisteredDevice = typeof unregisteredDevices.$inferSelect;

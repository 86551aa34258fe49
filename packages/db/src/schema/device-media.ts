import { bigserial, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { bytea, ts } from "./columns.js";
import { devices } from "./devices.js";

/**
 * A photo a device's camera took, as its relay uploaded it: kept in the database, so every
 * api instance serves it, and gone with its device. `name` is the opaque file name of its
 * url, random, so one device's file names tell nothing about another's.
 */
export const deviceMedia = pgTable(
  "device_media",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    name: text("name").notNull().unique(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    body: bytea("body").notNull(),
    /** The camera that took it, as the relay named it ("" for a device with one). */
    cameraName: text("camera_name").notNull().default(""),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("device_media_device_id_idx").on(t.deviceId, t.id)],
);

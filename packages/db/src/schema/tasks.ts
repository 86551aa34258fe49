import { doublePrecision, index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { bytea, ts } from "./columns.js";
import { devices } from "./devices.js";
import { users } from "./users.js";

/** A delivery task for a device: pick up somewhere, deliver somewhere, within time windows. */
export const tasks = pgTable(
  "tasks",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    comment: text("comment").notNull().default(""),
    priority: integer("priority").notNull(),
    status: integer("status").notNull(),
    invoiceNumber: text("invoice_number").notNull().default(""),
    pickupAddress: text("pickup_address").notNull(),
    pickupAddressLat: doublePrecision("pickup_address_lat").notNull(),
    pickupAddressLng: doublePrecision("pickup_address_lng").notNull(),
    deliveryAddress: text("delivery_address").notNull(),
    deliveryAddressLat: doublePrecision("delivery_address_lat").notNull(),
    deliveryAddressLng: doublePrecision("delivery_address_lng").notNull(),
    pickupTimeFrom: ts("pickup_time_from").notNull(),
    pickupTimeTo: ts("pickup_time_to").notNull(),
    deliveryTimeFrom: ts("delivery_time_from").notNull(),
    deliveryTimeTo: ts("delivery_time_to").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("tasks_user_id_idx").on(t.userId), index("tasks_device_id_idx").on(t.deviceId)],
);

export type Task = typeof tasks.$inferSelect;

/** A task's status history: one row per status it took, with an optional signature image. */
export const taskStatuses = pgTable(
  "task_statuses",
  {
    id: serial("id").primaryKey(),
    taskId: integer("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    status: integer("status").notNull(),
    comment: text("comment").notNull().default(""),
    signature: bytea("signature"),
    signatureType: text("signature_type"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("task_statuses_task_id_idx").on(t.taskId)],
);

export type TaskStatus = typeof taskStatuses.$inferSelect;

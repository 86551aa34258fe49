import { callResponseTypeNames } from "@fleet/contracts";
import { bigint, index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { alerts } from "./alerts.js";
import { ts } from "./columns.js";
import { devices } from "./devices.js";
import { events } from "./events.js";
import { users } from "./users.js";

/**
 * A call an operator made about one of a user's devices (the vendor's call actions): when,
 * whether anyone answered, and the remarks, often about an event an alert raised. The log
 * outlives the event and the alert it names (their links are cleared), not the device.
 */
export const callActions = pgTable(
  "call_actions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    eventId: bigint("event_id", { mode: "number" }).references(() => events.id, { onDelete: "set null" }),
    alertId: integer("alert_id").references(() => alerts.id, { onDelete: "set null" }),
    calledAt: ts("called_at").notNull(),
    responseType: text("response_type", { enum: callResponseTypeNames }).notNull(),
    remarks: text("remarks").notNull().default(""),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("call_actions_user_called_idx").on(t.userId, t.calledAt.desc(), t.id.desc()),
    index("call_actions_device_id_idx").on(t.deviceId),
    index("call_actions_event_id_idx").on(t.eventId),
    index("call_actions_alert_id_idx").on(t.alertId),
  ],
);

export type CallAction = typeof callActions.$inferSelect;

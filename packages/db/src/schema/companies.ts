import { index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { users } from "./users.js";

/**
 * A company (the vendor's admin companies): a platform-wide record administrators keep,
 * owned by no user. `userId` is the administrator who created it, cleared when that account
 * goes; nothing else refers to a company yet.
 */
export const companies = pgTable(
  "companies",
  {
    id: serial("id").primaryKey(),
    /** Who created it; null once that account is gone. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    vatNumber: text("vat_number").notNull().default(""),
    registrationCode: text("registration_code").notNull().default(""),
    address: text("address").notNull().default(""),
    comment: text("comment").notNull().default(""),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("companies_user_id_idx").on(t.userId)],
);

export type Company = typeof companies.$inferSelect;

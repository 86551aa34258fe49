import { bigserial, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { bytea, ts } from "./columns.js";
import { users } from "./users.js";

export const reportFileStatuses = ["pending", "ready", "failed"] as const;
export type ReportFileStatus = (typeof reportFileStatuses)[number];

/**
 * A generated report, kept for its download link: in the database, so whichever api instance
 * answers the link has it. The link carries a random token of which only the SHA-256 is
 * stored. A report made in the background is `pending` until its bytes are written.
 */
export const reportFiles = pgTable(
  "report_files",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** The download's file name, extension included. */
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    status: text("status", { enum: reportFileStatuses }).notNull().default("pending"),
    body: bytea("body"),
    /** Why it failed; never a secret. */
    error: text("error"),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("report_files_user_id_idx").on(t.userId), index("report_files_expires_at_idx").on(t.expiresAt)],
);

export type ReportFile = typeof reportFiles.$inferSelect;

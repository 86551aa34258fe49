import { bigserial, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { reports } from "./reports.js";
import { users } from "./users.js";

export const reportJobKinds = ["daily", "weekly"] as const;
export type ReportJobKind = (typeof reportJobKinds)[number];

export const reportJobStatuses = ["pending", "done", "failed"] as const;
export type ReportJobStatus = (typeof reportJobStatuses)[number];

/**
 * A scheduled report's email for one period: written once per report, kind and period by
 * whichever api instance sees it due first (the unique key), taken by one instance at a time
 * (FOR UPDATE SKIP LOCKED and a lease), and marked done once mailed. An instance that dies
 * holding one leaves it to the next once the lease ends, so a restart neither skips nor
 * repeats a run.
 */
export const reportJobs = pgTable(
  "report_jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: reportJobKinds }).notNull(),
    /** The period the email reports on: from inclusive, to exclusive. */
    periodFrom: ts("period_from").notNull(),
    periodTo: ts("period_to").notNull(),
    status: text("status", { enum: reportJobStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Until when an instance holds it, or when a failed attempt may be tried again. */
    leaseUntil: ts("lease_until"),
    /** Why the last attempt failed; never a secret. */
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("report_jobs_run_unique").on(t.reportId, t.kind, t.periodFrom), index("report_jobs_due_idx").on(t.status, t.leaseUntil)],
);

export type ReportJob = typeof reportJobs.$inferSelect;

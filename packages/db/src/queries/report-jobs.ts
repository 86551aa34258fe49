import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Queryable } from "../client.js";
import { reportJobs, type ReportJob, type ReportJobKind } from "../schema/report-jobs.js";
import { reports, type Report } from "../schema/reports.js";
import { users, type User } from "../schema/users.js";

/** Every report definition emailed daily or weekly, with its owner. */
export async function listScheduledReports(db: Queryable): Promise<{ report: Report; user: User }[]> {
  return db
    .select({ report: reports, user: users })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.userId))
    .where(or(eq(reports.daily, true), eq(reports.weekly, true)));
}

export interface ReportRun {
  reportId: number;
  userId: number;
  kind: ReportJobKind;
  periodFrom: Date;
  periodTo: Date;
}

/** Writes the runs not written yet (one per report, kind and period, whoever writes it first); how many were new. */
export async function enqueueReportJobs(db: Queryable, runs: readonly ReportRun[]): Promise<number> {
  if (runs.length === 0) return 0;
  const added = await db.insert(reportJobs).values([...runs]).onConflictDoNothing().returning({ id: reportJobs.id });
  return added.length;
}

/** Takes up to `limit` due runs for `leaseMs`: pending ones no other instance holds (skipped while locked). */
export async function claimReportJobs(db: Queryable, opts: { limit: number; leaseMs: number; now?: Date }): Promise<ReportJob[]> {
  const now = opts.now ?? new Date();
  const due = db
    .select({ id: reportJobs.id })
    .from(reportJobs)
    .where(and(eq(reportJobs.status, "pending"), or(isNull(reportJobs.leaseUntil), lte(reportJobs.leaseUntil, now))))
    .orderBy(reportJobs.id)
    .limit(opts.limit)
    .for("update", { skipLocked: true });
  return db
    .update(reportJobs)
    .set({ leaseUntil: new Date(now.getTime() + opts.leaseMs), attempts: sql`${reportJobs.attempts} + 1`, updatedAt: now })
    .where(inArray(reportJobs.id, due))
    .returning();
}

/** How a run ended: mailed (or nothing left to mail), failed for good, or due again at `retryAt`. */
export type ReportJobOutcome = { status: "done" } | { status: "failed"; error: string } | { status: "pending"; error: string; retryAt: Date };

/** Records how a run ended; a run mailed also stamps its report's `daily_email_sent` / `weekly_email_sent`. */
export async function finishReportJob(db: Queryable, job: Pick<ReportJob, "id" | "reportId" | "kind">, outcome: ReportJobOutcome, now = new Date()): Promise<void> {
  await db
    .update(reportJobs)
    .set(
      outcome.status === "done"
        ? { status: "done", lastError: null, updatedAt: now }
        : outcome.status === "failed"
          ? { status: "failed", lastError: outcome.error, updatedAt: now }
          : { status: "pending", lastError: outcome.error, leaseUntil: outcome.retryAt, updatedAt: now },
    )
    .where(eq(reportJobs.id, job.id));
  if (outcome.status === "done") {
    await db
      .update(reports)
      .set(job.kind === "daily" ? { dailyEmailSent: now } : { weeklyEmailSent: now })
      .where(eq(reports.id, job.reportId));
  }
}

/** Deletes runs written before `before`, however they ended; how many. */
export async function pruneReportJobs(db: Queryable, before: Date): Promise<number> {
  const gone = await db.delete(reportJobs).where(lt(reportJobs.createdAt, before)).returning({ id: reportJobs.id });
  return gone.length;
}

import type { ReportFormat } from "@fleet/contracts";
import { claimReportJobs, enqueueReportJobs, findUserById, findUserReport, finishReportJob, isUserUsable, listScheduledReports, listUserGeofences, pruneReportJobs, type Report, type ReportJob } from "@fleet/db";
import type { Mailer } from "@fleet/mail";
import { clockOf } from "../lib/clock.js";
import type { LiveRecord, LiveRecordCache } from "../lib/live-records.js";
import { mailReport } from "./report-mail.js";
import { canMake, checkReportSize, makeReport, type ReportMakingDeps } from "./report-making.js";
import { duePeriods } from "./report-periods.js";

/*
 * Scheduled reports: every tick, each api instance writes the runs now due (report-periods.ts;
 * a run is written once whoever writes it), then takes a few due runs no other instance holds,
 * makes each report for its period and mails it to the report's addresses. A run whose mail
 * fails is tried again later, a few times, then left failed; one whose report or owner is gone
 * or no longer scheduled is done with nothing sent.
 */

export interface ReportScheduleDeps extends ReportMakingDeps {
  records: LiveRecordCache;
  mailer: Pick<Mailer, "send">;
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

/** How long an instance holds a run it took: longer than making and mailing a report takes. */
const LEASE_MS = 10 * 60_000;
const RUNS_PER_TICK = 5;
const MAX_ATTEMPTS = 5;
const RETRY_MS = 5 * 60_000;
/** Runs are kept this long: past any period still offered, so none is written twice. */
const KEEP_RUNS_MS = 60 * 86_400_000;
const DAY = 86_400_000;

/** Writes the runs due now; how many were new. */
export async function planReportRuns(deps: Pick<ReportScheduleDeps, "db">, now: number): Promise<number> {
  const scheduled = await listScheduledReports(deps.db);
  const runs = scheduled
    .filter(({ user }) => isUserUsable(user, new Date(now)))
    .flatMap(({ report, user }) =>
      duePeriods(report, clockOf(user), now, user.weekStartDay).map((p) => ({ reportId: report.id, userId: user.id, kind: p.kind, periodFrom: new Date(p.fromMs), periodTo: new Date(p.toMs) })),
    );
  return enqueueReportJobs(deps.db, runs);
}

const scheduled = (r: Report, kind: ReportJob["kind"]) => (kind === "daily" ? r.daily : r.weekly);

/** Makes and mails one run's report; what the run's record says of it. */
async function run(deps: ReportScheduleDeps, job: ReportJob): Promise<"sent" | "nothing"> {
  const [report, user] = await Promise.all([findUserReport(deps.db, job.userId, job.reportId), findUserById(deps.db, job.userId)]);
  if (!report || !user || !isUserUsable(user) || !scheduled(report, job.kind) || report.email === "" || !canMake(report.type)) return "nothing";
  const [records, geofences] = await Promise.all([deps.records.of(user.id), listUserGeofences(deps.db, user.id)]);
  const devices = report.devices.map((id) => records.get(id)).filter((d): d is LiveRecord => d !== undefined);
  const format = report.format as ReportFormat;
  const range = { fromMs: job.periodFrom.getTime(), toMs: job.periodTo.getTime() - 1 };
  await checkReportSize(deps, report.type, devices, range);
  // Parameters were checked against the type's declarations when the definition was saved.
  const file = await makeReport(deps, user, { ...report, parameters: report.parameters as Record<string, number | string> }, { devices, geofences }, range, format);
  const clock = clockOf(user);
  const days = Math.round((job.periodTo.getTime() - job.periodFrom.getTime()) / DAY);
  const period = days <= 1 ? clock.format(range.fromMs).slice(0, 10) : `${clock.format(range.fromMs).slice(0, 10)} – ${clock.format(range.toMs).slice(0, 10)}`;
  await mailReport(deps.mailer, report, file, period, job.kind);
  return "sent";
}

/** One tick: writes the runs due, then makes and mails those this instance takes; how many it mailed. */
export async function runScheduledReports(deps: ReportScheduleDeps, now = Date.now()): Promise<number> {
  await planReportRuns(deps, now);
  const jobs = await claimReportJobs(deps.db, { limit: RUNS_PER_TICK, leaseMs: LEASE_MS, now: new Date(now) });
  let sent = 0;
  for (const job of jobs) {
    try {
      const outcome = await run(deps, job);
      await finishReportJob(deps.db, job, { status: "done" }, new Date(now));
      if (outcome === "sent") sent++;
      deps.logger.info({ reportId: job.reportId, kind: job.kind, outcome }, "scheduled report run");
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const last = job.attempts >= MAX_ATTEMPTS;
      deps.logger.warn({ reportId: job.reportId, kind: job.kind, attempt: job.attempts, error }, last ? "a scheduled report failed for good" : "a scheduled report failed; it will be tried again");
      await finishReportJob(deps.db, job, last ? { status: "failed", error } : { status: "pending", error, retryAt: new Date(now + RETRY_MS) }, new Date(now));
    }
  }
  await pruneReportJobs(deps.db, new Date(now - KEEP_RUNS_MS));
  return sent;
}

import { InvalidInputError, findReportType, parseRange, type GenerateReportBody, type HistoryRange, type UserClock } from "@fleet/contracts";
import { completeReportFile, createReportFile, failReportFile, listUserGeofences, type User } from "@fleet/db";
import type { Mailer } from "@fleet/mail";
import { REPORT_FILE_TYPES } from "@fleet/reports";
import { clockOf } from "../lib/clock.js";
import type { LiveRecord, LiveRecordCache } from "../lib/live-records.js";
import { mailReport, reportFileName } from "./report-mail.js";
import { canMake, checkReportSize, makeReport, type ReportMakingDeps } from "./report-making.js";
import { checkedReport } from "./reports.js";

/*
 * generate_report: a report definition and a period in, a link to the file out. The file is
 * kept in the database for its link (report_files). A report that takes longer than the
 * request may wait is finished in the background; its link answers "not ready" until then.
 */

export interface ReportGenerateDeps extends ReportMakingDeps {
  records: LiveRecordCache;
  /** Where a report asked with `send_to_email` (or `email`) is mailed once made. */
  mailer: Pick<Mailer, "send">;
  logger: { error(obj: object, msg?: string): void };
  /** How long the request waits for the file before answering with its link anyway. */
  waitMs: number;
  /** How long a link works. */
  ttlMs: number;
}

/** date_from / date_to may carry their time ("2026-01-05 08:00"), as some clients send them. */
function splitDate(value: string, time: string | undefined, whole: string): [date: string, time: string] {
  const [date, inline] = value.split(" ");
  return [date!, time ?? inline ?? whole];
}

/** The period on the user's clock; a bad one is refused naming the report's own fields. */
function period(clock: UserClock, b: GenerateReportBody): HistoryRange {
  const [fromDate, fromTime] = splitDate(b.date_from, b.from_time, "00:00:00");
  const [toDate, toTime] = splitDate(b.date_to, b.to_time, "23:59:59");
  try {
    return parseRange(clock, { from_date: fromDate, from_time: fromTime, to_date: toDate, to_time: toTime });
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    const names: Record<string, string> = { from_date: "date_from", to_date: "date_to" };
    throw new InvalidInputError(Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [names[k] ?? k, v.replace(/(from|to) date/, (_, w: string) => `date ${w}`)])));
  }
}


/** Starts making the report and answers its link: when it is ready, or after `waitMs` with the file still being made. */
export async function generateReport(deps: ReportGenerateDeps, user: User, body: GenerateReportBody, linkBase: string): Promise<{ status: 3; url: string }> {
  const definition = checkedReport(body);
  if (!canMake(definition.type)) throw new InvalidInputError({ type: `${findReportType(definition.type)!.name} reports cannot be generated yet.` });
  const range = period(clockOf(user), body);
  const [records, geofences] = await Promise.all([deps.records.of(user.id), listUserGeofences(deps.db, user.id)]);
  const devices = definition.devices.map((id) => records.get(id));
  if (devices.some((d) => d === undefined)) throw new InvalidInputError({ devices: "The selected devices are invalid." });
  // Another user's geofence is refused as a missing one is, as add_report refuses it.
  const own = new Set(geofences.map((g) => g.id));
  if (!definition.geofences.every((id) => own.has(id))) throw new InvalidInputError({ geofences: "The selected geofences are invalid." });
  await checkReportSize(deps, definition.type, devices as LiveRecord[], range);

  // The file's type is known before it is made: the link can be handed out now.
  const { contentType, extension } = REPORT_FILE_TYPES[body.format];
  const file = await createReportFile(deps.db, { userId: user.id, fileName: reportFileName(definition.title, extension), contentType, ttlMs: deps.ttlMs });
  const periodText = `${body.date_from.slice(0, 10)}${body.date_to.slice(0, 10) === body.date_from.slice(0, 10) ? "" : ` – ${body.date_to.slice(0, 10)}`}`;
  const making = makeReport(deps, user, definition, { devices: devices as LiveRecord[], geofences }, range, body.format)
    .then(async (rendered) => {
      await completeReportFile(deps.db, file.id, rendered.body);
      // The file is kept whatever becomes of the mail: a mail that fails is logged, the link still works.
      if (definition.email !== "") await mailReport(deps.mailer, definition, rendered, periodText).catch((err: unknown) => deps.logger.error({ err, reportFileId: file.id }, "a generated report could not be mailed"));
    })
    .catch(async (err: unknown) => {
      deps.logger.error({ err, reportFileId: file.id }, "a report could not be made");
      await failReportFile(deps.db, file.id, "The report could not be made.").catch(() => undefined);
    });
  await Promise.race([making, new Promise((resolve) => setTimeout(resolve, deps.waitMs).unref())]);
  return { status: 3, url: `${linkBase}/report_download?token=${file.token}` };
}

import { InvalidInputError, KM_PER_MILE, findReportType, parseRange, userClock, userUnits, type GenerateReportBody, type HistoryRange, type UserClock } from "@fleet/contracts";
import { completeReportFile, createReportFile, failReportFile, type Db, type User } from "@fleet/db";
import type { HistoryStore } from "@fleet/history";
import { REPORT_FILE_TYPES, drivesAndStops, generalInformation, renderReport, type DeviceTrack, type ReportContext, type ReportDocument, type ReportHeading } from "@fleet/reports";
import { segmentTrack } from "@fleet/trips";
import { formatDuration } from "../lib/live-item.js";
import type { LiveRecordCache } from "../lib/live-records.js";
import { localTimes } from "../lib/local-times.js";
import { checkedReport } from "./reports.js";
import { isFuelLevel, segmentOptions } from "./track-cut.js";

/*
 * generate_report: a report definition and a period in, a link to the file out. The file is
 * made from the devices' tracks as get_history cuts them, rendered in the asked format, and
 * kept in the database for its link (report_files). A report that takes longer than the
 * request may wait is finished in the background; its link answers "not ready" until then.
 */

export interface ReportGenerateDeps {
  db: Db;
  records: LiveRecordCache;
  history: Pick<HistoryStore, "queryWithFields">;
  logger: { error(obj: object, msg?: string): void };
  /** How long the request waits for the file before answering with its link anyway. */
  waitMs: number;
  /** How long a link works. */
  ttlMs: number;
}

type Builder = (heading: ReportHeading, tracks: readonly DeviceTrack[], ctx: ReportContext) => ReportDocument;
/** The types that can be made so far (docs/decisions.md, "Reports: the types made"). */
const BUILDERS: Partial<Record<number, Builder>> = { 1: generalInformation, 3: drivesAndStops };

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

/** A file name from the report's title: what a file system takes, and its extension. */
const fileName = (title: string, extension: string) => `${title.replace(/[^\p{L}\p{N} ._-]+/gu, "_").trim().slice(0, 100) || "report"}.${extension}`;

/** Starts making the report and answers its link: when it is ready, or after `waitMs` with the file still being made. */
export async function generateReport(deps: ReportGenerateDeps, user: User, body: GenerateReportBody, linkBase: string): Promise<{ status: 3; url: string }> {
  const definition = checkedReport(body);
  const type = findReportType(definition.type)!;
  const build = BUILDERS[type.type];
  if (!build) throw new InvalidInputError({ type: `${type.name} reports cannot be generated yet.` });
  const clock = userClock(user);
  const range = period(clock, body);
  const records = await deps.records.of(user.id);
  const devices = definition.devices.map((id) => records.get(id));
  if (devices.some((d) => d === undefined)) throw new InvalidInputError({ devices: "The selected devices are invalid." });

  const units = userUnits(user);
  const ctx: ReportContext = {
    units,
    time: localTimes(clock),
    duration: formatDuration,
    speedLimitKmh: definition.speedLimit === null ? null : units.distanceUnit === "mi" ? definition.speedLimit * KM_PER_MILE : definition.speedLimit,
  };
  const heading: ReportHeading = { title: definition.title, typeName: type.name, fromMs: range.fromMs, toMs: range.toMs };
  // The file's type is known before it is made: the link can be handed out now.
  const { contentType, extension } = REPORT_FILE_TYPES[body.format];
  const file = await createReportFile(deps.db, { userId: user.id, fileName: fileName(definition.title, extension), contentType, ttlMs: deps.ttlMs });

  const making = (async () => {
    const tracks: DeviceTrack[] = [];
    for (const record of devices) {
      const { device, sensors } = record!;
      // Read one device at a time: a month of a fleet's positions does not fit in memory at once.
      const rows = await deps.history.queryWithFields({ deviceId: device.id, fromMs: range.fromMs, toMs: range.toMs });
      const fuel = sensors.find(isFuelLevel);
      tracks.push({
        device: { id: device.id, name: device.name, plateNumber: device.plateNumber },
        track: segmentTrack(rows, segmentOptions(device, sensors, definition.stops * 60, rows)),
        fuelUnit: fuel ? fuel.unitOfMeasurement : null,
      });
    }
    const rendered = await renderReport(build(heading, tracks, ctx), body.format);
    await completeReportFile(deps.db, file.id, rendered.body);
  })().catch(async (err: unknown) => {
    deps.logger.error({ err, reportFileId: file.id }, "a report could not be made");
    await failReportFile(deps.db, file.id, "The report could not be made.").catch(() => undefined);
  });
  await Promise.race([making, new Promise((resolve) => setTimeout(resolve, deps.waitMs).unref())]);
  return { status: 3, url: `${linkBase}/report_download?token=${file.token}` };
}

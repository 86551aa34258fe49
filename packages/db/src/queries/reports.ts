import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../client.js";
import { devices } from "../schema/devices.js";
import { geofences } from "../schema/geofences.js";
import { reports, type Report } from "../schema/reports.js";
import { userDevices } from "../schema/user-devices.js";
import { isRowId } from "../row-id.js";

type Queryable = Db | Tx;

/** A device id of a report that does not exist, is deleted or is another user's (they look alike). */
export class UnknownReportDeviceError extends Error {
  override readonly name = "UnknownReportDeviceError";
  readonly field = "devices";
  constructor(readonly deviceIds: number[]) {
    super(`Devices ${deviceIds.join(", ")} not found`);
  }
}

/** A geofence id of a report that does not exist or is another user's (they look alike). */
export class UnknownReportGeofenceError extends Error {
  override readonly name = "UnknownReportGeofenceError";
  readonly field = "geofences";
  constructor(readonly geofenceIds: number[]) {
    super(`Geofences ${geofenceIds.join(", ")} not found`);
  }
}

/** A report definition as stored: the API has already applied the type's rules. */
export interface ReportInput {
  title: string;
  type: number;
  format: string;
  showAddresses: boolean;
  zonesInstead: boolean;
  stops: number;
  speedLimit: number | null;
  daily: boolean;
  weekly: boolean;
  email: string;
  devices: number[];
  geofences: number[];
  parameters: Record<string, number | string>;
}

/** Which of `ids` are the user's non-deleted devices. */
async function ownedDeviceIds(db: Queryable, userId: number, ids: readonly number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)].filter(isRowId);
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ id: devices.id })
    .from(userDevices)
    .innerJoin(devices, eq(devices.id, userDevices.deviceId))
    .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false), inArray(devices.id, wanted)));
  return new Set(rows.map((r) => r.id));
}

/** Which of `ids` are the user's geofences. */
async function ownedGeofenceIds(db: Queryable, userId: number, ids: readonly number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)].filter(isRowId);
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ id: geofences.id })
    .from(geofences)
    .where(and(eq(geofences.userId, userId), inArray(geofences.id, wanted)));
  return new Set(rows.map((r) => r.id));
}

/**
 * The report with only the devices and geofences the user still has: the lists are
 * jsonb, so a device destroyed or unshared since the save would otherwise linger (and an
 * edit form sent back unchanged would be refused for it).
 */
function current(r: Report, deviceIds: Set<number>, geofenceIds: Set<number>): Report {
  return { ...r, devices: r.devices.filter((id) => deviceIds.has(id)), geofences: r.geofences.filter((id) => geofenceIds.has(id)) };
}

async function withCurrentLinks(db: Queryable, userId: number, rows: Report[]): Promise<Report[]> {
  const [deviceIds, geofenceIds] = await Promise.all([ownedDeviceIds(db, userId, rows.flatMap((r) => r.devices)), ownedGeofenceIds(db, userId, rows.flatMap((r) => r.geofences))]);
  return rows.map((r) => current(r, deviceIds, geofenceIds));
}

/** One page of the user's reports by id, and how many the user has in all. */
export async function listUserReports(db: Queryable, userId: number, page: { limit: number; offset: number }): Promise<{ total: number; reports: Report[] }> {
  const [rows, [counted]] = await Promise.all([
    db.select().from(reports).where(eq(reports.userId, userId)).orderBy(asc(reports.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(reports).where(eq(reports.userId, userId)),
  ]);
  return { total: counted?.n ?? 0, reports: await withCurrentLinks(db, userId, rows) };
}

/** The user's report, or undefined when it does not exist or is another user's (callers answer both alike). */
export async function findUserReport(db: Queryable, userId: number, reportId: number): Promise<Report | undefined> {
  if (!isRowId(reportId)) return undefined;
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.id, reportId), eq(reports.userId, userId)));
  return row && (await withCurrentLinks(db, userId, [row]))[0];
}

/**
 * `input` with its id lists deduplicated (first occurrence kept).
 * @throws UnknownReportDeviceError / UnknownReportGeofenceError for an id that is not the user's.
 */
async function checkedValues(tx: Tx, userId: number, input: ReportInput): Promise<ReportInput> {
  const deviceIds = [...new Set(input.devices)];
  const geofenceIds = [...new Set(input.geofences)];
  const ownDevices = await ownedDeviceIds(tx, userId, deviceIds);
  const ownGeofences = await ownedGeofenceIds(tx, userId, geofenceIds);
  const strangeDevices = deviceIds.filter((id) => !ownDevices.has(id));
  if (strangeDevices.length > 0) throw new UnknownReportDeviceError(strangeDevices);
  const strangeGeofences = geofenceIds.filter((id) => !ownGeofences.has(id));
  if (strangeGeofences.length > 0) throw new UnknownReportGeofenceError(strangeGeofences);
  return { ...input, devices: deviceIds, geofences: geofenceIds };
}

/**
 * Inserts the user's report definition after checking its devices and geofences, in one transaction.
 * @throws UnknownReportDeviceError when a device id is not one of the user's non-deleted devices.
 * @throws UnknownReportGeofenceError when a geofence id is not one of the user's geofences.
 */
export async function createReport(db: Db, userId: number, input: ReportInput): Promise<Report> {
  return db.transaction(async (tx) => {
    const values = await checkedValues(tx, userId, input);
    const [row] = await tx
      .insert(reports)
      .values({ ...values, userId })
      .returning();
    return row!;
  });
}

/**
 * Rewrites the user's report definition (every field), in one transaction. Returns
 * undefined when the report does not exist or is another user's; that is checked first.
 * @throws UnknownReportDeviceError / UnknownReportGeofenceError as createReport.
 */
export async function updateReport(db: Db, userId: number, reportId: number, input: ReportInput): Promise<Report | undefined> {
  if (!isRowId(reportId)) return undefined;
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.id, reportId), eq(reports.userId, userId)))
      .for("update");
    if (!found) return undefined;
    const values = await checkedValues(tx, userId, input);
    const [row] = await tx.update(reports).set(values).where(eq(reports.id, reportId)).returning();
    return row;
  });
}

/** Deletes the user's report; false when it does not exist or is another user's. */
export async function destroyReport(db: Queryable, userId: number, reportId: number): Promise<boolean> {
  if (!isRowId(reportId)) return false;
  const deleted = await db
    .delete(reports)
    .where(and(eq(reports.id, reportId), eq(reports.userId, userId)))
    .returning({ id: reports.id });
  return deleted.length > 0;
}

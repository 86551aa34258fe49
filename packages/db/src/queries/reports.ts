import { and, eq, inArray } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { RefusedError } from "../errors.js";
import { ownedRows, type Page } from "../owned.js";
import { devices } from "../schema/devices.js";
import { geofences } from "../schema/geofences.js";
import { reports, type Report } from "../schema/reports.js";
import { userDevices } from "../schema/user-devices.js";
import { isRowId } from "../row-id.js";

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

/** Which of `ids` `select` finds (the user's records among them); an empty list asks nothing. */
async function idSet(ids: readonly number[], select: (wanted: number[]) => Promise<{ id: number }[]>): Promise<Set<number>> {
  const wanted = [...new Set(ids)].filter(isRowId);
  return new Set(wanted.length === 0 ? [] : (await select(wanted)).map((r) => r.id));
}

/** Which of `ids` are the user's non-deleted devices. */
const ownedDeviceIds = (db: Queryable, userId: number, ids: readonly number[]) =>
  idSet(ids, (wanted) =>
    db
      .select({ id: devices.id })
      .from(userDevices)
      .innerJoin(devices, eq(devices.id, userDevices.deviceId))
      .where(and(eq(userDevices.userId, userId), eq(devices.deleted, false), inArray(devices.id, wanted))),
  );

/** Which of `ids` are the user's geofences. */
const ownedGeofenceIds = (db: Queryable, userId: number, ids: readonly number[]) =>
  idSet(ids, (wanted) =>
    db
      .select({ id: geofences.id })
      .from(geofences)
      .where(and(eq(geofences.userId, userId), inArray(geofences.id, wanted))),
  );

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

const owned = ownedRows(reports);

/** One page of the user's reports by id, and how many the user has in all. */
export async function listUserReports(db: Queryable, userId: number, page: Page): Promise<{ total: number; reports: Report[] }> {
  const { total, rows } = await owned.page(db, userId, page);
  return { total, reports: await withCurrentLinks(db, userId, rows) };
}

/** The user's report, its lists holding only the devices and geofences the user still has; undefined when missing or another user's. */
export async function findUserReport(db: Queryable, userId: number, reportId: number): Promise<Report | undefined> {
  const row = await owned.find(db, userId, reportId);
  return row ? (await withCurrentLinks(db, userId, [row]))[0] : undefined;
}

/**
 * `input` with its id lists deduplicated (first occurrence kept).
 * @throws RefusedError `{devices: unknown}`, else `{geofences: unknown}`, for an id that is not the user's.
 */
async function checkedValues(tx: Tx, userId: number, input: ReportInput): Promise<ReportInput> {
  const deviceIds = [...new Set(input.devices)];
  const geofenceIds = [...new Set(input.geofences)];
  const ownDevices = await ownedDeviceIds(tx, userId, deviceIds);
  const ownGeofences = await ownedGeofenceIds(tx, userId, geofenceIds);
  if (!deviceIds.every((id) => ownDevices.has(id))) throw new RefusedError({ devices: { kind: "unknown", many: true } });
  if (!geofenceIds.every((id) => ownGeofences.has(id))) throw new RefusedError({ geofences: { kind: "unknown", many: true } });
  return { ...input, devices: deviceIds, geofences: geofenceIds };
}

/**
 * Inserts the user's report definition after checking its devices and geofences, in one transaction.
 * @throws RefusedError `{devices: unknown}` when a device id is not one of the user's non-deleted devices,
 *   `{geofences: unknown}` when a geofence id is not one of the user's geofences.
 */
export async function createReport(db: Db, userId: number, input: ReportInput): Promise<Report> {
  return db.transaction(async (tx) => owned.create(tx, userId, await checkedValues(tx, userId, input)));
}

/**
 * Rewrites the user's report definition (every field), in one transaction. Returns
 * undefined when the report does not exist or is another user's; that is checked first.
 * @throws RefusedError as createReport.
 */
export async function updateReport(db: Db, userId: number, reportId: number, input: ReportInput): Promise<Report | undefined> {
  if (!isRowId(reportId)) return undefined;
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ id: reports.id }).from(reports).where(owned.mine(userId, reportId)).for("update");
    if (!found) return undefined;
    return owned.update(tx, userId, reportId, await checkedValues(tx, userId, input));
  });
}

/** Deletes the user's report; false when it does not exist or is another user's. */
export const destroyReport = (db: Queryable, userId: number, reportId: number): Promise<boolean> => owned.destroy(db, userId, reportId);

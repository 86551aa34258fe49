import { and, asc, count, desc, eq, gte, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db, Queryable } from "../client.js";
import { assertNotRefused, type Refusal } from "../errors.js";
import { ownedRows, type Page } from "../owned.js";
import { taskStatuses, tasks, type Task } from "../schema/tasks.js";
import { findUserDevice } from "./devices.js";
import { isRowId } from "../row-id.js";

/** A status row as lists show it: everything but the signature's bytes. */
export interface TaskStatusEntry {
  id: number;
  taskId: number;
  status: number;
  comment: string;
  hasSignature: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A task with its status history, oldest first. */
export type TaskWithStatuses = Task & { statuses: TaskStatusEntry[] };

/** The writable fields of a task; time windows as instants. */
export type TaskFields = Omit<Task, "id" | "userId" | "createdAt" | "updatedAt">;

export interface TaskSignature {
  bytes: Buffer;
  contentType: string;
}

/** What a status change records besides the status: the row's comment and signature. */
export interface StatusNote {
  comment?: string;
  signature?: TaskSignature;
}

export interface TaskFilter {
  deviceId?: number;
  status?: number;
  /** Tasks whose pickup or delivery window overlaps [from, to]; either end may be open. */
  from?: Date;
  to?: Date;
  /** Part of the invoice number, compared without case. */
  invoiceNumber?: string;
}

const statusColumns = {
  id: taskStatuses.id,
  taskId: taskStatuses.taskId,
  status: taskStatuses.status,
  comment: taskStatuses.comment,
  hasSignature: sql<boolean>`${taskStatuses.signature} is not null`.mapWith(Boolean),
  createdAt: taskStatuses.createdAt,
  updatedAt: taskStatuses.updatedAt,
};

async function withStatuses(db: Queryable, rows: Task[]): Promise<TaskWithStatuses[]> {
  if (rows.length === 0) return [];
  const statuses = await db
    .select(statusColumns)
    .from(taskStatuses)
    .where(inArray(taskStatuses.taskId, rows.map((t) => t.id)))
    .orderBy(asc(taskStatuses.id));
  return rows.map((t) => ({ ...t, statuses: statuses.filter((s) => s.taskId === t.id) }));
}

function overlaps(from: typeof tasks.pickupTimeFrom, to: typeof tasks.pickupTimeTo, f: TaskFilter): SQL | undefined {
  return and(f.to === undefined ? undefined : lte(from, f.to), f.from === undefined ? undefined : gte(to, f.from));
}

function filterWhere(userId: number, f: TaskFilter): SQL | undefined {
  const needle = f.invoiceNumber ?? "";
  const timed = f.from !== undefined || f.to !== undefined;
  return and(
    eq(tasks.userId, userId),
    f.deviceId === undefined ? undefined : isRowId(f.deviceId) ? eq(tasks.deviceId, f.deviceId) : sql`false`,
    f.status === undefined ? undefined : eq(tasks.status, f.status),
    timed ? or(overlaps(tasks.pickupTimeFrom, tasks.pickupTimeTo, f), overlaps(tasks.deliveryTimeFrom, tasks.deliveryTimeTo, f)) : undefined,
    // strpos, not LIKE: the needle's % and _ are text, not wildcards.
    needle === "" ? undefined : sql`strpos(lower(${tasks.invoiceNumber}), lower(${needle})) > 0`,
  );
}

const owned = ownedRows(tasks);

/** One page of the user's tasks matching `filter`, newest first, and how many match in all. */
export async function listUserTasks(db: Queryable, userId: number, filter: TaskFilter, page: Page): Promise<{ total: number; tasks: TaskWithStatuses[] }> {
  const where = filterWhere(userId, filter);
  const [rows, [counted]] = await Promise.all([
    db.select().from(tasks).where(where).orderBy(desc(tasks.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(tasks).where(where),
  ]);
  return { total: counted?.n ?? 0, tasks: await withStatuses(db, rows) };
}

/** The user's task with its history, or undefined when it does not exist or is another user's (callers answer both alike). */
export async function findUserTask(db: Queryable, userId: number, taskId: number): Promise<TaskWithStatuses | undefined> {
  const row = await owned.find(db, userId, taskId);
  return row ? (await withStatuses(db, [row]))[0] : undefined;
}

type Refusals = Partial<Record<keyof TaskFields | "signature" | "statusComment", Refusal>>;

/**
 * Why a task as it would be stored is refused, by field: `deviceId` not one of the user's
 * devices (missing, deleted and another user's look alike; `checkDevice` false skips it),
 * a `*TimeTo` before its window's start (checked on the whole row, so an edit of one end is
 * checked against the other).
 */
async function refusals(db: Queryable, userId: number, t: TaskFields, checkDevice = true): Promise<Refusals> {
  const out: Refusals = {};
  if (checkDevice && !(await findUserDevice(db, userId, t.deviceId))) out.deviceId = { kind: "unknown" };
  if (t.pickupTimeFrom.getTime() > t.pickupTimeTo.getTime()) out.pickupTimeTo = { kind: "inverted" };
  if (t.deliveryTimeFrom.getTime() > t.deliveryTimeTo.getTime()) out.deliveryTimeTo = { kind: "inverted" };
  return out;
}

/**
 * Inserts the task and its first status row (comment "") in one transaction.
 * @throws RefusedError for a device that is not the user's or an inverted window.
 */
export async function createTask(db: Db, userId: number, fields: TaskFields): Promise<TaskWithStatuses> {
  return db.transaction(async (tx) => {
    assertNotRefused(await refusals(tx, userId, fields));
    const task = await owned.create(tx, userId, fields);
    await tx.insert(taskStatuses).values({ taskId: task.id, status: fields.status });
    return (await withStatuses(tx, [task]))[0]!;
  });
}

function differs(current: Task, patch: Partial<TaskFields>): boolean {
  return Object.entries(patch).some(([key, value]) => {
    const stored = current[key as keyof TaskFields];
    return value instanceof Date && stored instanceof Date ? value.getTime() !== stored.getTime() : value !== stored;
  });
}

/**
 * Applies `patch` to the user's task; absent fields keep their values. A status that
 * differs from the stored one appends a status row carrying `note`; other edits write no
 * history. One transaction, the task row locked, so concurrent edits cannot together
 * leave a window inverted or interleave the history. Undefined when the task does not
 * exist or is another user's.
 * @throws RefusedError for a new device that is not the user's, an inverted window, or a
 *   `signature` / `statusComment` note with no change of status to take it.
 */
export async function updateTask(db: Db, userId: number, taskId: number, patch: Partial<TaskFields>, note: StatusNote = {}): Promise<TaskWithStatuses | undefined> {
  if (!isRowId(taskId)) return undefined;
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(tasks).where(owned.mine(userId, taskId)).for("update");
    if (!current) return undefined;
    const merged = { ...current, ...patch };
    const statusChanged = merged.status !== current.status;
    // A device kept as it is is not checked again: the task may outlive its device's sharing.
    const refused = await refusals(tx, userId, merged, merged.deviceId !== current.deviceId);
    if (!statusChanged && note.signature) refused.signature = { kind: "unexpected" };
    if (!statusChanged && note.comment !== undefined) refused.statusComment = { kind: "unexpected" };
    assertNotRefused(refused);
    // A form sent back unchanged is no edit: updated_at moves only when a value does.
    if (!differs(current, patch)) return (await withStatuses(tx, [current]))[0]!;
    const [task] = await tx
      .update(tasks)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(eq(tasks.id, taskId))
      .returning();
    if (statusChanged) {
      await tx.insert(taskStatuses).values({
        taskId,
        status: merged.status,
        comment: note.comment ?? "",
        signature: note.signature?.bytes ?? null,
        signatureType: note.signature?.contentType ?? null,
      });
    }
    return (await withStatuses(tx, [task!]))[0]!;
  });
}

/** Deletes the user's task and (by the foreign key) its history. False when it does not exist or is another user's. */
export const destroyTask = (db: Queryable, userId: number, taskId: number): Promise<boolean> => owned.destroy(db, userId, taskId);

/** The signature of a status row of one of the user's tasks, or undefined when there is none (or the row is another user's). */
export async function findTaskSignature(db: Queryable, userId: number, statusId: number): Promise<TaskSignature | undefined> {
  if (!isRowId(statusId)) return undefined;
  const [row] = await db
    .select({ bytes: taskStatuses.signature, contentType: taskStatuses.signatureType })
    .from(taskStatuses)
    .innerJoin(tasks, eq(tasks.id, taskStatuses.taskId))
    .where(and(eq(taskStatuses.id, statusId), eq(tasks.userId, userId)));
  if (!row?.bytes || !row.contentType) return undefined;
  return { bytes: row.bytes, contentType: row.contentType };
}

import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../client.js";
import { assertNotRefused, type Refusal } from "../errors.js";
import type { Page } from "../owned.js";
import { isRowId } from "../row-id.js";
import { alerts } from "../schema/alerts.js";
import type { CallResponseTypeName } from "@fleet/contracts";
import { callActions, type CallAction } from "../schema/call-actions.js";
import { devices } from "../schema/devices.js";
import { events } from "../schema/events.js";
import { userDevices } from "../schema/user-devices.js";
import { findUserDevice } from "./devices.js";

/** A call action's writable fields, already checked for shape; on update, undefined keeps the stored value. */
export interface CallActionInput {
  deviceId: number;
  /** Null: about no event. */
  eventId: number | null;
  /** Null: about no alert; left undefined with an event, the event's alert. */
  alertId?: number | null;
  calledAt: Date;
  responseType: CallResponseTypeName;
  remarks: string;
}

/**
 * The user's call actions about devices the user still has: one whose device left the
 * account is gone with it, for the user, like the device's other records.
 */
function visible(userId: number, where?: SQL) {
  const stillTheirs = sql`EXISTS (SELECT 1 FROM ${userDevices} JOIN ${devices} ON ${devices.id} = ${userDevices.deviceId}
    WHERE ${userDevices.deviceId} = ${callActions.deviceId} AND ${userDevices.userId} = ${callActions.userId} AND NOT ${devices.deleted})`;
  return and(eq(callActions.userId, userId), stillTheirs, where);
}

/** One page of the user's call actions, latest call first, optionally of one device; and how many match. */
export async function pageCallActions(db: Queryable, userId: number, page: Page, deviceId?: number): Promise<{ total: number; rows: CallAction[] }> {
  // A device id no row can have matches nothing (and must not reach an int4 comparison).
  if (deviceId !== undefined && !isRowId(deviceId)) return { total: 0, rows: [] };
  const where = visible(userId, deviceId === undefined ? undefined : eq(callActions.deviceId, deviceId));
  const [rows, [counted]] = await Promise.all([
    db.select().from(callActions).where(where).orderBy(desc(callActions.calledAt), desc(callActions.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(callActions).where(where),
  ]);
  return { total: counted?.n ?? 0, rows };
}

/** The user's call action, or undefined when it does not exist, is another user's or its device left the account. */
export async function findCallAction(db: Queryable, userId: number, id: number): Promise<CallAction | undefined> {
  if (!isRowId(id)) return undefined;
  const [row] = await db.select().from(callActions).where(visible(userId, eq(callActions.id, id)));
  return row;
}

/**
 * The row as it will be stored, its references checked: the device the user's, the event
 * the user's and about that device, the alert the user's. An event without an alert named
 * brings its own alert.
 * @throws RefusedError naming each reference that is not the user's; nothing is written.
 */
async function checked(tx: Tx, userId: number, input: CallActionInput): Promise<Omit<CallActionInput, "alertId"> & { alertId: number | null }> {
  const refusals: Record<string, Refusal> = {};
  if (!(await findUserDevice(tx, userId, input.deviceId))) refusals.deviceId = { kind: "unknown" };
  let alertId = input.alertId;
  if (input.eventId !== null) {
    // Events have 64-bit ids.
    const [event] = Number.isSafeInteger(input.eventId) && input.eventId > 0
      ? await tx
          .select({ deviceId: events.deviceId, alertId: events.alertId })
          .from(events)
          .where(and(eq(events.id, input.eventId), eq(events.userId, userId)))
      : [];
    if (!event || event.deviceId !== input.deviceId) refusals.eventId = { kind: "unknown" };
    else if (alertId === undefined) alertId = event.alertId;
  }
  if (alertId !== undefined && alertId !== null) {
    const [alert] = isRowId(alertId) ? await tx.select({ id: alerts.id }).from(alerts).where(and(eq(alerts.id, alertId), eq(alerts.userId, userId))) : [];
    if (!alert) refusals.alertId = { kind: "unknown" };
  }
  assertNotRefused(refusals);
  return { ...input, alertId: alertId ?? null };
}

/** @throws RefusedError (deviceId, eventId, alertId: unknown); nothing is written. */
export async function createCallAction(db: Db, userId: number, input: CallActionInput): Promise<CallAction> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(callActions)
      .values({ ...(await checked(tx, userId, input)), userId })
      .returning();
    return row!;
  });
}

/**
 * Sets the given fields of the user's call action, the result checked whole (a new device
 * must still be the event's). Undefined when it does not exist or is not the user's to see.
 * @throws RefusedError (deviceId, eventId, alertId: unknown); nothing is written.
 */
export async function updateCallAction(db: Db, userId: number, id: number, patch: Partial<CallActionInput>): Promise<CallAction | undefined> {
  if (!isRowId(id)) return undefined;
  return db.transaction(async (tx) => {
    const current = await findCallAction(tx, userId, id);
    if (!current) return undefined;
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<CallActionInput>;
    // A new event without an alert named brings its own; otherwise the stored alert stays.
    const keepAlert = defined.alertId === undefined && defined.eventId === undefined;
    const { deviceId, eventId, calledAt, responseType, remarks } = current;
    const merged: CallActionInput = { deviceId, eventId, calledAt, responseType, remarks, ...defined, alertId: keepAlert ? current.alertId : defined.alertId };
    const [row] = await tx
      .update(callActions)
      .set(await checked(tx, userId, merged))
      .where(eq(callActions.id, id))
      .returning();
    return row;
  });
}

/** Deletes the user's call action; false when it does not exist or is not the user's to see. */
export async function destroyCallAction(db: Db, userId: number, id: number): Promise<boolean> {
  if (!isRowId(id)) return false;
  return db.transaction(async (tx) => {
    if (!(await findCallAction(tx, userId, id))) return false;
    await tx.delete(callActions).where(eq(callActions.id, id));
    return true;
  });
}

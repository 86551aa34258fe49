import { and, asc, count, eq } from "drizzle-orm";
import type { Db, Queryable } from "../client.js";
import type { Page } from "../owned.js";
import { isRowId } from "../row-id.js";
import { alertDevices, alerts } from "../schema/alerts.js";
import { userHasDevice } from "./user-has-device.js";

/*
 * One device's side of its alerts: the user's alerts that watch it, and the period in which
 * each applies to it. Only the user's alerts, and only on a device the user has (not deleted):
 * another user's device or alert reads as a missing one.
 */

/** When an alert applies to one device: from `activeFrom` (inclusive) until `activeTo` (exclusive); null is no bound. */
export interface AlertPeriod {
  activeFrom: Date | null;
  activeTo: Date | null;
}

/** One of the user's alerts watching a device, with its period there. */
export interface DeviceAlert extends AlertPeriod {
  id: number;
  name: string;
  active: boolean;
}

/**
 * A page of the user's alerts watching the device, by alert id, and how many there are in
 * all; undefined when the device is not one the user has.
 */
export async function pageDeviceAlerts(db: Queryable, userId: number, deviceId: number, page: Page): Promise<{ total: number; rows: DeviceAlert[] } | undefined> {
  if (!(await userHasDevice(db, userId, deviceId))) return undefined;
  const these = and(eq(alertDevices.deviceId, deviceId), eq(alerts.userId, userId));
  const [rows, [counted]] = await Promise.all([
    db
      .select({ id: alerts.id, name: alerts.name, active: alerts.active, activeFrom: alertDevices.activeFrom, activeTo: alertDevices.activeTo })
      .from(alertDevices)
      .innerJoin(alerts, eq(alerts.id, alertDevices.alertId))
      .where(these)
      .orderBy(asc(alerts.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(alertDevices).innerJoin(alerts, eq(alerts.id, alertDevices.alertId)).where(these),
  ]);
  return { total: counted?.n ?? 0, rows };
}

/** What setAlertDevicePeriod found missing, if anything. */
export type AlertPeriodWrite = "set" | "no-device" | "no-alert";

/**
 * Sets the period in which the user's alert applies to one device it watches, in one
 * transaction with the alert locked (as every alert write takes it). "no-device" when the
 * device is not one the user has, "no-alert" when the alert is not the user's or does not
 * watch the device; nothing is written then. A changed period moves the alert's updated_at;
 * the same period again changes nothing.
 */
export async function setAlertDevicePeriod(db: Db, userId: number, deviceId: number, alertId: number, period: AlertPeriod): Promise<AlertPeriodWrite> {
  return db.transaction(async (tx) => {
    if (!(await userHasDevice(tx, userId, deviceId))) return "no-device";
    if (!isRowId(alertId)) return "no-alert";
    const [alert] = await tx
      .select({ id: alerts.id })
      .from(alerts)
      .where(and(eq(alerts.id, alertId), eq(alerts.userId, userId)))
      .for("update");
    if (!alert) return "no-alert";
    const row = and(eq(alertDevices.alertId, alertId), eq(alertDevices.deviceId, deviceId));
    const [stored] = await tx.select({ activeFrom: alertDevices.activeFrom, activeTo: alertDevices.activeTo }).from(alertDevices).where(row);
    if (!stored) return "no-alert";
    const same = (a: Date | null, b: Date | null) => (a === null ? b === null : b !== null && a.getTime() === b.getTime());
    if (same(stored.activeFrom, period.activeFrom) && same(stored.activeTo, period.activeTo)) return "set";
    await tx.update(alertDevices).set({ activeFrom: period.activeFrom, activeTo: period.activeTo }).where(row);
    await tx.update(alerts).set({ updatedAt: new Date() }).where(eq(alerts.id, alertId));
    return "set";
  });
}

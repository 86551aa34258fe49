import { DEVICE_ALERTS_PER_PAGE, NotFoundError, type AlertTimePeriodBody, type DeviceAlert, type DeviceAlertsQuery } from "@fleet/contracts";
import { pageDeviceAlerts, setAlertDevicePeriod, type Db, type User } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { pageRequest, pageWindow, paginateCompact } from "../lib/pagination.js";
import { readPeriod } from "../lib/user-dates.js";

/*
 * One device's alerts: the user's alerts that watch it, and the period in which each applies
 * to it. The period is stored as instants, `active_to` exclusive; the user reads and types
 * both ends on the account's clock, date_to as the last second that still counts.
 */

const SECOND = 1000;

/** GET devices/{device_id}/alerts: a page of the alerts watching the device, by id. */
export async function list(db: Db, user: User, deviceId: number, query: DeviceAlertsQuery, url: string) {
  const page = pageRequest(query, DEVICE_ALERTS_PER_PAGE);
  const found = await pageDeviceAlerts(db, user.id, deviceId, pageWindow(page));
  if (!found) throw new NotFoundError("Device");
  const clock = clockOf(user);
  const data = found.rows.map(
    (a): DeviceAlert => ({
      id: a.id,
      title: a.name,
      name: a.name,
      active: a.active,
      date_from: a.activeFrom === null ? null : clock.format(a.activeFrom.getTime()),
      date_to: a.activeTo === null ? null : clock.format(a.activeTo.getTime() - SECOND),
    }),
  );
  return paginateCompact({ url }, page, found.total, data);
}

/**
 * POST devices/{device_id}/alerts/{alert_id}/time_period: replaces the alert's period on the
 * device (a bound left out is none). The alert must watch the device; otherwise, as for a
 * device or alert that is not the user's, the answer is a 404 and nothing is written.
 */
export async function setPeriod(db: Db, user: User, deviceId: number, alertId: number, body: AlertTimePeriodBody): Promise<void> {
  const { fromMs, toMs } = readPeriod(clockOf(user), body);
  const at = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));
  const result = await setAlertDevicePeriod(db, user.id, deviceId, alertId, { activeFrom: at(fromMs), activeTo: at(toMs) });
  if (result === "no-device") throw new NotFoundError("Device");
  if (result === "no-alert") throw new NotFoundError("Alert");
}

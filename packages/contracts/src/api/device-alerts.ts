import { Type, type Static } from "@sinclair/typebox";
import { UserDateSchema } from "./events.js";
import { PageQuery, PaginationCompactSchema } from "./pagination.js";

/*
 * One device's alerts (GET devices/{device_id}/alerts) and the period in which an alert
 * applies to it (POST devices/{device_id}/alerts/{alert_id}/time_period), as the vendor's
 * Swagger shapes them.
 */

const RecordId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** The page size of a device's alerts unless the request gives one (the vendor's example shows 15). */
export const DEVICE_ALERTS_PER_PAGE = 15;

export const DeviceAlertsParamsSchema = Type.Object({ device_id: RecordId });
export const DeviceAlertParamsSchema = Type.Object({ device_id: RecordId, alert_id: RecordId });

export const DeviceAlertsQuerySchema = Type.Object(PageQuery);
export type DeviceAlertsQuery = Static<typeof DeviceAlertsQuerySchema>;

const PeriodEnd = (what: string) => Type.Union([Type.Null(), Type.String({ description: `${what}, YYYY-MM-DD HH:MM:SS in the user's timezone` })]);

/** An alert watching the device: `title` as the Swagger's schema names it, `name` as its example does. */
export const DeviceAlertSchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  name: Type.String(),
  active: Type.Boolean({ description: "the alert is switched on" }),
  date_from: PeriodEnd("the first second the alert applies to the device; null: from always"),
  date_to: PeriodEnd("the last second it applies; null: for good"),
});
export type DeviceAlert = Static<typeof DeviceAlertSchema>;

export const DeviceAlertsResponseSchema = Type.Object({ data: Type.Array(DeviceAlertSchema), pagination: PaginationCompactSchema });

const PeriodInput = (what: string) =>
  Type.Optional(Type.Union([Type.Null(), UserDateSchema], { description: `${what}; left out, null or empty: no bound. A date alone is the whole day.` }));

/** The period replaces the stored one, as the vendor's does: a field left out is no bound. */
export const AlertTimePeriodBodySchema = Type.Object({
  date_from: PeriodInput("when the alert starts to apply to the device"),
  date_to: PeriodInput("when it stops applying (inclusive)"),
});
export type AlertTimePeriodBody = Static<typeof AlertTimePeriodBodySchema>;

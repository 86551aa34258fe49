import {
  FailureError, InvalidInputError, assertNoErrors, isTruthy,
  accountTimezones, authenticationOptions, dstTypeOptions, encodingOptions, monthOptions, requestMethodOptions, weekPosOptions, weekdayOptions,
  unitOfAltitudeOptions, unitOfCapacityOptions, unitOfDistanceOptions,
  dstCountries, dstCountryIds, monthIds, weekPosIds, weekdayIds,
  type AccountRecord, type ChangePasswordBody, type EditSetupBody, type EditSetupDataResponse,
  type UserClock,
} from "@fleet/contracts";
import { changePassword, listDeviceGroups, saveAccountSetup, type AccountSettingsInput, type Db, type DeviceGroup, type DeviceGroupInput, type DstSettings, type User } from "@fleet/db";
import { gatewayUrlProblem } from "@fleet/outbound";
import { clockOf } from "../lib/clock.js";
import { UNAUTHENTICATED } from "../plugins/app/auth.js";

/*
 * The account's own settings (edit_setup_data, edit_setup, change_password): units,
 * timezone, SMS gateway, DST rule, the complete list of device groups, the password.
 */

type Errors = Record<string, string>;

const MASK = "********";
const ZERO_DATE = "0000-00-00 00:00:00";
// Every map layer the clients know (ids 1 to 9) is available to every account.
const AVAILABLE_MAPS = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [String(i + 1), i + 1]));

const dateOrZero = (d: Date | null, clock: UserClock) => (d ? clock.format(d.getTime()) : ZERO_DATE);

function accountRecord(user: User, groups: DeviceGroup[]): AccountRecord {
  const clock = clockOf(user);
  const p = user.smsGatewayParams;
  return {
    id: user.id,
    active: user.active ? 1 : 0,
    group_id: user.groupId,
    manager_id: null,
    billing_plan_id: null,
    map_id: user.mapId,
    devices_limit: null,
    email: user.email,
    password: MASK,
    subscription_expiration: dateOrZero(user.expirationDate, clock),
    loged_at: dateOrZero(user.logedAt, clock),
    api_hash: MASK,
    available_maps: AVAILABLE_MAPS,
    sms_gateway_app_date: ZERO_DATE,
    sms_gateway_params: { request_method: p.request_method, authentication: String(p.authentication), username: p.username, password: null, encoding: p.encoding === "json" ? "json" : null },
    // Which groups the client shows expanded is not stored: all of them are.
    open_geofence_groups: JSON.stringify(["0"]),
    open_device_groups: JSON.stringify(["0", ...groups.map((g) => String(g.id))]),
    created_at: clock.format(user.createdAt.getTime()),
    updated_at: clock.format(user.updatedAt.getTime()),
    unit_of_altitude: user.unitOfAltitude,
    lang: user.lang,
    unit_of_distance: user.unitOfDistance,
    unit_of_capacity: user.unitOfCapacity,
    timezone_id: String(user.timezoneId),
    sms_gateway: user.smsGateway ? "1" : "0",
    sms_gateway_url: user.smsGatewayUrl,
    week_start_day: user.weekStartDay,
  };
}

function groupInputs(b: EditSetupBody, errors: Errors): DeviceGroupInput[] {
  const seen = new Set<number>();
  return b.groups.map((g, i) => {
    const id = g.id === "" || g.id === undefined ? 0 : g.id;
    if (id !== 0 && seen.has(id)) errors[`groups.${i}.id`] = `The groups.${i}.id field has a duplicate value.`;
    seen.add(id);
    return { id, title: g.title.trim() };
  });
}

/** 1-based position of an option given by position or by id. */
const position = (ids: readonly string[], v: number | string): number => (typeof v === "number" ? v : ids.indexOf(v) + 1);

/**
 * Epoch ms of a DST boundary, or undefined for a day that does not exist (`2025-02-30`,
 * which Date would roll over). Without an offset it is the account's wall clock, compared as UTC.
 */
function wallClockMs(s: string): number | undefined {
  const hasOffset = /(z|[+-]\d{2}:?\d{2})$/i.test(s);
  const ms = Date.parse(hasOffset ? s : `${s.replace(" ", "T")}Z`);
  if (Number.isNaN(ms)) return undefined;
  if (!hasOffset && new Date(ms).toISOString().slice(0, 10) !== s.slice(0, 10)) return undefined;
  return ms;
}

function requireFor(b: EditSetupBody, type: string, fields: (keyof EditSetupBody)[], errors: Errors): void {
  for (const f of fields) if (b[f] === undefined) errors[f] = `The ${f.replaceAll("_", " ")} field is required when dst type is ${type}.`;
}

function exactRule(b: EditSetupBody, errors: Errors): DstSettings | undefined {
  requireFor(b, "exact", ["date_from", "date_to"], errors);
  if (b.date_from === undefined || b.date_to === undefined) return undefined;
  const [from, to] = [wallClockMs(b.date_from), wallClockMs(b.date_to)];
  if (from === undefined) errors.date_from = "The date from is not a valid date.";
  if (to === undefined) errors.date_to = "The date to is not a valid date.";
  else if (from !== undefined && to <= from) errors.date_to = "The date to must be a date after date from.";
  return { type: "exact", date_from: b.date_from, date_to: b.date_to };
}

function otherRule(b: EditSetupBody, errors: Errors): DstSettings | undefined {
  requireFor(b, "other", ["month_from", "week_pos_from", "week_day_from", "time_from", "month_to", "week_pos_to", "week_day_to", "time_to"], errors);
  const { month_from, week_pos_from, week_day_from, time_from, month_to, week_pos_to, week_day_to, time_to } = b;
  if (month_from === undefined || week_pos_from === undefined || week_day_from === undefined || time_from === undefined) return undefined;
  if (month_to === undefined || week_pos_to === undefined || week_day_to === undefined || time_to === undefined) return undefined;
  return {
    type: "other",
    month_from: position(monthIds, month_from),
    week_pos_from: position(weekPosIds, week_pos_from),
    week_day_from: position(weekdayIds, week_day_from),
    time_from,
    month_to: position(monthIds, month_to),
    week_pos_to: position(weekPosIds, week_pos_to),
    week_day_to: position(weekdayIds, week_day_to),
    time_to,
  };
}

function automaticRule(b: EditSetupBody, errors: Errors): DstSettings | undefined {
  requireFor(b, "automatic", ["dst_country_id"], errors);
  if (b.dst_country_id === undefined) return undefined;
  if (!dstCountryIds.has(b.dst_country_id)) errors.dst_country_id = "The selected dst country id is invalid.";
  return { type: "automatic", dst_country_id: b.dst_country_id };
}

/** The DST rule to store: undefined keeps the stored one (no dst_type sent), null clears it. */
function dstRule(b: EditSetupBody, errors: Errors): DstSettings | null | undefined {
  switch (b.dst_type) {
    case undefined:
      return undefined;
    case "none":
      return null;
    case "exact":
      return exactRule(b, errors);
    case "other":
      return otherRule(b, errors);
    case "automatic":
      return automaticRule(b, errors);
  }
}

/** Optional strings: undefined keeps the stored value; the secrets also keep it when sent empty (forms never echo them). */
function smsParams(b: EditSetupBody): NonNullable<AccountSettingsInput["smsGatewayParams"]> {
  const secret = (v: string | undefined) => (v === "" ? undefined : v);
  return {
    request_method: b.request_method,
    encoding: b.encoding === undefined ? undefined : b.encoding === "json" ? "json" : "0",
    authentication: b.authentication,
    username: b.username,
    password: secret(b.password),
    auth_id: b.auth_id,
    auth_token: secret(b.auth_token),
    senders_phone: b.senders_phone,
  };
}

/** What sending would refuse in the URL saved (its format past the schema's pattern is sending's to judge). */
function urlProblem(url: string): string | undefined {
  try {
    return gatewayUrlProblem(new URL(url));
  } catch {
    return undefined;
  }
}

function settingsFrom(b: EditSetupBody, user: User, errors: Errors): AccountSettingsInput {
  const smsGateway = isTruthy(b.sms_gateway) ?? false;
  const method = b.request_method ?? user.smsGatewayParams.request_method;
  const url = b.sms_gateway_url ?? user.smsGatewayUrl;
  // The app method pushes SMS through the phone app; the HTTP methods need somewhere to call.
  if (smsGateway && method !== "app" && url === "") errors.sms_gateway_url = "The sms gateway url field is required when sms gateway is enabled.";
  // Refused when saved, as sending refuses it, rather than stored and echoed back by edit_setup_data with its password.
  else {
    const problem = b.sms_gateway_url === undefined || b.sms_gateway_url === "" ? undefined : urlProblem(b.sms_gateway_url);
    if (problem !== undefined) errors.sms_gateway_url = problem;
  }
  return {
    unitOfDistance: b.unit_of_distance,
    unitOfCapacity: b.unit_of_capacity,
    unitOfAltitude: b.unit_of_altitude,
    timezoneId: b.timezone_id,
    smsGateway,
    smsGatewayUrl: b.sms_gateway_url,
    smsGatewayParams: smsParams(b),
    dst: dstRule(b, errors),
    weekStartDay: b.week_start_day,
  };
}

/** The account's settings and the option lists to edit them. */
export async function editData(db: Db, user: User): Promise<EditSetupDataResponse> {
  const groups = await listDeviceGroups(db, user.id);
  return {
    item: accountRecord(user, groups),
    timezones: accountTimezones,
    units_of_distance: unitOfDistanceOptions,
    units_of_capacity: unitOfCapacityOptions,
    units_of_altitude: unitOfAltitudeOptions,
    request_method_select: requestMethodOptions,
    authentication_select: authenticationOptions,
    encoding_select: encodingOptions,
    dst_types: dstTypeOptions,
    months: monthOptions,
    weekdays: weekdayOptions,
    week_pos: weekPosOptions,
    dst_countries: dstCountries.map((c) => ({ id: c.id, value: c.value })),
    groups: groups.map((g) => ({ id: g.id, title: g.title })),
    // No SMS queue exists yet, so nothing is ever waiting in it.
    sms_queue_count: 0,
    user_dst: user.dst ?? null,
    status: 1 as const,
  };
}

/** Saves the settings and makes `groups` the complete list of device groups; every bad field named at once. */
export async function save(db: Db, user: User, body: EditSetupBody): Promise<void> {
  const errors: Errors = {};
  const groups = groupInputs(body, errors);
  const settings = settingsFrom(body, user, errors);
  assertNoErrors(errors);
  // Refused group ids come back as `groups.<i>.id`, the request's own field names.
  if (!(await saveAccountSetup(db, user.id, settings, groups))) throw new FailureError(401, UNAUTHENTICATED);
}

export async function setPassword(db: Db, user: User, { password, password_confirmation }: ChangePasswordBody): Promise<void> {
  if (password_confirmation !== undefined && password_confirmation !== password) throw new InvalidInputError({ password: "The password confirmation does not match." });
  if (!(await changePassword(db, user.id, password))) throw new FailureError(401, UNAUTHENTICATED);
}

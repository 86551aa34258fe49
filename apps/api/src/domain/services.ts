import { InvalidInputError, NotFoundError, isTruthy, serviceExpirationLabels, type AddServiceBody, type EditServiceBody, type ServiceRecord } from "@fleet/contracts";
import {
  createService,
  deleteUserService,
  findUserDevice,
  findUserService,
  listDeviceServices,
  listSensorsOfDevices,
  updateUserService,
  type Db,
  type Service,
  type ServiceInput,
  type User,
  type UserDeviceRecord,
} from "@fleet/db";
import { formatServiceAmount, isCalendarDate, kmToUnit, reminderSent, serviceState, unitToKm, type ServiceDistanceUnit, type ServiceNow } from "@fleet/sensors";
import { deviceData } from "../lib/live-item.js";
import { deviceSensorReadings } from "../lib/live-sensors.js";
import { serviceNow } from "../lib/live-services.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { queryOrBody } from "../lib/query-or-body.js";
import { userDevice, type LiveStates } from "./sensors.js";

/*
 * A device's maintenance services: terms stored in km, hours or days, and the state
 * (expires, remind, expired) computed on read from the device's counters now.
 */

type Errors = Record<string, string>;
type ServiceFields = Omit<AddServiceBody, "device_id">;

// Generous bounds that keep amounts finite and readable: a million-year odometer is a typo.
const MAX_AMOUNT = 1_000_000_000;
const MAX_DAYS = 36_500;
const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const PHONE = /^\+?[0-9][0-9 ()\-.]{2,31}$/;

/**
 * A non-negative amount, decimal or (for days) whole, within bounds; `positive` also
 * refuses 0. Undefined, with the reason in `errors`, when it is not one.
 */
function amount(errors: Errors, field: string, raw: string, opts: { whole: boolean; positive?: boolean }): number | undefined {
  const name = field.replaceAll("_", " ");
  const text = raw.trim();
  const max = opts.whole ? MAX_DAYS : MAX_AMOUNT;
  const n = Number(text);
  if (!(opts.whole ? WHOLE : DECIMAL).test(text)) errors[field] = opts.whole ? `The ${name} must be a whole number of days.` : `The ${name} must be a number.`;
  else if (n > max) errors[field] = `The ${name} may not be greater than ${max}.`;
  // Amounts read back to two decimals: an interval that would read 0 is none.
  else if (opts.positive && Math.round(n * 100) === 0) errors[field] = n === 0 ? `The ${name} must be greater than 0.` : `The ${name} must be at least 0.01.`;
  else return n;
  return undefined;
}

function calendarDate(errors: Errors, field: string, raw: string): string | undefined {
  const text = raw.trim();
  if (isCalendarDate(text)) return text;
  errors[field] = `The ${field.replaceAll("_", " ")} must be a date (YYYY-MM-DD).`;
  return undefined;
}

/** "" or entries separated by commas (or semicolons), each matching `re`, stored joined by commas. */
function listOf(errors: Errors, field: string, raw: string | undefined, re: RegExp, message: string): string | undefined {
  const text = (raw ?? "").trim();
  if (text === "") return "";
  const entries = text.split(/[,;]/).map((e) => e.trim());
  if (entries.every((e) => re.test(e))) return entries.join(",");
  errors[field] = message;
  return undefined;
}

/**
 * Checks the servicePost amounts against `expiration_by` (the schema has checked types
 * and lengths) and converts them to what is stored: odometer amounts in km whatever the
 * user's unit. Undefined, every bad field named in `errors`, when any is bad.
 */
function serviceFields(errors: Errors, b: ServiceFields, unit: ServiceDistanceUnit): Omit<ServiceInput, "deviceId"> | undefined {
  const days = b.expiration_by === "days";
  const interval = amount(errors, "interval", b.interval, { whole: days, positive: true });
  const trigger = amount(errors, "trigger_event_left", b.trigger_event_left, { whole: days });
  const last = days ? calendarDate(errors, "last_service", b.last_service) : amount(errors, "last_service", b.last_service, { whole: false });
  const email = listOf(errors, "email", b.email, EMAIL, "The email must be a valid email address.");
  const mobilePhone = listOf(errors, "mobile_phone", b.mobile_phone, PHONE, "The mobile phone format is invalid.");
  if (interval === undefined || trigger === undefined || last === undefined || email === undefined || mobilePhone === undefined) return undefined;
  const stored = (n: number) => (b.expiration_by === "odometer" ? unitToKm(n, unit) : n);
  return {
    name: b.name,
    expirationBy: b.expiration_by,
    interval: stored(interval),
    lastService: typeof last === "string" ? last : String(stored(last)),
    triggerEventLeft: stored(trigger),
    renewAfterExpiration: isTruthy(b.renew_after_expiration) ?? false,
    email,
    mobilePhone,
  };
}

/** The device's counters as the *_service_data endpoints show them, in the user's distance unit. */
function counterValues(now: ServiceNow, unit: ServiceDistanceUnit) {
  return { odometer_value: formatServiceAmount(kmToUnit(now.odometerKm, unit)), engine_hours_value: formatServiceAmount(now.engineHours) };
}

/** The spec's Service record: stored fields with the state computed for `now`, in the user's units. */
function record(s: Service, device: UserDeviceRecord, user: User, now: ServiceNow): ServiceRecord {
  const state = serviceState(s, now, user.unitOfDistance);
  return {
    id: String(s.id),
    user_id: String(s.userId),
    device_id: String(s.deviceId),
    name: s.name,
    expiration_by: s.expirationBy,
    interval: state.interval,
    last_service: state.lastService,
    trigger_event_left: state.triggerEventLeft,
    renew_after_expiration: s.renewAfterExpiration ? "1" : "0",
    expires: state.expires,
    expires_date: state.expiresDate,
    remind: state.remind,
    remind_date: state.remindDate,
    event_sent: reminderSent(s, state) ? "1" : "0",
    expired: state.expired ? "1" : "0",
    email: s.email,
    mobile_phone: s.mobilePhone,
    device: deviceData(device, user),
  };
}

async function userService(db: Db, user: User, serviceId: number): Promise<Service> {
  const service = await findUserService(db, user.id, serviceId);
  if (!service) throw new NotFoundError("Service");
  return service;
}

/** The device's counters now, from its sensors and live state, the way the live list computes them. */
async function deviceNow(db: Db, live: LiveStates, user: User, device: UserDeviceRecord): Promise<ServiceNow> {
  const [states, sensors] = await Promise.all([live.getStates([device.id]), listSensorsOfDevices(db, [device.id])]);
  const state = states.get(device.id);
  return serviceNow(user, device, state, deviceSensorReadings(device, sensors, state), Date.now());
}

export async function addData(db: Db, live: LiveStates, user: User, deviceId: number) {
  const device = await userDevice(db, user, deviceId);
  const now = await deviceNow(db, live, user, device);
  return { device_id: device.id, ...counterValues(now, user.unitOfDistance), expiration_by: serviceExpirationLabels, status: 1 as const };
}

/** Creates a service on the device named in the query or the body (the two must agree). */
export async function add(db: Db, user: User, inQuery: number | undefined, body: AddServiceBody) {
  const errors: Errors = {};
  const given = queryOrBody("device_id", inQuery, body.device_id);
  if (given.error !== undefined) errors.device_id = given.error;
  const fields = serviceFields(errors, body, user.unitOfDistance);
  if (given.error !== undefined || !fields) throw new InvalidInputError(errors);
  const device = await userDevice(db, user, given.value);
  return { status: 1 as const, id: (await createService(db, user.id, { ...fields, deviceId: device.id })).id };
}

/** The service by `service_id`, or by `sensor_id`, the spec's name for it. */
export async function editData(db: Db, live: LiveStates, user: User, query: { service_id?: number; sensor_id?: number }) {
  const serviceId = query.service_id ?? query.sensor_id;
  if (serviceId === undefined) throw new InvalidInputError({ service_id: "The service id field is required." });
  const service = await userService(db, user, serviceId);
  const device = await findUserDevice(db, user.id, service.deviceId);
  if (!device) throw new NotFoundError("Service");
  const now = await deviceNow(db, live, user, device);
  return {
    device_id: device.id,
    ...counterValues(now, user.unitOfDistance),
    expiration_by: serviceExpirationLabels,
    item: record(service, device, user, now),
    status: 1 as const,
  };
}

/** Replaces the service's terms; a device_id other than its own moves it there. */
export async function edit(db: Db, user: User, body: EditServiceBody): Promise<void> {
  const errors: Errors = {};
  const fields = serviceFields(errors, body, user.unitOfDistance);
  if (!fields) throw new InvalidInputError(errors);
  const service = await userService(db, user, body.id);
  const device = await userDevice(db, user, body.device_id);
  if (!(await updateUserService(db, user.id, service.id, { ...fields, deviceId: device.id }))) throw new NotFoundError("Service");
}

export async function destroy(db: Db, user: User, serviceId: number): Promise<void> {
  const service = await userService(db, user, serviceId);
  if (!(await deleteUserService(db, user.id, service.id))) throw new NotFoundError("Service");
}

/** A page of the device's services with their state now; `url` is the request's, for the page links. */
export async function list(db: Db, live: LiveStates, user: User, query: { device_id: number; page?: number; per_page?: number }, url: string) {
  const device = await userDevice(db, user, query.device_id);
  const page = pageRequest(query);
  const [{ total, rows }, now] = await Promise.all([listDeviceServices(db, user.id, device.id, pageWindow(page)), deviceNow(db, live, user, device)]);
  return { ...paginate({ url }, page, total, rows.map((s) => record(s, device, user, now))), status: 1 as const };
}

import {
  AddServiceBodySchema,
  AddServiceDataResponseSchema,
  AddServiceQuerySchema,
  AddServiceResponseSchema,
  EditServiceBodySchema,
  EditServiceDataQuerySchema,
  EditServiceDataResponseSchema,
  FailureResponses,
  GetServicesQuerySchema,
  GetServicesResponseSchema,
  ServiceDeviceQuerySchema,
  ServiceIdQuerySchema,
  ServiceOkResponseSchema,
  isTruthy,
  serviceExpirationLabels,
  type AddServiceBody,
  type ServiceRecord,
} from "@fleet/contracts";
import {
  createService,
  deleteUserService,
  findUserDevice,
  findUserService,
  listDeviceServices,
  updateUserService,
  type Service,
  type ServiceInput,
  type User,
  type UserDeviceRecord,
} from "@fleet/db";
import { formatServiceAmount, isCalendarDate, kmToUnit, serviceState, unitToKm, type ServiceDistanceUnit, type ServiceNow } from "@fleet/sensors";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { liveSensors } from "../lib/live-sensors.js";
import { deviceData } from "../lib/live-item.js";
import { serviceNow } from "../lib/live-services.js";
import { notFound } from "../lib/not-found.js";
import { queryOrBody } from "../lib/query-or-body.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { currentUser } from "../plugins/app/auth.js";

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
  else if (opts.positive && n === 0) errors[field] = `The ${name} must be greater than 0.`;
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
 * user's unit. Every bad field is reported at once.
 */
function parseServiceFields(errors: Errors, b: ServiceFields, unit: ServiceDistanceUnit): Omit<ServiceInput, "deviceId"> | undefined {
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
function serviceRecord(s: Service, device: UserDeviceRecord, user: User, now: ServiceNow): ServiceRecord {
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
    event_sent: s.eventSent ? "1" : "0",
    expired: state.expired ? "1" : "0",
    email: s.email,
    mobile_phone: s.mobilePhone,
    device: deviceData(device, user),
  };
}

export const serviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live } = app.services;
  const schema = (summary: string) => ({ tags: ["Service"], summary });

  /** The device's counters now, from its sensors and live state, the way the live list computes them. */
  async function deviceNow(user: User, device: UserDeviceRecord): Promise<ServiceNow> {
    const states = await live.getStates([device.id]);
    const readings = await liveSensors(db, user, [device], states);
    return serviceNow(user, device, states.get(device.id), readings.get(device.id), Date.now());
  }

  /** Pollers of get_devices_latest see the devices whose services changed. */
  function markChanged(user: User, ...deviceIds: number[]) {
    return live.markChanged([...new Set(deviceIds)].map((deviceId) => ({ deviceId, userIds: [user.id] })));
  }

  app.get(
    "/add_service_data",
    { schema: { ...schema("The device's counters and the expiration_by options, for add_service"), querystring: ServiceDeviceQuerySchema, response: { 200: AddServiceDataResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const device = await findUserDevice(db, user.id, req.query.device_id);
      if (!device) return notFound(reply, "Device");
      const now = await deviceNow(user, device);
      return { device_id: device.id, ...counterValues(now, user.unitOfDistance), expiration_by: serviceExpirationLabels, status: 1 as const };
    },
  );

  app.post(
    "/add_service",
    {
      schema: {
        ...schema("Create a maintenance service of a device (device_id in the query or the body)"),
        querystring: AddServiceQuerySchema,
        body: AddServiceBodySchema,
        response: { 200: AddServiceResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const errors: Errors = {};
      const given = queryOrBody("device_id", req.query.device_id, req.body.device_id);
      if (given.error !== undefined) errors.device_id = given.error;
      const deviceId = given.error === undefined ? given.value : undefined;
      const fields = parseServiceFields(errors, req.body, user.unitOfDistance);
      if (deviceId === undefined || fields === undefined) return reply.code(422).send({ status: 0, errors });
      const device = await findUserDevice(db, user.id, deviceId);
      if (!device) return notFound(reply, "Device");
      const service = await createService(db, user.id, { ...fields, deviceId: device.id });
      await markChanged(user, device.id);
      return { status: 1 as const, id: service.id };
    },
  );

  app.get(
    "/edit_service_data",
    {
      schema: {
        ...schema("A service with its computed state, the device's counters and the expiration_by options, for edit_service"),
        querystring: EditServiceDataQuerySchema,
        response: { 200: EditServiceDataResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const serviceId = req.query.service_id ?? req.query.sensor_id;
      if (serviceId === undefined) return reply.code(422).send({ status: 0, errors: { service_id: "The service id field is required." } });
      const service = await findUserService(db, user.id, serviceId);
      if (!service) return notFound(reply, "Service");
      const device = await findUserDevice(db, user.id, service.deviceId);
      if (!device) return notFound(reply, "Service");
      const now = await deviceNow(user, device);
      return {
        device_id: device.id,
        ...counterValues(now, user.unitOfDistance),
        expiration_by: serviceExpirationLabels,
        item: serviceRecord(service, device, user, now),
        status: 1 as const,
      };
    },
  );

  app.post(
    "/edit_service",
    { schema: { ...schema("Replace a service's terms (the id plus every add_service field)"), body: EditServiceBodySchema, response: { 200: ServiceOkResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const errors: Errors = {};
      const fields = parseServiceFields(errors, req.body, user.unitOfDistance);
      if (fields === undefined) return reply.code(422).send({ status: 0, errors });
      const service = await findUserService(db, user.id, req.body.id);
      if (!service) return notFound(reply, "Service");
      const device = await findUserDevice(db, user.id, req.body.device_id);
      if (!device) return notFound(reply, "Device");
      if (!(await updateUserService(db, user.id, service.id, { ...fields, deviceId: device.id }))) return notFound(reply, "Service");
      await markChanged(user, service.deviceId, device.id);
      return { status: 1 as const };
    },
  );

  app.get(
    "/destroy_service",
    { schema: { ...schema("Delete a service"), querystring: ServiceIdQuerySchema, response: { 200: ServiceOkResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const service = await findUserService(db, user.id, req.query.service_id);
      if (!service || !(await deleteUserService(db, user.id, service.id))) return notFound(reply, "Service");
      await markChanged(user, service.deviceId);
      return { status: 1 as const };
    },
  );

  app.get(
    "/get_services",
    { schema: { ...schema("A page of a device's services with their computed state"), querystring: GetServicesQuerySchema, response: { 200: GetServicesResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const device = await findUserDevice(db, user.id, req.query.device_id);
      if (!device) return notFound(reply, "Device");
      const page = pageRequest(req.query);
      const [{ total, rows }, now] = await Promise.all([listDeviceServices(db, user.id, device.id, pageWindow(page)), deviceNow(user, device)]);
      return { ...paginate(req, page, total, rows.map((s) => serviceRecord(s, device, user, now))), status: 1 as const };
    },
  );
};

import {
  AddReportBodySchema,
  AddReportResponseSchema,
  EditReportBodySchema,
  FailureResponses,
  GetReportsQuerySchema,
  GetReportsResponseSchema,
  GetReportsTypesResponseSchema,
  OkSchema,
  ReportIdQuerySchema,
  checkReportParameters,
  defaultReportStopMinutes,
  findReportType,
  formatDateTime,
  isTruthy,
  reportStopMinutes,
  reportTypeDescriptor,
  reportTypes,
  type AddReportBody,
  type ReportField,
  type ReportFormat,
  type ReportRecord,
} from "@fleet/contracts";
import { UnknownReportDeviceError, UnknownReportGeofenceError, createReport, destroyReport, listUserReports, updateReport, type Report, type ReportInput } from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { currentUser } from "../plugins/app/auth.js";

type Errors = Record<string, string>;

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const MAX_EMAILS = 20;

// The catalogue never changes while the process runs: both answers are built once.
const typesResponse = { ...Object.fromEntries(reportTypes.map((t) => [String(t.type), reportTypeDescriptor(t)])), status: 1 as const };
const typeTitles = reportTypes.map((t) => ({ id: t.type, title: t.name }));

const uses = (type: number, field: ReportField) => findReportType(type)?.fields.includes(field) ?? false;
const flag = (b: boolean) => (b ? 1 : 0);

/** The spec's Report record; show_addresses and zones_instead are null for types that do not use them. */
function reportRecord(r: Report, timezoneId: number): ReportRecord {
  const t = findReportType(r.type);
  const time = (d: Date | null, key: "daily_email_sent" | "weekly_email_sent") => (d ? { [key]: formatDateTime(d.getTime(), timezoneId) } : {});
  return {
    id: r.id,
    user_id: r.userId,
    title: r.title,
    type: r.type,
    format: r.format as ReportFormat,
    show_addresses: uses(r.type, "show_addresses") ? flag(r.showAddresses) : null,
    zones_instead: uses(r.type, "zones_instead") ? flag(r.zonesInstead) : null,
    stops: r.stops,
    speed_limit: r.speedLimit,
    daily: flag(r.daily),
    weekly: flag(r.weekly),
    email: r.email,
    ...time(r.weeklyEmailSent, "weekly_email_sent"),
    ...time(r.dailyEmailSent, "daily_email_sent"),
    devices: r.devices,
    geofences: r.geofences,
    ...(t?.parameters ? { parameters: r.parameters as Record<string, number | string> } : {}),
  };
}

/** `email` (or the vendor's `send_to_email`): "" or addresses separated by commas, stored joined by commas. */
function emailList(errors: Errors, b: AddReportBody): string | undefined {
  const { email, send_to_email: sendTo } = b;
  if (email !== undefined && sendTo !== undefined && email.trim() !== sendTo.trim()) {
    errors.email = "The email and send to email differ.";
    return undefined;
  }
  const text = (email ?? sendTo ?? "").trim();
  if (text === "") return "";
  const entries = text.split(/[,;]/).map((e) => e.trim());
  if (entries.length > MAX_EMAILS) errors.email = `The email may not list more than ${MAX_EMAILS} addresses.`;
  else if (!entries.every((e) => EMAIL.test(e))) errors.email = "The email must be a valid email address, or several separated by commas.";
  else return entries.join(",");
  return undefined;
}

/**
 * The body as a stored definition, checked against its type in the catalogue: the format
 * must be one the type offers, the fields it requires must be there, its parameters must
 * pass their declarations. Fields the type does not use are not stored (their defaults
 * are). Every bad field is reported at once.
 */
function reportInput(b: AddReportBody): { input: ReportInput } | { errors: Errors } {
  const errors: Errors = {};
  const t = findReportType(b.type);
  if (!t) return { errors: { type: "The selected type is invalid." } };
  const used = (f: ReportField) => t.fields.includes(f);
  if (!t.formats.includes(b.format)) errors.format = `The format must be ${t.formats.join(", ")} for this report type.`;
  const given: Record<ReportField, unknown> = {
    speed_limit: b.speed_limit ?? undefined,
    stops: b.stops ?? undefined,
    show_addresses: b.show_addresses,
    zones_instead: b.zones_instead,
    geofences: b.geofences?.length ? b.geofences : undefined,
  };
  for (const f of t.requires) if (given[f] === undefined) errors[f] = `The ${f.replaceAll("_", " ")} field is required for this report type.`;
  const stops = used("stops") ? (b.stops ?? defaultReportStopMinutes) : 0;
  if (used("stops") && !(reportStopMinutes as readonly number[]).includes(stops)) errors.stops = "The selected stops is invalid.";
  const { values: parameters, errors: parameterErrors } = checkReportParameters(t, b.parameters);
  Object.assign(errors, parameterErrors);
  const email = emailList(errors, b);
  const daily = isTruthy(b.daily) ?? false;
  const weekly = isTruthy(b.weekly) ?? false;
  if (email === "" && (daily || weekly)) errors.email = "The email field is required when the report is sent daily or weekly.";
  // email is undefined only with an error recorded; the test narrows its type.
  if (Object.keys(errors).length > 0 || email === undefined) return { errors };
  return {
    input: {
      title: b.title,
      type: t.type,
      format: b.format,
      showAddresses: used("show_addresses") && (isTruthy(b.show_addresses) ?? false),
      zonesInstead: used("zones_instead") && (isTruthy(b.zones_instead) ?? false),
      stops,
      speedLimit: used("speed_limit") ? (b.speed_limit ?? null) : null,
      daily,
      weekly,
      email,
      devices: b.devices,
      geofences: used("geofences") ? (b.geofences ?? []) : [],
      parameters,
    },
  };
}

/** The store refused a device or geofence id: not the user's (missing, deleted and foreign look alike). */
function isUnknownId(err: unknown): err is UnknownReportDeviceError | UnknownReportGeofenceError {
  return err instanceof UnknownReportDeviceError || err instanceof UnknownReportGeofenceError;
}

function unknownIds(reply: FastifyReply, err: UnknownReportDeviceError | UnknownReportGeofenceError) {
  return reply.code(422).send({ status: 0 as const, errors: { [err.field]: `The selected ${err.field} are invalid.` } });
}

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const schema = (summary: string) => ({ tags: ["Report"], summary });

  app.get("/get_reports_types", { schema: { ...schema("Every report type with its formats, fields and parameters, keyed by type id"), response: { 200: GetReportsTypesResponseSchema, ...FailureResponses } } }, async () => typesResponse);

  app.get(
    "/get_reports",
    { schema: { ...schema("The user's report definitions, a page at a time, by id; and the report types"), querystring: GetReportsQuerySchema, response: { 200: GetReportsResponseSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const page = pageRequest(req.query);
      const { total, reports } = await listUserReports(db, user.id, pageWindow(page));
      const data = reports.map((r) => reportRecord(r, user.timezoneId));
      return { items: { reports: paginate(req, page, total, data), types: typeTitles }, status: 1 as const };
    },
  );

  app.post(
    "/add_report",
    { schema: { ...schema("Save a report definition; fields its type does not use are ignored"), body: AddReportBodySchema, response: { 200: AddReportResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const checked = reportInput(req.body);
      if ("errors" in checked) return reply.code(422).send({ status: 0, errors: checked.errors });
      try {
        return { status: 1 as const, id: (await createReport(db, user.id, checked.input)).id };
      } catch (err) {
        if (isUnknownId(err)) return unknownIds(reply, err);
        throw err;
      }
    },
  );

  app.post(
    "/edit_report",
    { schema: { ...schema("Rewrite a report definition: the body is the whole definition"), body: EditReportBodySchema, response: { 200: OkSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const checked = reportInput(req.body);
      if ("errors" in checked) return reply.code(422).send({ status: 0, errors: checked.errors });
      try {
        if (!(await updateReport(db, user.id, req.body.id, checked.input))) return notFound(reply, "Report");
        return { status: 1 as const };
      } catch (err) {
        if (isUnknownId(err)) return unknownIds(reply, err);
        throw err;
      }
    },
  );

  app.get(
    "/destroy_report",
    { schema: { ...schema("Delete a report definition"), querystring: ReportIdQuerySchema, response: { 200: OkSchema, ...FailureResponses } } },
    async (req, reply) => {
      if (!(await destroyReport(db, currentUser(req).id, req.query.report_id))) return notFound(reply, "Report");
      return { status: 1 as const };
    },
  );
};

import {
  InvalidInputError,
  checkReportParameters,
  defaultReportStopMinutes,
  findReportType,
  isTruthy,
  reportFormats,
  reportStopMinutes,
  reportTypeDescriptor,
  reportTypes,
  type AddReportBody,
  type AddReportDataResponse,
  type EditReportBody,
  type ReportField,
  type ReportFormat,
  type ReportRecord,
  type UserClock,
} from "@fleet/contracts";
import { createReport, destroyReport, listUserDevices, listUserReports, updateReport, type Db, type Report, type ReportInput, type User } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { deviceData } from "../lib/live-item.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { found } from "./found.js";
import * as geofences from "./geofences.js";

/*
 * Report definitions: a type from the catalogue, its format, fields and parameters, the
 * devices and geofences it covers, and who gets it by email. Devices and geofences that
 * are not the user's are the database's refusal, worded by default ("The selected
 * devices are invalid.").
 */

type Errors = Record<string, string>;

const WHAT = "Report";
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const MAX_EMAILS = 20;

// The catalogue never changes while the process runs: both answers are built once.
const typesResponse = { ...Object.fromEntries(reportTypes.map((t) => [String(t.type), reportTypeDescriptor(t)])), status: 1 as const };
const typeTitles = reportTypes.map((t) => ({ id: t.type, title: t.name }));

const uses = (type: number, field: ReportField) => findReportType(type)?.fields.includes(field) ?? false;
const flag = (b: boolean) => (b ? 1 : 0);

/** The spec's Report record; show_addresses and zones_instead are null for types that do not use them. */
function record(r: Report, clock: UserClock): ReportRecord {
  const t = findReportType(r.type);
  const time = (d: Date | null, key: "daily_email_sent" | "weekly_email_sent") => (d ? { [key]: clock.format(d.getTime()) } : {});
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
export function checkedReport(b: AddReportBody): ReportInput {
  const errors: Errors = {};
  const t = findReportType(b.type);
  if (!t) throw new InvalidInputError({ type: "The selected type is invalid." });
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
  if (Object.keys(errors).length > 0 || email === undefined) throw new InvalidInputError(errors);
  return {
    title: b.title,
    type: t.type,
    format: b.format,
    showAddresses: used("show_addresses") && (isTruthy(b.show_addresses) ?? false),
    zonesInstead: used("zones_instead") && (isTruthy(b.zones_instead) ?? false),
    stops,
    speedLimit: used("speed_limit") || t.accepts.includes("speed_limit") ? (b.speed_limit ?? null) : null,
    daily,
    weekly,
    email,
    devices: b.devices,
    geofences: used("geofences") ? (b.geofences ?? []) : [],
    parameters,
  };
}

export const types = () => typesResponse;

/** A page of the user's definitions and the report types; `url` is the request's, for the page links. */
export async function list(db: Db, user: User, query: { page?: number; per_page?: number }, url: string) {
  const page = pageRequest(query);
  const { total, reports } = await listUserReports(db, user.id, pageWindow(page));
  const data = reports.map((r) => record(r, clockOf(user)));
  return { items: { reports: paginate({ url }, page, total, data), types: typeTitles }, status: 1 as const };
}

export async function add(db: Db, user: User, body: AddReportBody) {
  return { status: 1 as const, id: (await createReport(db, user.id, checkedReport(body))).id };
}

export const edit = (db: Db, user: User, body: EditReportBody) => found(updateReport(db, user.id, body.id, checkedReport(body)), WHAT);

export const destroy = (db: Db, user: User, id: number) => found(destroyReport(db, user.id, id), WHAT);

// ---- add_report_data ------------------------------------------------------------------------

/** The formats as the vendor's form labels them. */
const formatLabels: Record<ReportFormat, string> = { html: "HTML", xls: "XLS", pdf: "PDF", pdf_land: "PDF (Landscape)" };

/** "> 5 min", "> 2 h": the vendor's label of a minimal stop. */
const stopLabel = (minutes: number) => (minutes % 60 === 0 ? `> ${minutes / 60} h` : `> ${minutes} min`);

/**
 * The period presets a report form fills its dates from, with the vendor's ids so that its
 * clients keep their meaning: 0 is none (the dates as entered); the vendor's 3 and 4
 * ("Before 2 days", "Before 3 days") are not offered.
 */
const periodFilters = [
  { id: 0, value: "Custom" },
  { id: 1, value: "Today" },
  { id: 2, value: "Yesterday" },
  { id: 5, value: "This week" },
  { id: 6, value: "Last week" },
  { id: 7, value: "This month" },
  { id: 8, value: "Last month" },
];

// The catalogue's lists, built once like get_reports_types' answer.
const formLists = {
  formats: reportFormats.map((f) => ({ id: f, value: formatLabels[f] })),
  stops: reportStopMinutes.map((m) => ({ id: m, value: stopLabel(m) })),
  filters: periodFilters,
  types: reportTypes.map((t) => ({ id: t.type, value: t.name })),
  logs: { sorting: { sort: "desc" as const, sort_by: "created_at" } },
};

/**
 * add_report_data: the user's devices and geofences as records, the catalogue's lists, and
 * the first page of the user's definitions as get_reports answers it. `url` is the
 * request's: the page links lead to get_reports, which pages them.
 */
export async function addData(db: Db, user: User, url: string): Promise<AddReportDataResponse> {
  const reportsUrl = url.replace(/\/add_report_data(?=[?#]|$)/, "/get_reports");
  const [devices, fences, saved] = await Promise.all([listUserDevices(db, user.id), geofences.list(db, user), list(db, user, {}, reportsUrl)]);
  return {
    devices: devices.map((d) => deviceData(d, user)),
    geofences: fences.items.geofences,
    ...formLists,
    reports: saved.items.reports,
    status: 1,
  };
}

/*
 * The report catalogue: every report type with its formats, form fields and parameters.
 * get_reports_types shows it and add_report / edit_report validate against it, so each
 * fact is declared here once. Choices the spec leaves open are in the reports decisions.
 */

export const reportFormats = ["html", "xls", "pdf", "pdf_land"] as const;
export type ReportFormat = (typeof reportFormats)[number];

/** The form fields a report type may use, besides title, type, format, devices and the schedule. */
export const reportFields = ["speed_limit", "stops", "show_addresses", "zones_instead", "geofences"] as const;
export type ReportField = (typeof reportFields)[number];

/** Minimum stop durations in minutes (the vendor's `stops` options: "> 1 min" … "> 5 h"). */
export const reportStopMinutes = [1, 2, 5, 10, 20, 30, 60, 120, 300] as const;
/** What a definition of a type that uses `stops` counts as a stop when the body leaves it out. */
export const defaultReportStopMinutes = 1;

export interface ReportParameterOption {
  id: number | string;
  title: string;
}

/** A type-specific setting, as the spec's Report type descriptor shows it (`validation` in Laravel's rule syntax). */
export interface ReportParameter {
  title: string;
  name: string;
  type: "select";
  default: number | string | null;
  options: readonly ReportParameterOption[] | null;
  validation: string | null;
}

export interface ReportType {
  type: number;
  name: string;
  formats: readonly ReportFormat[];
  fields: readonly ReportField[];
  parameters: readonly ReportParameter[] | null;
  /** Fields a definition must fill; `geofences` is added for every type that uses it. */
  requires: readonly ReportField[];
  /** Fields kept when sent, though the type's form does not offer them (RAG's speed limit). */
  accepts: readonly ReportField[];
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `00:00` to `23:45` every 15 minutes. */
const quarterHours: ReportParameterOption[] = Array.from({ length: 96 }, (_, i) => {
  const hhmm = `${pad(Math.floor(i / 4))}:${pad((i % 4) * 15)}`;
  return { id: hhmm, title: hhmm };
});

/** 0 to 15 minutes in steps of 1, then 20 to 60 in steps of 5. */
const toleranceMinutes: ReportParameterOption[] = [...Array.from({ length: 16 }, (_, i) => i), ...Array.from({ length: 9 }, (_, i) => 20 + i * 5)].map((m) => ({ id: m, title: `${m} min` }));

const shiftTime = (name: string, title: string, dflt: string): ReportParameter => ({ title, name, type: "select", default: dflt, options: quarterHours, validation: "required|date_format:H:i" });
const minutes = (name: string, title: string, dflt: number, validation: string): ReportParameter => ({ title, name, type: "select", default: dflt, options: toleranceMinutes, validation });

/** Type 28's parameters: the spec's three, then the two it leaves unshown (optional, so their defaults apply). */
const shiftParameters: ReportParameter[] = [
  shiftTime("shift_start", "Shift start", "08:00"),
  shiftTime("shift_finish", "Shift finish", "17:00"),
  minutes("shift_start_tolerance", "Shift start tolerance", 15, "required|integer"),
  minutes("shift_finish_tolerance", "Shift finish tolerance", 15, "integer"),
  minutes("excessive_exit", "Excessive exit", 30, "integer"),
];

const GENERAL: ReportField[] = ["speed_limit", "stops"];
const DRIVES: ReportField[] = ["stops", "show_addresses", "zones_instead"];
const SPEED: ReportField[] = ["speed_limit", "show_addresses", "zones_instead"];
const PLAIN: ReportField[] = ["show_addresses", "zones_instead"];
const GEOFENCE_IO: ReportField[] = ["geofences", "show_addresses", "zones_instead"];

interface TypeOptions {
  formats?: readonly ReportFormat[];
  parameters?: readonly ReportParameter[];
  requires?: readonly ReportField[];
  accepts?: readonly ReportField[];
}

function reportType(type: number, name: string, fields: readonly ReportField[], o: TypeOptions = {}): ReportType {
  const requires = [...(fields.includes("geofences") ? (["geofences"] as const) : []), ...(o.requires ?? [])];
  return { type, name, formats: o.formats ?? reportFormats, fields, parameters: o.parameters ?? null, requires, accepts: o.accepts ?? [] };
}

/** Every report type, by id. */
export const reportTypes: readonly ReportType[] = [
  reportType(1, "General information", GENERAL),
  reportType(2, "General information (merged)", GENERAL),
  reportType(3, "Drives and stops", DRIVES),
  reportType(4, "Travel sheet", DRIVES),
  // An overspeed or underspeed report without a limit has nothing to compare against.
  reportType(5, "Overspeed", SPEED, { requires: ["speed_limit"] }),
  reportType(6, "Underspeed", SPEED, { requires: ["speed_limit"] }),
  reportType(7, "Geofence in/out", GEOFENCE_IO),
  reportType(8, "Events", PLAIN),
  reportType(10, "Fuel level", PLAIN, { formats: ["html"] }),
  reportType(11, "Fuel fillings", PLAIN),
  reportType(12, "Fuel thefts", PLAIN),
  reportType(13, "Temperature", PLAIN, { formats: ["html"] }),
  // The vendor's RAG form has no speed limit; one sent anyway counts overspeeds among the incidents.
  reportType(14, "RAG", PLAIN, { accepts: ["speed_limit"] }),
  // The spec lists no fields for 15, 19 to 22 and 25: each takes those of the type it is a variant of.
  reportType(15, "Geofence in/out 24 hour mode", GEOFENCE_IO),
  reportType(16, "General information (merged) custom", GENERAL),
  reportType(18, "Drives and stops / Geofences", SPEED),
  reportType(19, "Drives and stops / Drivers", DRIVES),
  reportType(20, "Geofence in/out (Ignition ON/OFF)", GEOFENCE_IO),
  reportType(21, "Drives and stops / Drivers (Business)", DRIVES),
  reportType(22, "Drives and stops / Drivers (Private)", DRIVES),
  reportType(23, "RAG / Seatbelt", PLAIN, { accepts: ["speed_limit"] }),
  reportType(24, "Customer-specific report (24)", []),
  reportType(25, "Object history", PLAIN),
  reportType(27, "Customer-specific report (27)", []),
  reportType(28, "Geofence in/out (Shift)", ["geofences"], { parameters: shiftParameters }),
];

export const reportTypeIds: readonly number[] = reportTypes.map((t) => t.type);

const byId = new Map(reportTypes.map((t) => [t.type, t]));

export function findReportType(type: number): ReportType | undefined {
  return byId.get(type);
}

/** The spec's Report type descriptor of a type. */
export function reportTypeDescriptor(t: ReportType) {
  return { type: t.type, name: t.name, formats: [...t.formats], fields: [...t.fields], parameters: t.parameters && t.parameters.map((p) => ({ ...p, options: p.options && [...p.options] })) };
}

/*
 * Parameter values are checked against the parameter's own declaration: its options (a
 * select takes one of them) and its Laravel-style validation string. Rules are compiled
 * when this module loads, so a rule nobody implemented fails every test, not a request.
 */

type Check = (text: string, attribute: string) => string | undefined;

interface CompiledParameter {
  parameter: ReportParameter;
  required: boolean;
  integer: boolean;
  checks: Check[];
}

const DATE_TOKENS: Record<string, string> = { H: "([01]\\d|2[0-3])", i: "[0-5]\\d", s: "[0-5]\\d", Y: "\\d{4}", m: "(0[1-9]|1[0-2])", d: "(0[1-9]|[12]\\d|3[01])" };

function dateFormat(format: string): RegExp {
  const body = [...format].map((c) => DATE_TOKENS[c] ?? c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("");
  return new RegExp(`^${body}$`);
}

function compile(p: ReportParameter): CompiledParameter {
  const out: CompiledParameter = { parameter: p, required: false, integer: false, checks: [] };
  for (const rule of (p.validation ?? "").split("|").filter(Boolean)) {
    const [name, arg = ""] = rule.split(/:(.*)/s) as [string, string?];
    if (name === "required") out.required = true;
    else if (name === "integer") {
      out.integer = true;
      out.checks.push((t, a) => (/^-?\d+$/.test(t) ? undefined : `The ${a} must be an integer.`));
    } else if (name === "date_format" && arg) {
      const re = dateFormat(arg);
      out.checks.push((t, a) => (re.test(t) ? undefined : `The ${a} does not match the format ${arg}.`));
    } else throw new Error(`Report parameter ${p.name}: unknown validation rule "${rule}"`);
  }
  return out;
}

const compiled = new Map(reportTypes.map((t) => [t.type, (t.parameters ?? []).map(compile)]));

export type ReportParameterValues = Record<string, number | string>;

/**
 * The type's parameters read from `raw` (keys the type does not declare are ignored): each
 * value as its option's id, an absent optional one as its default. Errors by field
 * (`parameters.<name>`), every bad parameter at once.
 */
export function checkReportParameters(t: ReportType, raw: Readonly<Record<string, unknown>> | undefined): { values: ReportParameterValues; errors: Record<string, string> } {
  const values: ReportParameterValues = {};
  const errors: Record<string, string> = {};
  for (const { parameter: p, required, integer, checks } of compiled.get(t.type) ?? []) {
    const field = `parameters.${p.name}`;
    const attribute = p.name.replaceAll("_", " ");
    const value = raw && Object.hasOwn(raw, p.name) ? raw[p.name] : undefined;
    if (value === undefined || value === null || value === "") {
      if (required) errors[field] = `The ${attribute} field is required.`;
      else if (p.default !== null) values[p.name] = p.default;
      continue;
    }
    if (typeof value !== "string" && typeof value !== "number") {
      errors[field] = `The ${attribute} is invalid.`;
      continue;
    }
    const text = String(value);
    const failed = checks.map((c) => c(text, attribute)).find((m) => m !== undefined);
    const option = p.options?.find((o) => String(o.id) === text);
    if (failed) errors[field] = failed;
    else if (p.options && !option) errors[field] = `The selected ${attribute} is invalid.`;
    else values[p.name] = option ? option.id : integer ? Number(text) : text;
  }
  return { values, errors };
}

import { Type, type Static, type TProperties } from "@sinclair/typebox";
import { FormBoolean, IdValue, StatusOk } from "./common.js";
import { DeviceDataSchema } from "./devices.js";
import { GeofenceSchema } from "./geofences.js";
import { PageQuery, Paginated } from "./pagination.js";
import { reportFormats, reportTypeIds, reportTypes } from "./report-types.js";

export * from "./report-types.js";

const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: 2147483647, ...(description ? { description } : {}) });
/** More devices or geofences than any one report can sensibly cover. */
const MAX_IDS = 1000;

export const ReportFormatSchema = Type.Union(reportFormats.map((f) => Type.Literal(f)));

/** A parameter's value: an option id of get_reports_types (integer or text). */
const ParameterValue = Type.Union([Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }), Type.String({ maxLength: 32 })]);

/**
 * The fields add_report and edit_report share (the vendor's reportpost, as a stored
 * definition: no dates). Which of speed_limit, stops, show_addresses, zones_instead,
 * geofences and parameters count depends on the type; the route checks that part
 * against the catalogue.
 */
const reportFields = {
  title: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  type: Type.Integer({ enum: [...reportTypeIds], description: "a type id of get_reports_types" }),
  format: Type.Union(reportFormats.map((f) => Type.Literal(f)), { description: "one of the type's formats" }),
  devices: Type.Array(Id(), { minItems: 1, maxItems: MAX_IDS, description: "the user's device ids" }),
  geofences: Type.Optional(Type.Array(Id(), { maxItems: MAX_IDS, description: "the user's geofence ids; at least one for types whose fields include geofences" })),
  // "" (an emptied form field) reads as null.
  speed_limit: Type.Optional(Type.Union([Type.Null(), Type.Number({ exclusiveMinimum: 0, maximum: 1000 })], { description: "in the user's distance unit per hour" })),
  stops: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 0, maximum: 1440 })], { description: "minimum stop in minutes: 1, 2, 5, 10, 20, 30, 60, 120 or 300" })),
  show_addresses: Type.Optional(FormBoolean()),
  zones_instead: Type.Optional(FormBoolean()),
  daily: Type.Optional(FormBoolean({ description: "email the report every day (needs email)" })),
  weekly: Type.Optional(FormBoolean({ description: "email the report every week (needs email)" })),
  email: Type.Optional(Type.String({ maxLength: 1000, description: "addresses separated by commas" })),
  send_to_email: Type.Optional(Type.String({ maxLength: 1000, description: "the vendor's name for email; when both are sent they must agree" })),
  parameters: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), ParameterValue, { maxProperties: 32, description: "by parameter name, for types that declare parameters" })),
};

export const AddReportBodySchema = Type.Object(reportFields);
export type AddReportBody = Static<typeof AddReportBodySchema>;

export const EditReportBodySchema = Type.Object({ id: Id("the report"), ...reportFields });
export type EditReportBody = Static<typeof EditReportBodySchema>;

/** `?report_id=N` of destroy_report. */
export const ReportIdQuerySchema = Type.Object({ report_id: Id() });

export const GetReportsQuerySchema = Type.Object({ ...PageQuery });

const NullableInt = Type.Union([Type.Null(), Type.Integer()]);

/**
 * The Report record. show_addresses and zones_instead are null for types that do not
 * use them; the *_email_sent times are absent until a scheduled email went out.
 */
export const ReportSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  title: Type.String(),
  type: Type.Integer(),
  format: ReportFormatSchema,
  show_addresses: NullableInt,
  zones_instead: NullableInt,
  stops: Type.Integer(),
  speed_limit: Type.Union([Type.Null(), Type.Number()]),
  daily: NullableInt,
  weekly: NullableInt,
  email: Type.String(),
  weekly_email_sent: Type.Optional(Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" })),
  daily_email_sent: Type.Optional(Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" })),
  devices: Type.Array(Type.Integer()),
  geofences: Type.Array(Type.Integer()),
  parameters: Type.Optional(Type.Record(Type.String(), Type.Union([Type.Integer(), Type.String()]), { description: "only for types that declare parameters" })),
});
export type ReportRecord = Static<typeof ReportSchema>;

export const ReportTypeTitleSchema = Type.Object({ id: Type.Integer(), title: Type.String() });

export const GetReportsResponseSchema = Type.Object({
  items: Type.Object({ reports: Paginated(ReportSchema), types: Type.Array(ReportTypeTitleSchema) }),
  status: StatusOk,
});

const IdOrText = Type.Union([Type.Integer(), Type.String()]);

export const ReportParameterSchema = Type.Object({
  title: Type.String(),
  name: Type.String(),
  type: Type.String(),
  default: Type.Union([Type.Null(), IdOrText]),
  options: Type.Union([Type.Null(), Type.Array(Type.Object({ id: IdOrText, title: Type.String() }))]),
  validation: Type.Union([Type.Null(), Type.String()]),
});

export const ReportTypeDescriptorSchema = Type.Object({
  type: Type.Integer(),
  name: Type.String(),
  formats: Type.Array(ReportFormatSchema),
  fields: Type.Array(Type.String()),
  parameters: Type.Union([Type.Null(), Type.Array(ReportParameterSchema)]),
});
export type ReportTypeDescriptor = Static<typeof ReportTypeDescriptorSchema>;

/** get_reports_types: one descriptor per type id of the catalogue, keyed by the id, plus `status`. */
const descriptorsById: TProperties = Object.fromEntries(reportTypes.map((t) => [String(t.type), ReportTypeDescriptorSchema]));
export const GetReportsTypesResponseSchema = Type.Object({ ...descriptorsById, status: StatusOk });

export const AddReportResponseSchema = Type.Object({ status: StatusOk, id: Type.Integer() });

const ReportDate = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}(:\\d{2})?)?$", description: "YYYY-MM-DD on the account's clock (a time after it is read as from_time / to_time)" });
const ReportTime = Type.String({ pattern: "^\\d{2}:\\d{2}(:\\d{2})?$", description: "HH:MM or HH:MM:SS on the account's clock" });

/**
 * generate_report: the vendor's reportPost, a definition and its period. date_to is included
 * whole unless to_time says otherwise; from_time defaults to the day's start.
 */
export const GenerateReportBodySchema = Type.Object({
  ...reportFields,
  date_from: ReportDate,
  date_to: ReportDate,
  from_time: Type.Optional(ReportTime),
  to_time: Type.Optional(ReportTime),
});
export type GenerateReportBody = Static<typeof GenerateReportBodySchema>;

/** The vendor's answer: status 3 and the link that downloads the file (to its user only: the link carries its own authorisation). */
export const GenerateReportResponseSchema = Type.Object({
  status: Type.Literal(3, { description: "3: the report is made, or being made; the url downloads it" }),
  url: Type.String(),
});

/**
 * add_report_data: what a report form offers, as the vendor answers it. `devices` and
 * `geofences` are the user's records (the Device record of get_devices' `device_data`, the
 * Geofence record of get_geofences), `reports` the first page of get_reports' definitions,
 * with page links to get_reports. `filters` are the period presets a form fills its dates
 * from (0: none, the dates as entered).
 */
export const AddReportDataResponseSchema = Type.Object({
  devices: Type.Array(DeviceDataSchema),
  geofences: Type.Array(GeofenceSchema),
  formats: Type.Array(IdValue(ReportFormatSchema)),
  stops: Type.Array(IdValue(Type.Integer({ description: "minutes" }))),
  filters: Type.Array(IdValue(Type.Integer())),
  types: Type.Array(IdValue(Type.Integer({ description: "a type id of get_reports_types" }))),
  reports: Paginated(ReportSchema),
  logs: Type.Object({ sorting: Type.Object({ sort: Type.Union([Type.Literal("asc"), Type.Literal("desc")]), sort_by: Type.String() }) }),
  status: StatusOk,
});
export type AddReportDataResponse = Static<typeof AddReportDataResponseSchema>;

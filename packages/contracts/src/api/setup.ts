import { Type, type Static, type TLiteral } from "@sinclair/typebox";
import { FormBoolean, IdValue, StatusOk } from "./common.js";
import { timezones } from "./timezones.js";

/*
 * Account and setup: `edit_setup_data`, `edit_setup`, `change_password`. Option ids are
 * the ones the spec lists under "Allowed option ids".
 */

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)) as TLiteral<T>[]);

export const unitOfDistanceIds = ["km", "mi"] as const;
export const unitOfCapacityIds = ["lt", "gl"] as const;
export const unitOfAltitudeIds = ["mt", "ft"] as const;
export const requestMethodIds = ["get", "post", "app"] as const;
export const dstTypeIds = ["none", "exact", "automatic", "other"] as const;
export const monthIds = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"] as const;
export const weekdayIds = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export const weekPosIds = ["first", "last"] as const;

export type DstTypeId = (typeof dstTypeIds)[number];

const capitalised = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export const unitOfDistanceOptions = [
  { id: "km", value: "Kilometer" },
  { id: "mi", value: "Mile" },
];
export const unitOfCapacityOptions = [
  { id: "lt", value: "Liter" },
  { id: "gl", value: "Gallon" },
];
export const unitOfAltitudeOptions = [
  { id: "mt", value: "Meter" },
  { id: "ft", value: "Feet" },
];
export const requestMethodOptions = [
  { id: "get", value: "GET" },
  { id: "post", value: "POST" },
  { id: "app", value: "SMS gateway app" },
];
export const authenticationOptions = [
  { id: 0, value: "No" },
  { id: 1, value: "Yes" },
];
// The vendor's mixed id types: 0 for "no encoding", "json" for JSON.
export const encodingOptions: { id: 0 | "json"; value: string }[] = [
  { id: 0, value: "No" },
  { id: "json", value: "JSON" },
];
export const dstTypeOptions = [
  { id: "none", value: "None" },
  { id: "exact", value: "Exact date" },
  { id: "automatic", value: "Automatic" },
  { id: "other", value: "Other" },
];
export const monthOptions = monthIds.map((id) => ({ id, value: capitalised(id) }));
export const weekdayOptions = Object.fromEntries(weekdayIds.map((id) => [id, capitalised(id)])) as Record<(typeof weekdayIds)[number], string>;
export const weekPosOptions = { first: "First", last: "Last" };

/**
 * Countries whose daylight-saving rule `dst_type: automatic` can follow; ids are stable. The
 * rule texts say what each id means; the clock (user-time/dst.ts) follows `zone`, a zone of
 * the country whose switches the runtime's time-zone database knows, switching at the same
 * UTC instant (`utc`) or at the same hour of the account's own standard clock (`local`).
 */
export const dstCountries = [
  { id: 1, value: "Australia (ACT, NSW, SA, Tasmania, Victoria)", rule: "first Sunday of October 02:00 local to first Sunday of April 03:00 local", zone: "Australia/Sydney", switchesAt: "local" },
  { id: 2, value: "Canada", rule: "second Sunday of March 02:00 local to first Sunday of November 02:00 local", zone: "America/Toronto", switchesAt: "local" },
  { id: 3, value: "European Union", rule: "last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC", zone: "Europe/Brussels", switchesAt: "utc" },
  { id: 4, value: "Israel", rule: "Friday before the last Sunday of March 02:00 local to last Sunday of October 02:00 local", zone: "Asia/Jerusalem", switchesAt: "local" },
  { id: 5, value: "New Zealand", rule: "last Sunday of September 02:00 local to first Sunday of April 03:00 local", zone: "Pacific/Auckland", switchesAt: "local" },
  { id: 6, value: "Norway", rule: "last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC", zone: "Europe/Oslo", switchesAt: "utc" },
  { id: 7, value: "Switzerland", rule: "last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC", zone: "Europe/Zurich", switchesAt: "utc" },
  { id: 8, value: "United Kingdom", rule: "last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC", zone: "Europe/London", switchesAt: "utc" },
  { id: 9, value: "United States", rule: "second Sunday of March 02:00 local to first Sunday of November 02:00 local", zone: "America/New_York", switchesAt: "local" },
] as const;
export const dstCountryIds = new Set<number>(dstCountries.map((c) => c.id));

/** The account's timezone select: 0 (the default, UTC) and then the vendor's catalogue. */
export const accountTimezones = [{ id: 0, value: "UTC (default)" }, ...timezones];

// ---- edit_setup_data -----------------------------------------------------------------

/** No parameters of its own: `lang` and `user_api_hash` are every route's (see the security schemes). */
export const EditSetupDataQuerySchema = Type.Object({});

const S = Type.String();
const MapIdsSchema = Type.Object(Object.fromEntries(Array.from({ length: 9 }, (_, i) => [String(i + 1), Type.Integer()])));

/** The account record, secrets masked, timestamps `YYYY-MM-DD HH:MM:SS` in the user's timezone. */
export const AccountRecordSchema = Type.Object({
  id: Type.Integer(),
  active: Type.Integer(),
  group_id: Type.Integer(),
  manager_id: Type.Null(),
  billing_plan_id: Type.Null(),
  map_id: Type.Integer(),
  devices_limit: Type.Null({ description: "always null here, as the spec types it; get_user_data carries the limit" }),
  email: S,
  password: Type.String({ description: "masked" }),
  subscription_expiration: Type.String({ description: "0000-00-00 00:00:00 when the account never expires" }),
  loged_at: Type.String({ description: "0000-00-00 00:00:00 before the first login" }),
  api_hash: Type.String({ description: "masked" }),
  available_maps: MapIdsSchema,
  sms_gateway_app_date: S,
  sms_gateway_params: Type.Object({
    request_method: S,
    authentication: S,
    username: S,
    password: Type.Null({ description: "never returned" }),
    encoding: Type.Union([Type.Null(), Type.Literal("json")], { description: "null for no encoding" }),
  }),
  open_geofence_groups: Type.String({ description: "a JSON array of group ids as strings" }),
  open_device_groups: Type.String({ description: "a JSON array of group ids as strings" }),
  created_at: S,
  updated_at: S,
  unit_of_altitude: S,
  lang: S,
  unit_of_distance: S,
  unit_of_capacity: S,
  timezone_id: S,
  sms_gateway: Type.String({ description: "0 or 1" }),
  sms_gateway_url: S,
  week_start_day: Type.Integer({ description: "1 Monday … 7 Sunday (not in the spec's record)" }),
});
export type AccountRecord = Static<typeof AccountRecordSchema>;

/** The stored daylight-saving rule, as `edit_setup` saved it (months, week positions and weekdays as 1-based numbers). */
export const UserDstSchema = Type.Object({
  type: literals(["exact", "other", "automatic"] as const),
  date_from: Type.Optional(S),
  date_to: Type.Optional(S),
  month_from: Type.Optional(Type.Integer()),
  month_to: Type.Optional(Type.Integer()),
  week_pos_from: Type.Optional(Type.Integer()),
  week_pos_to: Type.Optional(Type.Integer()),
  week_day_from: Type.Optional(Type.Integer()),
  week_day_to: Type.Optional(Type.Integer()),
  time_from: Type.Optional(S),
  time_to: Type.Optional(S),
  dst_country_id: Type.Optional(Type.Integer()),
});
export type UserDst = Static<typeof UserDstSchema>;

export const EditSetupDataResponseSchema = Type.Object({
  item: AccountRecordSchema,
  timezones: Type.Array(IdValue(Type.Integer())),
  units_of_distance: Type.Array(IdValue(Type.String())),
  units_of_capacity: Type.Array(IdValue(Type.String())),
  units_of_altitude: Type.Array(IdValue(Type.String())),
  request_method_select: Type.Array(IdValue(Type.String())),
  authentication_select: Type.Array(IdValue(Type.Integer())),
  encoding_select: Type.Array(IdValue(Type.Union([Type.Integer(), Type.String()]))),
  dst_types: Type.Array(IdValue(Type.String())),
  months: Type.Array(IdValue(Type.String())),
  weekdays: Type.Record(Type.String(), Type.String()),
  week_pos: Type.Record(Type.String(), Type.String()),
  dst_countries: Type.Array(IdValue(Type.Integer())),
  groups: Type.Array(Type.Object({ id: Type.Integer(), title: Type.String() })),
  sms_queue_count: Type.Integer({ description: "always 0: there is no SMS queue yet" }),
  user_dst: Type.Union([Type.Null(), UserDstSchema]),
  status: StatusOk,
});
export type EditSetupDataResponse = Static<typeof EditSetupDataResponseSchema>;

// ---- edit_setup ----------------------------------------------------------------------

const Text = (max = 255) => Type.String({ maxLength: max });
/** An option given by its 1-based position in the list edit_setup_data returns, or by its id. */
const Position = <T extends string>(ids: readonly T[]) => Type.Union([Type.Integer({ minimum: 1, maximum: ids.length }), literals(ids)]);
const LocalDateTime = Type.Union([Type.String({ format: "date-time" }), Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}(:\\d{2})?$" })]);
const TimeOfDay = Type.String({ pattern: "^([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?$", description: "HH:MM or HH:MM:SS" });

export const SetupGroupSchema = Type.Object({
  // Forms send an empty hidden input for a row that has no id yet.
  id: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 2147483647 }), Type.Literal("")], { description: "the group's id; omit, 0 or empty for a new group" })),
  title: Type.String({ maxLength: 255, pattern: "\\S", description: "trimmed" }),
});
export type SetupGroup = Static<typeof SetupGroupSchema>;

/** `edit_setup` body, as the spec's table lists it. Omitted optional fields keep their stored values. */
export const EditSetupBodySchema = Type.Object({
  unit_of_distance: literals(unitOfDistanceIds),
  unit_of_capacity: literals(unitOfCapacityIds),
  unit_of_altitude: literals(unitOfAltitudeIds),
  timezone_id: Type.Integer({ minimum: 0, maximum: timezones.length, description: "0 (UTC) or a timezone id from edit_setup_data" }),
  groups: Type.Array(SetupGroupSchema, { maxItems: 1000, description: "the user's complete list of device groups; groups left out are removed" }),
  sms_gateway: FormBoolean(),
  request_method: Type.Optional(literals(requestMethodIds)),
  encoding: Type.Optional(Type.Union([Type.Literal(0), Type.Literal("json")])),
  authentication: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  username: Type.Optional(Text()),
  password: Type.Optional(Type.String({ maxLength: 255, description: "the SMS gateway's; empty keeps the stored one" })),
  auth_id: Type.Optional(Text()),
  auth_token: Type.Optional(Type.String({ maxLength: 255, description: "empty keeps the stored one" })),
  senders_phone: Type.Optional(Text(64)),
  sms_gateway_url: Type.Optional(Type.String({ maxLength: 2048, pattern: "^(https?://\\S+)?$", description: "http(s) URL, or empty" })),
  week_start_day: Type.Optional(Type.Integer({ minimum: 1, maximum: 7, description: "1 Monday … 7 Sunday" })),
  dst_type: Type.Optional(literals(dstTypeIds)),
  date_from: Type.Optional(LocalDateTime),
  date_to: Type.Optional(LocalDateTime),
  month_from: Type.Optional(Position(monthIds)),
  month_to: Type.Optional(Position(monthIds)),
  week_pos_from: Type.Optional(Position(weekPosIds)),
  week_pos_to: Type.Optional(Position(weekPosIds)),
  week_day_from: Type.Optional(Position(weekdayIds)),
  week_day_to: Type.Optional(Position(weekdayIds)),
  time_from: Type.Optional(TimeOfDay),
  time_to: Type.Optional(TimeOfDay),
  dst_country_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
});
export type EditSetupBody = Static<typeof EditSetupBodySchema>;

export const EditSetupResponseSchema = Type.Object({ status: StatusOk });

// ---- change_password -----------------------------------------------------------------

export const ChangePasswordBodySchema = Type.Object({
  password: Type.String({ minLength: 6, maxLength: 255 }),
  password_confirmation: Type.Optional(Type.String({ maxLength: 255, description: "must match password when given" })),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;

export const ChangePasswordResponseSchema = Type.Object({ status: StatusOk });

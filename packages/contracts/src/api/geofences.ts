import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { StatusOk } from "./common.js";
import { ActiveFlagSchema, MAX_CHANGE_ACTIVE_IDS, isActive, type ActiveFlag } from "./device-edit.js";

/*
 * Geofences and geofence groups, and the map-drawing pieces that routes and map icons
 * share with them: points, point lists as JSON text or arrays, colours, active toggles.
 */

/** A record id as routes take it. Ids beyond int4 pass here and are simply not found. */
export const RecordIdSchema = Type.Integer({ minimum: 1 });

/** A point as clients write it: degrees, in range. */
export const LatLngSchema = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
});
export type LatLngInput = Static<typeof LatLngSchema>;

/** A point as records return it. */
export const LatLngRecordSchema = Type.Object({ lat: Type.Number(), lng: Type.Number() });

/** `#rrggbb`, as the vendor's colour pickers send it. */
export const HexColorSchema = Type.String({ pattern: "^#[0-9a-fA-F]{6}$", maxLength: 7, description: "`#rrggbb`" });

// Room for a point written with full double precision and some whitespace.
const CHARS_PER_POINT = 100;

/**
 * A list of points: an array of `{lat, lng}` (JSON, or form fields `polygon[0][lat]`),
 * or that array as JSON text (one form field). The string branch comes first: with
 * array coercion on, an array branch tried first would wrap a string in an array.
 */
export const PointListSchema = (maxPoints: number, description: string) =>
  Type.Union([Type.String({ maxLength: maxPoints * CHARS_PER_POINT }), Type.Array(LatLngSchema, { maxItems: maxPoints })], { description });

/**
 * The points of a PointListSchema value, or undefined when JSON text does not hold a
 * list of `{lat, lng}` in range of at most `maxPoints` (arrays were checked by the schema).
 */
export function readPointList(value: string | LatLngInput[], maxPoints: number): LatLngInput[] | undefined {
  if (typeof value !== "string") return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  // Value.Check also refuses ±Infinity (1e400 in the text) through the ranges.
  if (!Array.isArray(parsed) || parsed.length > maxPoints || !Value.Check(Type.Array(LatLngSchema), parsed)) return undefined;
  return parsed.map((p) => ({ lat: p.lat, lng: p.lng }));
}

/**
 * `change_active_*`: `id` one id or a list, from the query (`id=1`, `id[]=1&id[]=2`) or a
 * POST body. `active` left out means off, as an unchecked checkbox is not sent.
 */
export const ChangeActiveSchema = Type.Object({
  id: Type.Union([RecordIdSchema, Type.Array(RecordIdSchema, { minItems: 1, maxItems: MAX_CHANGE_ACTIVE_IDS })]),
  active: Type.Optional(ActiveFlagSchema),
});
export type ChangeActive = Static<typeof ChangeActiveSchema>;

/** The ids (one or a list) and the flag of a change_active_* request. */
export function readChangeActive(input: { id: number | number[]; active?: ActiveFlag | null }): { ids: number[]; active: boolean } {
  return { ids: Array.isArray(input.id) ? input.id : [input.id], active: input.active !== undefined && input.active !== null && isActive(input.active) };
}

/** `{status: 1}`: the vendor's `success`. */
export const GeoOkSchema = Type.Object({ status: StatusOk });

/** `{status: 1, id}`: what a create answers (the vendor shows `{status}`; the id is added). */
export const GeoCreatedSchema = Type.Object({ status: StatusOk, id: Type.Integer() });

// ---- geofences ------------------------------------------------------------------------

/** Polygon points accepted in one geofence: the simplicity check is quadratic at worst. */
export const MAX_POLYGON_POINTS = 2000;
/** Circle radius bounds, in metres. */
export const MAX_RADIUS_METRES = 1_000_000;

export const GeofenceTypeSchema = Type.Union([Type.Literal("polygon"), Type.Literal("circle")]);

/** geofencePost: the fields add_geofence and edit_geofence share. */
const geofenceFields = {
  // At least one visible character: a name of blanks shows as nothing on the map.
  name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  polygon_color: HexColorSchema,
  type: GeofenceTypeSchema,
  polygon: Type.Optional(PointListSchema(MAX_POLYGON_POINTS, "required for a polygon: closed (first point = last), 3 to 1999 corners, not crossing or touching itself")),
  center: Type.Optional(Type.Object(LatLngSchema.properties, { description: "required for a circle" })),
  radius: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_METRES, description: "metres; required for a circle" })),
  group_id: Type.Optional(Type.Integer({ minimum: 0, description: "one of the user's geofence groups; 0 for none" })),
  active: Type.Optional(ActiveFlagSchema),
  speed_limit: Type.Optional(
    Type.Union([Type.Null(), Type.Number({ minimum: 0, maximum: 1000 })], {
      description: "km/h: inside, the user's overspeed alerts take this limit instead of their own; 0 or null for none; left out keeps it (edit)",
    }),
  ),
};

export const AddGeofenceBodySchema = Type.Object(geofenceFields);
export type AddGeofenceBody = Static<typeof AddGeofenceBodySchema>;

export const EditGeofenceBodySchema = Type.Object({ id: RecordIdSchema, ...geofenceFields });
export type EditGeofenceBody = Static<typeof EditGeofenceBodySchema>;

export const GeofenceIdQuerySchema = Type.Object({ geofence_id: RecordIdSchema });

const Stamp = () => Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" });

/** The Geofence record. */
export const GeofenceSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  group_id: Type.Union([Type.Null(), Type.Integer()]),
  active: Type.Union([Type.Literal(0), Type.Literal(1)]),
  name: Type.String(),
  type: GeofenceTypeSchema,
  polygon_color: Type.String(),
  coordinates: Type.String({ description: "JSON text of the polygon's points [{lat, lng}], closed; `[]` for a circle" }),
  center: Type.Object(LatLngRecordSchema.properties, { description: "a circle's centre; a polygon's bounding-box centre" }),
  radius: Type.Union([Type.Null(), Type.Number()], { description: "metres; null for a polygon" }),
  speed_limit: Type.Union([Type.Null(), Type.Number()], { description: "km/h, or null for none" }),
  created_at: Stamp(),
  updated_at: Stamp(),
});
export type GeofenceRecord = Static<typeof GeofenceSchema>;

/** A geofence group as the vendor's geofences_groups returns it. */
export const GeofenceGroupSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  title: Type.String(),
  open: Type.Boolean({ description: "always false: whether a client shows it expanded is not stored" }),
});
export type GeofenceGroupRecord = Static<typeof GeofenceGroupSchema>;

export const GetGeofencesResponseSchema = Type.Object({
  items: Type.Object({ geofences: Type.Array(GeofenceSchema), groups: Type.Array(GeofenceGroupSchema, { description: "the user's geofence groups, by id" }) }),
  status: StatusOk,
});

// ---- geofence groups ------------------------------------------------------------------

/** The vendor's `pagination` (compact: no `from`/`to`, the records are beside it). */
export const CompactPaginationSchema = Type.Object({
  total: Type.Integer(),
  per_page: Type.Integer(),
  current_page: Type.Integer(),
  last_page: Type.Integer(),
  next_page_url: Type.Union([Type.Null(), Type.String()]),
  prev_page_url: Type.Union([Type.Null(), Type.String()]),
  url: Type.String(),
});

export const geofenceGroupSortColumns = ["id", "title"] as const;

export const GeofenceGroupsQuerySchema = Type.Object({
  search_phrase: Type.Optional(Type.String({ maxLength: 255, description: "part of the title, any case" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: "per page; 10 unless given" })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  sort_by: Type.Optional(Type.Union(geofenceGroupSortColumns.map((c) => Type.Literal(c)))),
  sort: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
});
export type GeofenceGroupsQuery = Static<typeof GeofenceGroupsQuerySchema>;

export const GeofenceGroupsResponseSchema = Type.Object({ status: StatusOk, data: Type.Array(GeofenceGroupSchema), pagination: CompactPaginationSchema });

const GroupTitleSchema = Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" });
const GroupMembersSchema = Type.Array(RecordIdSchema, { maxItems: MAX_CHANGE_ACTIVE_IDS, description: "the user's geofences that make up the group (a form sends `geofences=` for none)" });

export const StoreGeofenceGroupBodySchema = Type.Object({
  title: GroupTitleSchema,
  open: Type.Optional(ActiveFlagSchema),
  geofences: Type.Optional(GroupMembersSchema),
});
export type StoreGeofenceGroupBody = Static<typeof StoreGeofenceGroupBodySchema>;

/** Fields left out keep their values; `geofences`, when given, is the complete membership. */
export const UpdateGeofenceGroupBodySchema = Type.Partial(StoreGeofenceGroupBodySchema);
export type UpdateGeofenceGroupBody = Static<typeof UpdateGeofenceGroupBodySchema>;

export const GeofenceGroupIdParamsSchema = Type.Object({ id: RecordIdSchema });

// ---- point_in_geofences ---------------------------------------------------------------

/** A point to look up, in degrees: both required. */
export const PointInGeofencesQuerySchema = Type.Object({ lat: LatLngSchema.properties.lat, lng: LatLngSchema.properties.lng });
export type PointInGeofencesQuery = Static<typeof PointInGeofencesQuerySchema>;

export const PointInGeofencesResponseSchema = Type.Object({
  status: StatusOk,
  zones: Type.Array(Type.String(), { description: "the names of the user's active geofences holding the point, by geofence id" }),
});

import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { StatusOk } from "./common.js";
import { LatLngSchema, RecordIdSchema } from "./geofences.js";

export * from "./map-icon-catalogue.js";

/** A catalogue entry (`mapIcon`). */
export const MapIconSchema = Type.Object({
  id: Type.Integer(),
  path: Type.String(),
  width: Type.Union([Type.String(), Type.Number()]),
  height: Type.Union([Type.String(), Type.Number()]),
});

export const GetMapIconsResponseSchema = Type.Object({ items: Type.Array(MapIconSchema), status: StatusOk });

/** mapIconPost: the fields add_map_icon and edit_map_icon share. */
const mapIconFields = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  map_icon_id: Type.Integer({ minimum: 1, description: "an id of get_map_icons" }),
  // The string branch first (see PointListSchema): the record returns this as JSON text,
  // so a client may send back what it read.
  coordinates: Type.Union([Type.String({ maxLength: 200 }), LatLngSchema], { description: "{lat, lng}, or that object as JSON text" }),
};

export const AddMapIconBodySchema = Type.Object(mapIconFields);
export type AddMapIconBody = Static<typeof AddMapIconBodySchema>;

/** Like add_map_icon; a description left out keeps its value. */
export const EditMapIconBodySchema = Type.Object({ id: RecordIdSchema, ...mapIconFields });
export type EditMapIconBody = Static<typeof EditMapIconBodySchema>;

export const MapIconIdQuerySchema = Type.Object({ map_icon_id: RecordIdSchema });

/** The User map icon record. */
export const UserMapIconSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  map_icon_id: Type.Integer(),
  active: Type.Union([Type.Literal(0), Type.Literal(1)]),
  name: Type.String(),
  description: Type.String(),
  coordinates: Type.String({ description: "JSON text of {lat, lng}" }),
  created_at: Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" }),
  updated_at: Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" }),
  map_icon: MapIconSchema,
});
export type UserMapIconRecord = Static<typeof UserMapIconSchema>;

export const GetUserMapIconsResponseSchema = Type.Object({ items: Type.Object({ mapIcons: Type.Array(UserMapIconSchema) }), status: StatusOk });

/** The point of a `coordinates` value, or undefined when JSON text does not hold `{lat, lng}` in range. */
export function readMapIconPoint(value: string | Static<typeof LatLngSchema>): Static<typeof LatLngSchema> | undefined {
  if (typeof value !== "string") return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  return Value.Check(LatLngSchema, parsed) ? { lat: parsed.lat, lng: parsed.lng } : undefined;
}

import { Type, type Static, type TArray, type TInteger, type TOptional } from "@sinclair/typebox";
import { MAX_CHANGE_ACTIVE_IDS } from "./device-edit.js";
import { GeofenceGroupIdParamsSchema, GeofenceGroupSchema, GeofenceGroupsQuerySchema, GeofenceGroupsResponseSchema, RecordIdSchema, StoreGeofenceGroupBodySchema, geofenceGroupSortColumns } from "./geofences.js";

/*
 * The vendor's other groups: of devices (`devices_groups`), routes (`routes_groups`) and
 * map icons (`pois_groups`: the vendor's POIs are the user map icons). Each is the
 * geofence group's record, list and writes, with the members named after their kind.
 */

/** A group as the vendor's `*_groups` lists return it. */
export const GroupSchema = GeofenceGroupSchema;
export type GroupRecord = Static<typeof GroupSchema>;

const SortSchema = Type.Union([Type.Literal("asc"), Type.Literal("desc")]);

/**
 * geofences_groups' query, plus what the devices_groups swagger shows: the sort as
 * `sorting[sort_by]` / `sorting[sort]`, and `filter[id]` / `filter[title]` (exact; a title
 * in any case). Unknown filter keys are refused rather than silently not applied.
 */
export const GroupsQuerySchema = Type.Object({
  ...GeofenceGroupsQuerySchema.properties,
  sorting: Type.Optional(
    Type.Object({
      sort_by: Type.Optional(Type.Union(geofenceGroupSortColumns.map((c) => Type.Literal(c)))),
      sort: Type.Optional(SortSchema),
    }),
  ),
  filter: Type.Optional(
    Type.Object(
      {
        id: Type.Optional(RecordIdSchema),
        title: Type.Optional(Type.String({ maxLength: 255 })),
      },
      { additionalProperties: false, description: "exact matches: filter[id], filter[title] (any case)" },
    ),
  ),
});
export type GroupsQuery = Static<typeof GroupsQuerySchema>;

export const GroupsResponseSchema = GeofenceGroupsResponseSchema;

export const GroupIdParamsSchema = GeofenceGroupIdParamsSchema;

type MemberField<K extends string> = Record<K, TOptional<TArray<TInteger>>>;

/**
 * The store and update bodies of a kind of group whose members the request names `member`
 * (`devices`, `routes`, `pois`): `{title, open, <member>: [ids]}`. On update, fields left
 * out keep their values, and the member list, when given, is the complete membership.
 */
function groupBodies<K extends string>(member: K, description: string) {
  const { title, open } = StoreGeofenceGroupBodySchema.properties;
  const members = { [member]: Type.Optional(Type.Array(RecordIdSchema, { maxItems: MAX_CHANGE_ACTIVE_IDS, description })) } as MemberField<K>;
  const store = Type.Object({ title, open, ...members });
  return { store, update: Type.Partial(store) };
}

const deviceGroupBodies = groupBodies("devices", "the user's devices that make up the group (a form sends `devices=` for none)");
export const StoreDeviceGroupBodySchema = deviceGroupBodies.store;
export type StoreDeviceGroupBody = Static<typeof StoreDeviceGroupBodySchema>;
export const UpdateDeviceGroupBodySchema = deviceGroupBodies.update;
export type UpdateDeviceGroupBody = Static<typeof UpdateDeviceGroupBodySchema>;

const routeGroupBodies = groupBodies("routes", "the user's routes that make up the group (a form sends `routes=` for none)");
export const StoreRouteGroupBodySchema = routeGroupBodies.store;
export type StoreRouteGroupBody = Static<typeof StoreRouteGroupBodySchema>;
export const UpdateRouteGroupBodySchema = routeGroupBodies.update;
export type UpdateRouteGroupBody = Static<typeof UpdateRouteGroupBodySchema>;

const poiGroupBodies = groupBodies("pois", "the user's map icons (ids of get_user_map_icons) that make up the group (a form sends `pois=` for none)");
export const StorePoiGroupBodySchema = poiGroupBodies.store;
export type StorePoiGroupBody = Static<typeof StorePoiGroupBodySchema>;
export const UpdatePoiGroupBodySchema = poiGroupBodies.update;
export type UpdatePoiGroupBody = Static<typeof UpdatePoiGroupBodySchema>;

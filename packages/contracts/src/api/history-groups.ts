import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { HistoryRangeFields } from "../user-time/range.js";
import { FormBoolean, StatusOk } from "./common.js";
import { DeviceDataSchema } from "./devices.js";
import { DriverSchema } from "./drivers.js";

/* get_history: a device's track in the vendor's groups, in the user's units and timezone. */

export const GetHistoryQuerySchema = Type.Object({
  ...HistoryRangeFields,
  snap_to_road: Type.Optional(FormBoolean({ description: "accepted and ignored: positions are shown as recorded" })),
  stops: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, description: "seconds standing before a stop is a stop (default 180)" })),
});
export type GetHistoryQuery = Static<typeof GetHistoryQuerySchema>;

/** `{id, value}` of one reading at a position: `speed`, `altitude`, or `sensor_<id>`. */
export const HistorySensorDataSchema = Type.Object({ id: Type.String(), value: Type.Union([Type.String(), Type.Number()], { description: "a number, 1/0 for on/off, or \"-\" when unknown" }) });

/** A position in a group (the spec's position fields), in the user's units and timezone. */
export const HistoryGroupItemSchema = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  item_id: Type.String({ description: "`i` and the position id" }),
  time: Type.String({ description: "fix time, YYYY-MM-DD HH:MM:SS on the user's clock" }),
  raw_time: Type.String(),
  server_time: Type.String(),
  sort: Type.Integer({ description: "fix time, unix seconds" }),
  latitude: Type.Number(),
  longitude: Type.Number(),
  lat: Type.Number(),
  lng: Type.Number(),
  altitude: Type.Number({ description: "m or ft" }),
  course: Type.Number(),
  speed: Type.Number({ description: "km/h or mph" }),
  distance: Type.Number({ description: "km or mi from the position before" }),
  power: Type.Union([Type.Number(), Type.Null()]),
  valid: Type.String({ description: "1 or 0" }),
  protocol: Type.String(),
  other: Type.String({ description: "the attributes as the vendor's <info> XML" }),
  other_arr: Type.Array(Type.String(), { description: "`key: value` per attribute" }),
  sensors_data: Type.Array(HistorySensorDataSchema),
});
export type HistoryGroupItem = Static<typeof HistoryGroupItemSchema>;

/** Group statuses: 1 drive, 2 stop, 3 start, 4 end, 5 event. */
export const HistoryGroupSchema = Type.Object({
  status: Type.Integer({ minimum: 1, maximum: 5 }),
  time: Type.Union([Type.String(), Type.Null()], { description: "the group's duration (\"1h 5min\"); null for start, end and events" }),
  show: Type.String({ description: "when the group starts" }),
  left: Type.String({ description: "when the group ends" }),
  raw_time: Type.String(),
  time_seconds: Type.Integer(),
  distance: Type.Number({ description: "km or mi" }),
  top_speed: Type.Integer({ description: "km/h or mph" }),
  average_speed: Type.Integer({ description: "km/h or mph" }),
  engine_work: Type.Integer({ description: "seconds of engine time moving" }),
  engine_idle: Type.Integer({ description: "seconds of engine time standing" }),
  engine_hours: Type.Integer({ description: "seconds of engine time" }),
  fuel_consumption: Type.Number({ description: "in the fuel sensor's unit; 0 without one" }),
  driver: Type.Optional(DriverSchema),
  message: Type.Optional(Type.String({ description: "an event's message (status 5)" })),
  items: Type.Array(HistoryGroupItemSchema),
});
export type HistoryGroup = Static<typeof HistoryGroupSchema>;

const IdValueOf = (id: TSchema) => Type.Object({ id, value: Type.String() });

export const HistorySensorColumnSchema = Type.Object({ id: Type.String(), name: Type.String(), sufix: Type.String({ description: "the unit, spelled as the vendor spells the field" }) });

export const GetHistoryResponseSchema = Type.Object({
  items: Type.Array(HistoryGroupSchema),
  distance_sum: Type.String(),
  top_speed: Type.String(),
  move_duration: Type.String(),
  stop_duration: Type.String(),
  fuel_consumption: Type.String(),
  device: DeviceDataSchema,
  sensors: Type.Array(HistorySensorColumnSchema),
  item_class: Type.Array(IdValueOf(Type.Integer())),
  images: Type.Array(IdValueOf(Type.Integer())),
  sensors_values: Type.Array(Type.Object({})),
  fuel_consumption_arr: Type.Array(Type.Object({})),
  status: StatusOk,
});
export type GetHistoryResponse = Static<typeof GetHistoryResponseSchema>;

/** The vendor's names of get_history's group statuses (`item_class`), 1 drive to 5 event. */
export const ROUTE_STATUS_NAMES = ["drive", "stop", "start", "end", "event"] as const;
export type RouteStatusName = (typeof ROUTE_STATUS_NAMES)[number];
/** The marker image get_history's `images` names for a status; the API serves it (@fleet/map-images). */
export const routeMarkerPath = (status: RouteStatusName) => `assets/images/route_${status}.png`;

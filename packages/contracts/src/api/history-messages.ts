import { Type, type Static } from "@sinclair/typebox";
import { HistoryRangeFields } from "../user-time/range.js";
import { StatusOk } from "./common.js";
import { Paginated } from "./pagination.js";
import { SensorRecordSchema } from "./sensors.js";

/*
 * The raw positions of a device's history (get_history_messages), deleting some of them
 * (delete_history_positions), and the range as a file (export_history, beyond the vendor).
 */

/** The page sizes get_history_messages takes; `pagination_limits` lists them. */
export const HISTORY_PAGE_LIMITS = [50, 100, 200, 400] as const;
export const DEFAULT_HISTORY_PAGE_LIMIT = 50;

export const GetHistoryMessagesQuerySchema = Type.Object({
  ...HistoryRangeFields,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "1 unless given" })),
  limit: Type.Optional(Type.Integer({ enum: [...HISTORY_PAGE_LIMITS], description: "rows per page: 50 (the default), 100, 200 or 400" })),
});
export type GetHistoryMessagesQuery = Static<typeof GetHistoryMessagesQuerySchema>;

const S = Type.String();

/** The spec's History position record, typed as the vendor's example has each field. */
export const HistoryPositionSchema = Type.Object({
  id: Type.String(),
  device_id: Type.String(),
  altitude: Type.Number({ description: "in the user's altitude unit (m or ft)" }),
  course: S,
  latitude: S,
  longitude: S,
  other: Type.String({ description: "the attributes as the vendor's <info> XML" }),
  power: Type.Union([Type.Null(), S], { description: "the power attribute, if the fix carries one" }),
  speed: Type.Number({ description: "in the user's distance unit per hour" }),
  time: Type.String({ description: "the fix time on the user's clock" }),
  server_time: Type.String({ description: "when the server received it, on the user's clock" }),
  valid: Type.String({ description: "1 or 0" }),
  distance: Type.String({ description: "from the previous fix, in the user's distance unit" }),
  protocol: S,
  sensor_id: Type.String({ description: "the position id again, as in the vendor's example" }),
  sort: Type.Integer({ description: "the fix time in unix seconds" }),
  other_arr: Type.Array(S, { description: "`key: value` per attribute" }),
  popup_sensors: Type.Record(S, Type.Object({ name: S, value: S }), { description: "the sensors shown in the popup, by sensor id, read at this fix" }),
  sensors_value: Type.Record(S, S, { description: "every sensor's reading at this fix, by sensor id" }),
});
export type HistoryPosition = Static<typeof HistoryPositionSchema>;

/** The pagination wrapper with from/to always numbers (0 on an empty page), as the spec and the Swagger type them. */
const MessagesPageSchema = Type.Object({
  ...Paginated(HistoryPositionSchema).properties,
  from: Type.Integer(),
  to: Type.Integer(),
});

export const GetHistoryMessagesResponseSchema = Type.Object({
  messages: MessagesPageSchema,
  sensors: Type.Array(SensorRecordSchema),
  pagination_limits: Type.Record(S, Type.Integer()),
  limit: Type.Integer(),
  sorting: Type.Literal("asc"),
  status: StatusOk,
});
export type GetHistoryMessagesResponse = Static<typeof GetHistoryMessagesResponseSchema>;

/** At most this many positions per delete_history_positions: one statement, so all or none. */
export const MAX_DELETE_POSITION_IDS = 5000;
const PositionIdSchema = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** `id`: one position id or a list, in a JSON or form body (`id=1`, `id[]=1&id[]=2`). */
/** `id` is optional in the spec and the Swagger: left out, nothing is selected and nothing goes. */
export const DeleteHistoryPositionsBodySchema = Type.Object({
  id: Type.Optional(Type.Union([PositionIdSchema, Type.Array(PositionIdSchema, { minItems: 1, maxItems: MAX_DELETE_POSITION_IDS })])),
});
export type DeleteHistoryPositionsBody = Static<typeof DeleteHistoryPositionsBodySchema>;

/** The Swagger's device_id: when given, only that device's positions go (it must be the user's). */
export const DeleteHistoryPositionsQuerySchema = Type.Object({
  device_id: Type.Optional(HistoryRangeFields.device_id),
});

export const DeleteHistoryPositionsResponseSchema = Type.Object({ status: StatusOk });

export const HISTORY_EXPORT_FORMATS = ["gpx", "kml", "csv"] as const;
export type HistoryExportFormat = (typeof HISTORY_EXPORT_FORMATS)[number];

export const ExportHistoryQuerySchema = Type.Object({
  ...HistoryRangeFields,
  format: Type.Union(
    HISTORY_EXPORT_FORMATS.map((f) => Type.Literal(f)),
    { description: "gpx (GPX 1.1 track), kml (KML 2.2 gx:Track, for Google Earth) or csv" },
  ),
});
export type ExportHistoryQuery = Static<typeof ExportHistoryQuerySchema>;

/** The file, streamed (a Node stream, which fastify sends without serialising); declared so the route documents its answer. */
export const ExportHistoryResponseSchema = Type.Unsafe<unknown>(Type.String({ description: "the file, as an attachment (Content-Disposition)" }));

import { Type, type Static } from "@sinclair/typebox";
import { EVENT_TYPE_NAMES } from "../event-types.js";
import { StatusOk } from "./common.js";
import { PageQuery, Paginated } from "./pagination.js";
import { protocols } from "./protocols.js";
import { TaskDateTimeSchema } from "./tasks.js";

const RecordId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** get_events' page size unless the request gives one (the spec's example shows 30). */
export const EVENTS_PER_PAGE = 30;

/**
 * The spec's Event record, plus its `type` (one of EVENT_TYPES), which the vendor's records
 * carry too. A link the event lacks (no geofence, no alert, no position) is 0: the Swagger
 * types those ids as integers.
 */
export const EventSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  device_id: Type.Integer(),
  geofence_id: Type.Integer(),
  position_id: Type.Integer(),
  alert_id: Type.Integer(),
  type: Type.String(),
  message: Type.String(),
  address: Type.String(),
  /** The position's fix time, `YYYY-MM-DD HH:MM:SS` in the user's timezone. */
  time: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  /** In the user's units: km/h or mph, m or ft. */
  speed: Type.Number(),
  altitude: Type.Number(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  course: Type.Union([Type.Null(), Type.Number()]),
  power: Type.Union([Type.Null(), Type.Number()]),
  /** Always 0: destroy_events deletes rows rather than flagging them. */
  deleted: Type.Integer(),
  /** 1 when the alert that recorded it had its sound / push notification on: a client polling events plays a sound / pushes. Flags as integers, like `deleted`. */
  sound: Type.Union([Type.Literal(0), Type.Literal(1)]),
  push: Type.Union([Type.Literal(0), Type.Literal(1)]),
});
export type EventItem = Static<typeof EventSchema>;

const Named = Type.Object({ id: Type.Integer(), name: Type.String() });

/** An Event in get_devices_latest's `events`: with its geofence (`{id: 0, name: ""}` when none) and device. */
export const LiveEventSchema = Type.Composite([EventSchema, Type.Object({ geofence: Named, device: Named })]);
export type LiveEvent = Static<typeof LiveEventSchema>;

/**
 * A date (`YYYY-MM-DD`, the whole day) or a date-time, in the user's timezone unless it names
 * an offset; empty is none. What get_events, get_alerts_summary and an alert's time period read.
 */
export const UserDateSchema = Type.String({
  maxLength: 32,
  pattern: `^$|^\\d{4}-\\d{2}-\\d{2}$|${TaskDateTimeSchema.pattern}`,
  description: "YYYY-MM-DD (the whole day) or YYYY-MM-DD HH:MM:SS in the user's timezone, or ISO 8601 with Z or ±HH:MM",
});

export const GetEventsQuerySchema = Type.Object({
  device_id: Type.Optional(RecordId),
  type: Type.Optional(Type.Union([Type.Literal(""), ...EVENT_TYPE_NAMES.map((t) => Type.Literal(t))], { description: "one of the event types; empty for any" })),
  date_from: Type.Optional(UserDateSchema),
  date_to: Type.Optional(UserDateSchema),
  search: Type.Optional(Type.String({ maxLength: 255, description: "text found in the message, the device's name or the address" })),
  ...PageQuery,
});
export type GetEventsQuery = Static<typeof GetEventsQuerySchema>;

export const GetEventsResponseSchema = Type.Object({ status: StatusOk, items: Paginated(EventSchema) });

export const DestroyEventsResponseSchema = Type.Object({ status: StatusOk });

export const EventsByProtocolQuerySchema = Type.Object({
  protocol: Type.Union(
    protocols.map((p) => Type.Literal(p)),
    { description: "one of get_protocols' protocols" },
  ),
  type: Type.Integer({ minimum: 1, maximum: 2, description: "1 the user's custom events, 2 system events (add_alert_data's event_types)" }),
});

const Option = Type.Object({ id: Type.Integer(), value: Type.String(), title: Type.String() });

/**
 * get_events_by_protocol, as the vendor's Swagger shapes it: keyed by position (`"0"`,
 * `"1"`...), each `{id: position, value: option, title: option}` where the option is the
 * event `{id, value: message, title: message}`; and `status`.
 */
export const EventsByProtocolResponseSchema = Type.Object({ status: StatusOk }, { additionalProperties: Type.Object({ id: Type.Integer(), value: Option, title: Option }) });

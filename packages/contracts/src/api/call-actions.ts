import { Type, type Static } from "@sinclair/typebox";
import { StatusOk } from "./common.js";
import { RecordIdSchema } from "./geofences.js";
import { PageQuery, PaginationCompactSchema } from "./pagination.js";
import { TaskDateTimeSchema } from "./tasks.js";

/*
 * The vendor's call actions: an operator's log of the calls made about a user's devices
 * (often about an event an alert raised), with whether anyone answered.
 */

/** get_call_actions/response_types, with the vendor's names and titles. */
export const CALL_RESPONSE_TYPES = [
  { type: "answer", title: "Answer" },
  { type: "no_answer", title: "No answer" },
  { type: "no_response", title: "No response" },
] as const;
export type CallResponseTypeName = (typeof CALL_RESPONSE_TYPES)[number]["type"];
export const callResponseTypeNames = CALL_RESPONSE_TYPES.map((t) => t.type) as [CallResponseTypeName, ...CallResponseTypeName[]];

/** A call action as the vendor's `call_action` definition has it; `event_id` and `alert_id` are left out when it names none. */
export const CallActionSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  device_id: Type.Integer(),
  event_id: Type.Optional(Type.Integer()),
  alert_id: Type.Optional(Type.Integer()),
  called_at: Type.String({ description: "in the user's timezone" }),
  response_type: Type.Union(callResponseTypeNames.map((t) => Type.Literal(t))),
  remarks: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type CallActionRecord = Static<typeof CallActionSchema>;

const fields = {
  device_id: RecordIdSchema,
  event_id: Type.Optional(Type.Integer({ minimum: 1, description: "one of the user's events of that device" })),
  alert_id: Type.Optional(RecordIdSchema),
  called_at: Type.Optional(TaskDateTimeSchema),
  response_type: Type.Union(callResponseTypeNames.map((t) => Type.Literal(t)), { description: callResponseTypeNames.join(", ") }),
  remarks: Type.Optional(Type.String({ maxLength: 5000 })),
};

/** The store body: the device and the response are required; called_at is now when left out. */
export const CallActionBodySchema = Type.Object(fields);
export type CallActionBody = Static<typeof CallActionBodySchema>;
/** The update body: fields left out keep their values. */
export const CallActionUpdateBodySchema = Type.Partial(CallActionBodySchema);
export type CallActionUpdateBody = Static<typeof CallActionUpdateBodySchema>;

export const CallActionIdParamsSchema = Type.Object({ id: RecordIdSchema });

export const CallActionsQuerySchema = Type.Object({ ...PageQuery, device_id: Type.Optional(RecordIdSchema) });

export const CallActionsResponseSchema = Type.Object({ status: StatusOk, data: Type.Array(CallActionSchema), pagination: PaginationCompactSchema });

export const CallActionResponseSchema = Type.Object({ status: StatusOk, ...CallActionSchema.properties });

const TypeTitle = Type.Object({ type: Type.String(), title: Type.String() });
export const CallActionTypesResponseSchema = Type.Object({ status: StatusOk, types: Type.Array(TypeTitle) });

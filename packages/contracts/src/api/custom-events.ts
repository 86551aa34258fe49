import { Type, type Static } from "@sinclair/typebox";
import { FormBoolean, IdValue, StatusOk } from "./common.js";
import { PageQuery, Paginated } from "./pagination.js";
import { protocols } from "./protocols.js";

const RecordId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** Condition types by id, with the vendor's labels: 1 equals, 2 greater than, 3 less than. */
export const CustomEventConditionTypes = [
  { id: "1", value: "Equals to (=)" },
  { id: "2", value: "Greater than (>)" },
  { id: "3", value: "Less than (<)" },
] as const;

/** The protocol option list of custom events (and of alerts' event protocols). */
export const ProtocolOptions = protocols.map((p) => ({ id: p, value: p }));

/** More conditions than this on one event is a mistake, not a rule. */
export const MAX_CUSTOM_EVENT_CONDITIONS = 20;
/** Ingest keeps attribute keys up to 64 characters. */
export const MAX_CONDITION_TAG_LENGTH = 64;

/**
 * An attribute key as a person may type it ("Battery Level", "io239"), normalised like
 * ingest's keys (lower case, other runs → `_`); other characters are refused, not mangled.
 */
const Tag = Type.String({ minLength: 1, maxLength: MAX_CONDITION_TAG_LENGTH, pattern: "^[A-Za-z0-9 ._-]+$", description: "an attribute key: letters, digits, spaces, `.`, `_`, `-`; stored lower-case with other runs as `_`" });
const ConditionType = Type.Integer({ minimum: 1, maximum: 3, description: "1 equals, 2 greater than, 3 less than" });
const TagValue = Type.String({ maxLength: 255, description: "a number for types 2 and 3" });
const upTo = { maxItems: MAX_CUSTOM_EVENT_CONDITIONS };

/** customEventPost: the conditions as the spec's parallel arrays, or as `conditions` objects (not both). */
const customEventFields = {
  protocol: Type.Union(
    protocols.map((p) => Type.Literal(p)),
    { description: "one of add_custom_event_data's protocols" },
  ),
  message: Type.String({ minLength: 1, maxLength: 1000, pattern: "\\S" }),
  tag: Type.Optional(Type.Array(Tag, upTo)),
  type: Type.Optional(Type.Array(ConditionType, upTo)),
  tag_value: Type.Optional(Type.Array(TagValue, upTo)),
  conditions: Type.Optional(Type.Array(Type.Object({ tag: Tag, type: ConditionType, tag_value: TagValue }), upTo)),
  show_always: Type.Optional(FormBoolean({ description: "raise the event on every matching position, not only when the conditions start to hold" })),
};

export const AddCustomEventBodySchema = Type.Object(customEventFields);
export type AddCustomEventBody = Static<typeof AddCustomEventBodySchema>;
export const EditCustomEventBodySchema = Type.Object({ id: RecordId, ...customEventFields });
export type EditCustomEventBody = Static<typeof EditCustomEventBodySchema>;

export const CustomEventIdQuerySchema = Type.Object({ custom_event_id: RecordId });
export const GetCustomEventsQuerySchema = Type.Object({ ...PageQuery });

export const CustomEventConditionSchema = Type.Object({ tag: Type.String(), type: Type.String(), tag_value: Type.String() });

/** A custom event in get_custom_events: ids and flags as strings, as the vendor's list shows them. */
export const CustomEventListItemSchema = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  protocol: Type.String(),
  conditions: Type.Array(CustomEventConditionSchema),
  message: Type.String(),
  always: Type.Union([Type.Literal("0"), Type.Literal("1")]),
  tags: Type.Array(Type.Object({ event_custom_id: Type.String(), tag: Type.String() })),
});
export type CustomEventListItem = Static<typeof CustomEventListItemSchema>;

/** A custom event in edit_custom_event_data: integers, as the vendor's item shows them. */
export const CustomEventItemSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  protocol: Type.String(),
  conditions: Type.Array(CustomEventConditionSchema),
  message: Type.String(),
  always: Type.Union([Type.Literal(0), Type.Literal(1)]),
});
export type CustomEventItem = Static<typeof CustomEventItemSchema>;

const optionLists = { protocols: Type.Array(IdValue(Type.String())), types: Type.Array(IdValue(Type.String())) };

export const GetCustomEventsResponseSchema = Type.Object({ items: Type.Object({ events: Paginated(CustomEventListItemSchema) }), status: StatusOk });
export const AddCustomEventDataResponseSchema = Type.Object({ ...optionLists, status: StatusOk });
export const EditCustomEventDataResponseSchema = Type.Object({ item: CustomEventItemSchema, ...optionLists, status: StatusOk });
/** add_custom_event (not shown by the spec): `{status: 1}` plus the new id, as add_service answers. */
export const AddCustomEventResponseSchema = Type.Object({ status: StatusOk, id: Type.Integer() });
export const CustomEventOkResponseSchema = Type.Object({ status: StatusOk });

/** get_custom_events_by_device: the devices in the query (GET, `devices[]=1`) or the body (POST). */
export const CustomEventsByDeviceSchema = Type.Object({ devices: Type.Optional(Type.Array(RecordId, { maxItems: 10_000 })) });

/** One protocol's custom events: key and name are the protocol, items the events by id and message. */
export const CustomEventsByDeviceResponseSchema = Type.Array(Type.Object({ key: Type.String(), name: Type.String(), items: Type.Array(IdValue(Type.Integer())) }));

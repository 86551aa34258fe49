import {
  AddCustomEventBodySchema,
  AddCustomEventDataResponseSchema,
  AddCustomEventResponseSchema,
  CustomEventConditionTypes,
  CustomEventIdQuerySchema,
  CustomEventOkResponseSchema,
  CustomEventsByDeviceResponseSchema,
  CustomEventsByDeviceSchema,
  EditCustomEventBodySchema,
  EditCustomEventDataResponseSchema,
  FailureResponses,
  GetCustomEventsQuerySchema,
  GetCustomEventsResponseSchema,
  ProtocolOptions,
  isTruthy,
  type AddCustomEventBody,
  type CustomEventItem,
  type CustomEventListItem,
} from "@fleet/contracts";
import {
  createCustomEvent,
  destroyCustomEvent,
  findUserCustomEvent,
  listCustomEventsByProtocol,
  listDriverDeviceChoices,
  listUserCustomEvents,
  updateCustomEvent,
  type CustomEvent,
  type CustomEventCondition,
  type CustomEventInput,
  type User,
} from "@fleet/db";
import { attributeKey, toNumber } from "@fleet/sensors";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { currentUser } from "../plugins/app/auth.js";

type Errors = Record<string, string>;
type Checked<T> = { ok: true; value: T } | { ok: false; errors: Errors };

const options = { protocols: ProtocolOptions, types: CustomEventConditionTypes.map((t) => ({ ...t })) };

const conditionsOut = (e: CustomEvent) => e.conditions.map((c) => ({ tag: c.tag, type: String(c.type), tag_value: c.tag_value }));

function listItem(e: CustomEvent): CustomEventListItem {
  const tags = [...new Set(e.conditions.map((c) => c.tag))];
  return {
    id: String(e.id),
    user_id: String(e.userId),
    protocol: e.protocol,
    conditions: conditionsOut(e),
    message: e.message,
    always: e.always ? "1" : "0",
    tags: tags.map((tag) => ({ event_custom_id: String(e.id), tag })),
  };
}

function item(e: CustomEvent): CustomEventItem {
  return { id: e.id, user_id: e.userId, protocol: e.protocol, conditions: conditionsOut(e), message: e.message, always: e.always ? 1 : 0 };
}

/**
 * The conditions of a customEventPost, from the spec's parallel `tag[]`/`type[]`/`tag_value[]`
 * or from JSON-style `conditions` objects. Tags are normalised as ingest normalises attribute
 * keys, so a condition names the key positions really carry; values are trimmed.
 */
function checkConditions(b: AddCustomEventBody): Checked<CustomEventCondition[]> {
  const parallel = b.tag !== undefined || b.type !== undefined || b.tag_value !== undefined;
  if (parallel && b.conditions !== undefined) return { ok: false, errors: { conditions: "Send the conditions either as conditions or as tag, type and tag_value, not both." } };
  let raw: { tag: string; type: number; tag_value: string; key(field: string): string }[];
  if (b.conditions !== undefined) {
    raw = b.conditions.map((c, i) => ({ ...c, key: (f) => `conditions.${i}.${f}` }));
  } else {
    const [tags, types, values] = [b.tag ?? [], b.type ?? [], b.tag_value ?? []];
    if (types.length !== tags.length || values.length !== tags.length) return { ok: false, errors: { tag: "The tag, type and tag value lists must have the same length." } };
    raw = tags.map((tag, i) => ({ tag, type: types[i]!, tag_value: values[i]!, key: (f) => `${f}.${i}` }));
  }
  if (raw.length === 0) return { ok: false, errors: { [b.conditions !== undefined ? "conditions" : "tag"]: "At least one condition is required." } };
  const errors: Errors = {};
  const conditions = raw.map((c): CustomEventCondition => {
    const tag = attributeKey(c.tag);
    const value = c.tag_value.trim();
    if (tag === "") errors[c.key("tag")] = "The tag must name a position attribute (letters, digits, _ or -).";
    if (value === "") errors[c.key("tag_value")] = "The tag value field is required.";
    else if (c.type !== 1 && toNumber(value) === null) errors[c.key("tag_value")] = "The tag value must be a number for greater than and less than.";
    return { tag, type: c.type as 1 | 2 | 3, tag_value: value };
  });
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: conditions };
}

function customEventInput(b: AddCustomEventBody): Checked<CustomEventInput> {
  const checked = checkConditions(b);
  if (!checked.ok) return checked;
  return { ok: true, value: { protocol: b.protocol, message: b.message, conditions: checked.value, always: isTruthy(b.show_always) } };
}

export const customEventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live } = app.services;
  const tags = ["Custom event"];

  app.get(
    "/get_custom_events",
    { schema: { tags, summary: "The user's custom events, a page at a time, by id", querystring: GetCustomEventsQuerySchema, response: { 200: GetCustomEventsResponseSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const page = pageRequest(req.query);
      const { total, events } = await listUserCustomEvents(db, user.id, pageWindow(page));
      return { items: { events: paginate(req, page, total, events.map(listItem)) }, status: 1 as const };
    },
  );

  app.get("/add_custom_event_data", { schema: { tags, summary: "Protocols and condition types, to create a custom event", response: { 200: AddCustomEventDataResponseSchema, ...FailureResponses } } }, async () => ({
    ...options,
    status: 1 as const,
  }));

  app.post(
    "/add_custom_event",
    { schema: { tags, summary: "Create a custom event: conditions on a protocol's position attributes", body: AddCustomEventBodySchema, response: { 200: AddCustomEventResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const input = customEventInput(req.body);
      if (!input.ok) return reply.code(422).send({ status: 0, errors: input.errors });
      const created = await createCustomEvent(db, currentUser(req).id, input.value);
      return { status: 1 as const, id: created.id };
    },
  );

  app.get(
    "/edit_custom_event_data",
    { schema: { tags, summary: "A custom event, protocols and condition types", querystring: CustomEventIdQuerySchema, response: { 200: EditCustomEventDataResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const found = await findUserCustomEvent(db, currentUser(req).id, req.query.custom_event_id);
      if (!found) return notFound(reply, "Custom event");
      return { item: item(found), ...options, status: 1 as const };
    },
  );

  app.post(
    "/edit_custom_event",
    {
      schema: {
        tags,
        summary: "Rewrite a custom event's protocol, message and conditions; show_always left out keeps its value",
        body: EditCustomEventBodySchema,
        response: { 200: CustomEventOkResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      // The record first: another user's id answers 404 whatever else the body holds.
      if (!(await findUserCustomEvent(db, user.id, req.body.id))) return notFound(reply, "Custom event");
      const input = customEventInput(req.body);
      if (!input.ok) return reply.code(422).send({ status: 0, errors: input.errors });
      if (!(await updateCustomEvent(db, user.id, req.body.id, input.value))) return notFound(reply, "Custom event");
      return { status: 1 as const };
    },
  );

  app.get(
    "/destroy_custom_event",
    { schema: { tags, summary: "Delete a custom event; alerts naming it no longer list it", querystring: CustomEventIdQuerySchema, response: { 200: CustomEventOkResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      if (!(await destroyCustomEvent(db, currentUser(req).id, req.query.custom_event_id))) return notFound(reply, "Custom event");
      return { status: 1 as const };
    },
  );

  /**
   * The user's custom events grouped by protocol: all of them without `devices`, else those
   * of the protocols the devices report (their live state's protocol; a device that never
   * reported adds none).
   */
  const byDevice = async (user: User, deviceIds: number[] | undefined, reply: FastifyReply) => {
    let protocolNames: string[] | undefined;
    if (deviceIds !== undefined) {
      const owned = await listDriverDeviceChoices(db, user.id);
      if (!deviceIds.every((id) => owned.has(id))) return reply.code(422).send({ status: 0 as const, errors: { devices: "The selected devices are invalid." } });
      const states = await live.getStates([...new Set(deviceIds)]);
      protocolNames = [...new Set([...states.values()].map((s) => s.protocol))];
    }
    const groups = new Map<string, { id: number; value: string }[]>();
    for (const e of await listCustomEventsByProtocol(db, user.id, protocolNames)) {
      const items = groups.get(e.protocol) ?? [];
      items.push({ id: e.id, value: e.message });
      groups.set(e.protocol, items);
    }
    return [...groups].map(([protocol, items]) => ({ key: protocol, name: protocol, items }));
  };
  const byDeviceSchema = { tags: ["Alert"], summary: "The user's custom events for the protocols of the given devices (all without devices), by protocol" };

  // GET as the vendor documents it; fastify reads no GET body, so body clients use POST.
  app.get(
    "/get_custom_events_by_device",
    { schema: { ...byDeviceSchema, querystring: CustomEventsByDeviceSchema, response: { 200: CustomEventsByDeviceResponseSchema, ...FailureResponses } } },
    async (req, reply) => byDevice(currentUser(req), req.query.devices, reply),
  );
  app.post(
    "/get_custom_events_by_device",
    { schema: { ...byDeviceSchema, body: CustomEventsByDeviceSchema, response: { 200: CustomEventsByDeviceResponseSchema, ...FailureResponses } } },
    async (req, reply) => byDevice(currentUser(req), req.body.devices, reply),
  );
};

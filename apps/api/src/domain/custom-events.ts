import {
  CustomEventConditionTypes,
  attributeKey,
  InvalidInputError,
  NotFoundError,
  ProtocolOptions,
  assertNoErrors,
  isTruthy,
  type AddCustomEventBody,
  type CustomEventItem,
  type CustomEventListItem,
  type EditCustomEventBody,
} from "@fleet/contracts";
import {
  createCustomEvent,
  destroyCustomEvent,
  findCommandDevices,
  findUserCustomEvent,
  listCustomEventsByProtocol,
  pageUserCustomEvents,
  updateCustomEvent,
  type CustomEvent,
  type CustomEventCondition,
  type CustomEventInput,
  type Db,
  type User,
} from "@fleet/db";
import type { LiveStore } from "@fleet/live";
import { toNumber } from "@fleet/sensors";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { found } from "./found.js";

/*
 * Custom events: conditions on a protocol's position attributes and the message raised
 * when they hold. Alerts of type "custom" name them.
 */

const WHAT = "Custom event";

const options = { protocols: ProtocolOptions, types: CustomEventConditionTypes.map((t) => ({ ...t })) };

const conditionsOut = (e: CustomEvent) => e.conditions.map((c) => ({ tag: c.tag, type: String(c.type), tag_value: c.tag_value }));

/** As get_custom_events lists it: the vendor's strings for ids and flags. */
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
function conditionsOf(b: AddCustomEventBody): CustomEventCondition[] {
  const parallel = b.tag !== undefined || b.type !== undefined || b.tag_value !== undefined;
  if (parallel && b.conditions !== undefined) throw new InvalidInputError({ conditions: "Send the conditions either as conditions or as tag, type and tag_value, not both." });
  let raw: { tag: string; type: number; tag_value: string; key(field: string): string }[];
  if (b.conditions !== undefined) {
    raw = b.conditions.map((c, i) => ({ ...c, key: (f) => `conditions.${i}.${f}` }));
  } else {
    const [tags, types, values] = [b.tag ?? [], b.type ?? [], b.tag_value ?? []];
    if (types.length !== tags.length || values.length !== tags.length) throw new InvalidInputError({ tag: "The tag, type and tag value lists must have the same length." });
    raw = tags.map((tag, i) => ({ tag, type: types[i]!, tag_value: values[i]!, key: (f) => `${f}.${i}` }));
  }
  if (raw.length === 0) throw new InvalidInputError({ [b.conditions !== undefined ? "conditions" : "tag"]: "At least one condition is required." });
  const errors: Record<string, string> = {};
  const conditions = raw.map((c): CustomEventCondition => {
    const tag = attributeKey(c.tag);
    const value = c.tag_value.trim();
    if (tag === "") errors[c.key("tag")] = "The tag must name a position attribute (letters, digits, _ or -).";
    if (value === "") errors[c.key("tag_value")] = "The tag value field is required.";
    else if (c.type !== 1 && toNumber(value) === null) errors[c.key("tag_value")] = "The tag value must be a number for greater than and less than.";
    return { tag, type: c.type as 1 | 2 | 3, tag_value: value };
  });
  assertNoErrors(errors);
  return conditions;
}

const givesConditions = (b: AddCustomEventBody) => b.conditions !== undefined || b.tag !== undefined || b.type !== undefined || b.tag_value !== undefined;

/** The body as stored values; an edit that sends no conditions keeps the `kept` ones (the spec makes them optional there). */
const input = (b: AddCustomEventBody, kept?: CustomEventCondition[]): CustomEventInput => ({
  protocol: b.protocol,
  message: b.message,
  conditions: kept && !givesConditions(b) ? kept : conditionsOf(b),
  always: isTruthy(b.show_always),
});

/** A page of the user's custom events; `url` is the request's, for the page links. */
export async function list(db: Db, user: User, query: { page?: number; per_page?: number }, url: string) {
  const page = pageRequest(query);
  const { total, rows } = await pageUserCustomEvents(db, user.id, pageWindow(page));
  return { items: { events: paginate({ url }, page, total, rows.map(listItem)) }, status: 1 as const };
}

export const addData = () => ({ ...options, status: 1 as const });

export async function add(db: Db, user: User, body: AddCustomEventBody) {
  return { status: 1 as const, id: (await createCustomEvent(db, user.id, input(body))).id };
}

export async function editData(db: Db, user: User, id: number) {
  const found = await findUserCustomEvent(db, user.id, id);
  if (!found) throw new NotFoundError(WHAT);
  return { item: item(found), ...options, status: 1 as const };
}

export async function edit(db: Db, user: User, body: EditCustomEventBody): Promise<void> {
  // The record first: another user's id answers 404 whatever else the body holds.
  const stored = await findUserCustomEvent(db, user.id, body.id);
  if (!stored) throw new NotFoundError(WHAT);
  if (!(await updateCustomEvent(db, user.id, body.id, input(body, stored.conditions)))) throw new NotFoundError(WHAT);
}

export const destroy = (db: Db, user: User, id: number) => found(destroyCustomEvent(db, user.id, id), WHAT);

/**
 * The user's custom events grouped by protocol: all of them without `deviceIds`, else
 * those of the protocols the devices report (their live state's protocol; a device that
 * never reported adds none).
 */
export async function byDevice(db: Db, live: LiveStore, user: User, deviceIds: number[] | undefined) {
  let protocolNames: string[] | undefined;
  if (deviceIds !== undefined) {
    const found = await findCommandDevices(db, user.id, deviceIds);
    if (!deviceIds.every((id) => found.has(id))) throw new InvalidInputError({ devices: "The selected devices are invalid." });
    const states = await live.getStates([...found.keys()]);
    protocolNames = [...new Set([...states.values()].map((s) => s.protocol))];
  }
  const groups = new Map<string, { id: number; value: string }[]>();
  for (const e of await listCustomEventsByProtocol(db, user.id, protocolNames)) {
    const items = groups.get(e.protocol) ?? [];
    items.push({ id: e.id, value: e.message });
    groups.set(e.protocol, items);
  }
  return [...groups].map(([protocol, items]) => ({ key: protocol, name: protocol, items }));
}

import { CALL_RESPONSE_TYPES, EVENT_TYPES, InvalidInputError, parseTaskDateTime, type CallActionBody, type CallActionRecord, type CallActionUpdateBody, type UserClock } from "@fleet/contracts";
import { createCallAction, destroyCallAction, findCallAction, pageCallActions, updateCallAction, type CallAction, type CallActionInput, type Db, type User } from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { pageRequest, pageWindow, paginateCompact } from "../lib/pagination.js";
import { found } from "./found.js";
import { worded, type Wording } from "./refusals.js";

/*
 * Call actions (the vendor's): the log of the calls an operator made about the user's
 * devices, each maybe about one of the device's events and an alert.
 */

const WHAT = "Call action";
const wording: Wording = { deviceId: { field: "device_id" }, eventId: { field: "event_id" }, alertId: { field: "alert_id" } };

export function record(a: CallAction, clock: UserClock): CallActionRecord {
  return {
    id: a.id,
    user_id: a.userId,
    device_id: a.deviceId,
    ...(a.eventId === null ? {} : { event_id: a.eventId }),
    ...(a.alertId === null ? {} : { alert_id: a.alertId }),
    called_at: clock.format(a.calledAt.getTime()),
    response_type: a.responseType,
    remarks: a.remarks,
    created_at: clock.format(a.createdAt.getTime()),
    updated_at: clock.format(a.updatedAt.getTime()),
  };
}

/** The body's fields that are present, as columns; `called_at` read in the user's timezone. */
function patchOf(b: CallActionUpdateBody, clock: UserClock): Partial<CallActionInput> {
  let calledAt: Date | undefined;
  if (b.called_at !== undefined) {
    const ms = parseTaskDateTime(b.called_at, clock);
    if (ms === undefined) throw new InvalidInputError({ called_at: "The called at is not a valid date-time between 1970 and 2100." });
    calledAt = new Date(ms);
  }
  return { deviceId: b.device_id, eventId: b.event_id, alertId: b.alert_id, calledAt, responseType: b.response_type, remarks: b.remarks };
}

const answer = (a: CallAction, user: User) => ({ status: 1 as const, ...record(a, clockOf(user)) });

/** A page of the user's call actions, latest call first, in `{data, pagination}`; `url` is the request's, for the page links. */
export async function list(db: Db, user: User, query: { page?: number; per_page?: number; limit?: number; device_id?: number }, url: string) {
  const page = pageRequest(query);
  const { total, rows } = await pageCallActions(db, user.id, pageWindow(page), query.device_id);
  return { status: 1 as const, ...paginateCompact({ url }, page, total, rows.map((a) => record(a, clockOf(user)))) };
}

export const get = async (db: Db, user: User, id: number) => answer(await found(findCallAction(db, user.id, id), WHAT), user);

export async function store(db: Db, user: User, body: CallActionBody) {
  const patch = patchOf(body, clockOf(user));
  const input: CallActionInput = {
    deviceId: body.device_id,
    eventId: patch.eventId ?? null,
    alertId: patch.alertId,
    calledAt: patch.calledAt ?? new Date(),
    responseType: body.response_type,
    remarks: patch.remarks ?? "",
  };
  return answer(await worded(createCallAction(db, user.id, input), wording), user);
}

export const update = (db: Db, user: User, id: number, body: CallActionUpdateBody) => found(worded(updateCallAction(db, user.id, id, patchOf(body, clockOf(user))), wording), WHAT);

export const destroy = (db: Db, user: User, id: number) => found(destroyCallAction(db, user.id, id), WHAT);

/** The events a call can be about: every type the platform records, the vendor's older names too. */
export const eventTypes = () => ({ status: 1 as const, types: EVENT_TYPES.map(({ type, title }) => ({ type, title })) });

export const responseTypes = () => ({ status: 1 as const, types: CALL_RESPONSE_TYPES.map(({ type, title }) => ({ type, title })) });

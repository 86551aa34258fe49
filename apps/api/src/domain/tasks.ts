import {
  InvalidInputError,
  NotFoundError,
  assertNoErrors,
  parseTaskDateTime,
  taskPriorities,
  taskStatuses,
  type AddTaskBody,
  type EditTaskBody,
  type GetTasksQuery,
  type TaskRecord,
  type UserClock,
} from "@fleet/contracts";
import {
  createTask,
  destroyTask,
  findTaskSignature,
  findUserTask,
  listUserTasks,
  updateTask,
  type Db,
  type Refusal,
  type TaskFields,
  type TaskSignature,
  type TaskWithStatuses,
  type User,
} from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { uploadedImage } from "../lib/image-type.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { queryOrBody } from "../lib/query-or-body.js";
import { worded, type Wording } from "./refusals.js";

/*
 * Delivery tasks: a device picks up somewhere and delivers somewhere within time windows,
 * and each change of status is kept with its comment and, if given, a signature image.
 */

type Errors = Record<string, string>;

const WHAT = "Task";

const MAX_SIGNATURE_BYTES = 1024 * 1024;

/** A window's end before its start: "The pickup time to must be a date after or equal to pickup time from." */
const inverted = (_: Refusal, label: string) => `The ${label} must be a date after or equal to ${label.replace(/ to$/, " from")}.`;
/** A note with no change of status: "A signature is taken only with a change of status." */
const unexpected = (_: Refusal, label: string) => `A ${label} is taken only with a change of status.`;
const wording: Wording = {
  pickupTimeTo: { message: inverted },
  deliveryTimeTo: { message: inverted },
  signature: { message: unexpected },
  statusComment: { message: unexpected },
};

function record(t: TaskWithStatuses, clock: UserClock): TaskRecord {
  const stamp = (d: Date) => clock.format(d.getTime());
  return {
    id: t.id,
    device_id: t.deviceId,
    title: t.title,
    comment: t.comment,
    priority: t.priority,
    status: t.status,
    invoice_number: t.invoiceNumber,
    pickup_address: t.pickupAddress,
    pickup_address_lat: t.pickupAddressLat,
    pickup_address_lng: t.pickupAddressLng,
    pickup_time_from: stamp(t.pickupTimeFrom),
    pickup_time_to: stamp(t.pickupTimeTo),
    delivery_address: t.deliveryAddress,
    delivery_address_lat: t.deliveryAddressLat,
    delivery_address_lng: t.deliveryAddressLng,
    delivery_time_from: stamp(t.deliveryTimeFrom),
    delivery_time_to: stamp(t.deliveryTimeTo),
    created_at: stamp(t.createdAt),
    updated_at: stamp(t.updatedAt),
    statuses: t.statuses.map((s) => ({ id: s.id, task_id: s.taskId, status: s.status, comment: s.comment, created_at: stamp(s.createdAt), updated_at: stamp(s.updatedAt) })),
  };
}

const answer = (t: TaskWithStatuses, user: User) => ({ status: 1 as const, item: record(t, clockOf(user)) });

/** The instant a date-time field names (offset-less ones in the user's timezone); undefined, reason in `errors`, when none. */
function instant(errors: Errors, field: string, text: string | undefined, clock: UserClock): Date | undefined {
  if (text === undefined) return undefined;
  const ms = parseTaskDateTime(text, clock);
  if (ms !== undefined) return new Date(ms);
  errors[field] = `The ${field.replaceAll("_", " ")} is not a valid date-time between 1970 and 2100.`;
  return undefined;
}

/**
 * The body's taskPost fields that are present, as columns; date-times read in the user's
 * timezone. Fields the schema has checked copy over; the date-times can still be wrong.
 */
function patchOf(errors: Errors, b: Partial<AddTaskBody>, clock: UserClock): Partial<TaskFields> {
  const patch: Partial<TaskFields> = {
    deviceId: b.device_id,
    title: b.title,
    comment: b.comment,
    priority: b.priority,
    status: b.status,
    invoiceNumber: b.invoice_number,
    pickupAddress: b.pickup_address,
    pickupAddressLat: b.pickup_address_lat,
    pickupAddressLng: b.pickup_address_lng,
    pickupTimeFrom: instant(errors, "pickup_time_from", b.pickup_time_from, clock),
    pickupTimeTo: instant(errors, "pickup_time_to", b.pickup_time_to, clock),
    deliveryAddress: b.delivery_address,
    deliveryAddressLat: b.delivery_address_lat,
    deliveryAddressLng: b.delivery_address_lng,
    deliveryTimeFrom: instant(errors, "delivery_time_from", b.delivery_time_from, clock),
    deliveryTimeTo: instant(errors, "delivery_time_to", b.delivery_time_to, clock),
  };
  // Absent fields must stay absent, so an update keeps their stored values.
  for (const key of Object.keys(patch) as (keyof TaskFields)[]) if (patch[key] === undefined) delete patch[key];
  return patch;
}

/**
 * The signature as stored: a PNG or JPEG of 1 MiB at most, its type read from its magic
 * bytes (a data URL's declared type must agree). Undefined, reason in `errors`, otherwise.
 */
function signatureOf(errors: Errors, raw: NonNullable<EditTaskBody["signature"]>): TaskSignature | undefined {
  const { bytes, contentType } = uploadedImage(raw);
  if (bytes && bytes.length > MAX_SIGNATURE_BYTES) errors.signature = "The signature may not be greater than 1024 kilobytes.";
  else if (!bytes || !contentType) errors.signature = "The signature must be a PNG or JPEG image, as a file or a base64 data URL.";
  else return { bytes, contentType };
  return undefined;
}

/** A page of the user's tasks, newest first; `url` is the request's, for the page links. */
export async function list(db: Db, user: User, q: GetTasksQuery, url: string) {
  const errors: Errors = {};
  const from = instant(errors, "search_time_from", q.search_time_from, clockOf(user));
  const to = instant(errors, "search_time_to", q.search_time_to, clockOf(user));
  if (from && to && from > to) errors.search_time_to = "The search time to must be a date after or equal to search time from.";
  assertNoErrors(errors);
  const page = pageRequest(q);
  const filter = { deviceId: q.search_device_id, status: q.search_task_status, from, to, invoiceNumber: q.search_invoice_number };
  const { total, tasks } = await listUserTasks(db, user.id, filter, pageWindow(page));
  return { status: 1 as const, items: paginate({ url }, page, total, tasks.map((t) => record(t, clockOf(user)))) };
}

export async function find(db: Db, user: User, id: number) {
  const task = await findUserTask(db, user.id, id);
  if (!task) throw new NotFoundError(WHAT);
  return answer(task, user);
}

export async function add(db: Db, user: User, body: AddTaskBody) {
  const errors: Errors = {};
  const patch = patchOf(errors, { invoice_number: "", ...body }, clockOf(user));
  assertNoErrors(errors);
  // The schema requires every field but invoice_number, defaulted above, so the patch is whole.
  return answer(await worded(createTask(db, user.id, patch as TaskFields), wording), user);
}

export async function edit(db: Db, user: User, id: number, body: EditTaskBody) {
  const { status_comment: comment, signature: rawSignature, ...fields } = body;
  const errors: Errors = {};
  const patch = patchOf(errors, fields, clockOf(user));
  const signature = rawSignature === undefined ? undefined : signatureOf(errors, rawSignature);
  assertNoErrors(errors);
  const task = await worded(updateTask(db, user.id, id, patch, { comment, signature }), wording);
  if (!task) throw new NotFoundError(WHAT);
  return answer(task, user);
}

/** Deletes the task named in the query or the body (the two must agree). */
export async function destroy(db: Db, user: User, inQuery: number | undefined, inBody: number | undefined): Promise<void> {
  const given = queryOrBody("id", inQuery, inBody);
  if (given.error !== undefined) throw new InvalidInputError({ id: given.error });
  if (!(await destroyTask(db, user.id, given.value))) throw new NotFoundError(WHAT);
}

export async function signature(db: Db, user: User, statusId: number): Promise<TaskSignature> {
  const found = await findTaskSignature(db, user.id, statusId);
  if (!found) throw new NotFoundError("Task signature");
  return found;
}

export const statuses = () => ({ status: 1 as const, items: taskStatuses.map((s) => ({ ...s })) });
export const priorities = () => ({ status: 1 as const, items: taskPriorities.map((p) => ({ ...p })) });

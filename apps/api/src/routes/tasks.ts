import {
  AddTaskBodySchema,
  DestroyTaskBodySchema,
  DestroyTaskQuerySchema,
  EditTaskBodySchema,
  FailureResponses,
  GetTasksPrioritiesResponseSchema,
  GetTasksQuerySchema,
  GetTasksResponseSchema,
  GetTasksStatusesResponseSchema,
  OkSchema,
  TaskIdParamsSchema,
  TaskResponseSchema,
  TaskSignatureImageSchema,
  TaskSignatureParamsSchema,
  formatDateTime,
  parseTaskDateTime,
  taskPriorities,
  taskStatuses,
  type AddTaskBody,
  type EditTaskBody,
  type TaskRecord,
} from "@fleet/contracts";
import {
  TaskRejectedError,
  createTask,
  destroyTask,
  findTaskSignature,
  findUserTask,
  listUserTasks,
  updateTask,
  type TaskFields,
  type TaskFilter,
  type TaskProblem,
  type TaskSignature,
  type TaskWithStatuses,
} from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { queryOrBody } from "../lib/query-or-body.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { currentUser } from "../plugins/app/auth.js";

type Errors = Record<string, string>;

const MAX_SIGNATURE_BYTES = 1024 * 1024;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const DATA_URL = /^data:(image\/(?:png|jpeg));base64,([A-Za-z0-9+/]*={0,2})$/;

const problemMessages: Record<TaskProblem, string> = {
  device_id: "The selected device id is invalid.",
  pickup_time_to: "The pickup time to must be a date after or equal to pickup time from.",
  delivery_time_to: "The delivery time to must be a date after or equal to delivery time from.",
  signature: "A signature is taken only with a change of status.",
  status_comment: "A status comment is taken only with a change of status.",
};

function taskRecord(t: TaskWithStatuses, timezoneId: number): TaskRecord {
  const stamp = (d: Date) => formatDateTime(d.getTime(), timezoneId);
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

/** The instant a date-time field names (offset-less ones in the user's timezone); undefined, reason in `errors`, when none. */
function instant(errors: Errors, field: string, text: string | undefined, timezoneId: number): Date | undefined {
  if (text === undefined) return undefined;
  const ms = parseTaskDateTime(text, timezoneId);
  if (ms !== undefined) return new Date(ms);
  errors[field] = `The ${field.replaceAll("_", " ")} is not a valid date-time between 1970 and 2100.`;
  return undefined;
}

/**
 * The body's taskPost fields that are present, as columns; date-times read in the user's
 * timezone. Fields the schema has checked copy over; the date-times can still be wrong.
 */
function taskPatch(errors: Errors, b: Partial<AddTaskBody>, timezoneId: number): Partial<TaskFields> {
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
    pickupTimeFrom: instant(errors, "pickup_time_from", b.pickup_time_from, timezoneId),
    pickupTimeTo: instant(errors, "pickup_time_to", b.pickup_time_to, timezoneId),
    deliveryAddress: b.delivery_address,
    deliveryAddressLat: b.delivery_address_lat,
    deliveryAddressLng: b.delivery_address_lng,
    deliveryTimeFrom: instant(errors, "delivery_time_from", b.delivery_time_from, timezoneId),
    deliveryTimeTo: instant(errors, "delivery_time_to", b.delivery_time_to, timezoneId),
  };
  // Absent fields must stay absent, so an update keeps their stored values.
  for (const key of Object.keys(patch) as (keyof TaskFields)[]) if (patch[key] === undefined) delete patch[key];
  return patch;
}

/** The image type the bytes start like, by magic number; clients' declared types are not trusted. */
function imageType(bytes: Buffer): "image/png" | "image/jpeg" | undefined {
  if (bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return "image/png";
  if (bytes.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) return "image/jpeg";
  return undefined;
}

/**
 * The signature as stored: a PNG or JPEG of 1 MiB at most, its type read from its magic
 * bytes (a data URL's declared type must agree). Undefined, reason in `errors`, otherwise.
 */
function signatureOf(errors: Errors, raw: NonNullable<EditTaskBody["signature"]>): TaskSignature | undefined {
  let bytes: Buffer | undefined;
  let declared: string | undefined;
  if (typeof raw === "string") {
    const m = DATA_URL.exec(raw);
    if (m && m[2]!.length % 4 === 0) [declared, bytes] = [m[1], Buffer.from(m[2]!, "base64")];
  } else if (Buffer.isBuffer(raw)) bytes = raw;
  const sniffed = bytes && imageType(bytes);
  if (bytes && bytes.length > MAX_SIGNATURE_BYTES) errors.signature = "The signature may not be greater than 1024 kilobytes.";
  else if (!bytes || !sniffed || (declared !== undefined && declared !== sniffed)) errors.signature = "The signature must be a PNG or JPEG image, as a file or a base64 data URL.";
  else return { bytes, contentType: sniffed };
  return undefined;
}

function rejected(reply: FastifyReply, err: TaskRejectedError) {
  return reply.code(422).send({ status: 0 as const, errors: Object.fromEntries(err.problems.map((p) => [p, problemMessages[p]])) });
}

export const taskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const tags = ["Task"];

  app.get(
    "/get_tasks",
    {
      schema: {
        tags,
        summary: "The user's tasks, newest first, a page at a time; the time filter keeps tasks whose pickup or delivery window overlaps it",
        querystring: GetTasksQuerySchema,
        response: { 200: GetTasksResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const q = req.query;
      const errors: Errors = {};
      const from = instant(errors, "search_time_from", q.search_time_from, user.timezoneId);
      const to = instant(errors, "search_time_to", q.search_time_to, user.timezoneId);
      if (from && to && from > to) errors.search_time_to = "The search time to must be a date after or equal to search time from.";
      if (Object.keys(errors).length > 0) return reply.code(422).send({ status: 0, errors });
      const filter: TaskFilter = { deviceId: q.search_device_id, status: q.search_task_status, from, to, invoiceNumber: q.search_invoice_number };
      const page = pageRequest(q);
      const { total, tasks } = await listUserTasks(db, user.id, filter, pageWindow(page));
      return { status: 1 as const, items: paginate(req, page, total, tasks.map((t) => taskRecord(t, user.timezoneId))) };
    },
  );

  app.get(
    "/get_task/:id",
    { schema: { tags, summary: "A task with its status history, oldest first", params: TaskIdParamsSchema, response: { 200: TaskResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const task = await findUserTask(db, user.id, req.params.id);
      if (!task) return notFound(reply, "Task");
      return { status: 1 as const, item: taskRecord(task, user.timezoneId) };
    },
  );

  app.post(
    "/add_task",
    { schema: { tags, summary: "Create a task (a taskPost) with its first status row", body: AddTaskBodySchema, response: { 200: TaskResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const errors: Errors = {};
      const patch = taskPatch(errors, { invoice_number: "", ...req.body }, user.timezoneId);
      if (Object.keys(errors).length > 0) return reply.code(422).send({ status: 0, errors });
      try {
        // The schema requires every field but invoice_number, defaulted above, so the patch is whole.
        const task = await createTask(db, user.id, patch as TaskFields);
        return { status: 1 as const, item: taskRecord(task, user.timezoneId) };
      } catch (err) {
        if (err instanceof TaskRejectedError) return rejected(reply, err);
        throw err;
      }
    },
  );

  app.post(
    "/edit_task/:id",
    {
      schema: {
        tags,
        summary: "Change some of a task's fields; a new status appends a status row with status_comment and signature",
        params: TaskIdParamsSchema,
        body: EditTaskBodySchema,
        response: { 200: TaskResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const { status_comment: comment, signature: rawSignature, ...fields } = req.body;
      const errors: Errors = {};
      const patch = taskPatch(errors, fields, user.timezoneId);
      const signature = rawSignature === undefined ? undefined : signatureOf(errors, rawSignature);
      if (Object.keys(errors).length > 0) return reply.code(422).send({ status: 0, errors });
      try {
        const task = await updateTask(db, user.id, req.params.id, patch, { comment, signature });
        if (!task) return notFound(reply, "Task");
        return { status: 1 as const, item: taskRecord(task, user.timezoneId) };
      } catch (err) {
        if (err instanceof TaskRejectedError) return rejected(reply, err);
        throw err;
      }
    },
  );

  app.post(
    "/destroy_task",
    {
      schema: {
        tags,
        summary: "Delete a task and its history (id in the body or the query)",
        querystring: DestroyTaskQuerySchema,
        body: DestroyTaskBodySchema,
        response: { 200: OkSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      // The body is nullable in the schema (an absent body), which the static type does not say.
      const given = queryOrBody("id", req.query.id, (req.body as typeof req.body | null)?.id);
      if (given.error !== undefined) return reply.code(422).send({ status: 0, errors: { id: given.error } });
      if (!(await destroyTask(db, currentUser(req).id, given.value))) return notFound(reply, "Task");
      return { status: 1 as const };
    },
  );

  app.get(
    "/get_task_signature/:taskStatusId",
    {
      schema: {
        tags,
        summary: "The signature image of a status row of one of the user's tasks, under its content type",
        params: TaskSignatureParamsSchema,
        response: {
          200: { description: "The image", content: { "image/png": { schema: TaskSignatureImageSchema }, "image/jpeg": { schema: TaskSignatureImageSchema } } },
          ...FailureResponses,
        },
      },
    },
    async (req, reply) => {
      const signature = await findTaskSignature(db, currentUser(req).id, Number(req.params.taskStatusId));
      if (!signature) return notFound(reply, "Task signature");
      // Private, and never to be sniffed as anything but the image it is.
      return reply.type(signature.contentType).header("cache-control", "private, no-store").header("x-content-type-options", "nosniff").send(signature.bytes);
    },
  );

  app.get("/get_tasks_statuses", { schema: { tags, summary: "The task statuses", response: { 200: GetTasksStatusesResponseSchema, ...FailureResponses } } }, async () => {
    return { status: 1 as const, items: taskStatuses.map((s) => ({ ...s })) };
  });

  app.get("/get_tasks_priorities", { schema: { tags, summary: "The task priorities", response: { 200: GetTasksPrioritiesResponseSchema, ...FailureResponses } } }, async () => {
    return { status: 1 as const, items: taskPriorities.map((p) => ({ ...p })) };
  });
};

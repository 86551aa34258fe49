import { Type, type Static } from "@sinclair/typebox";
import { StatusOk } from "./common.js";
import { PageQuery, Paginated } from "./pagination.js";
import type { UserClock } from "../user-time/clock.js";

/** The fixed catalogues of get_tasks_statuses and get_tasks_priorities, with the vendor's ids and titles. */
export const taskStatuses = [
  { id: 1, title: "New" },
  { id: 2, title: "In progress" },
  { id: 3, title: "Completed" },
  { id: 4, title: "Failed" },
] as const;
export const taskPriorities = [
  { id: 1, title: "Low" },
  { id: 2, title: "Normal" },
  { id: 3, title: "High" },
] as const;

const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: 2147483647, ...(description ? { description } : {}) });
const StatusId = Type.Integer({ enum: taskStatuses.map((s) => s.id), description: "one of get_tasks_statuses" });
const PriorityId = Type.Integer({ enum: taskPriorities.map((p) => p.id), description: "one of get_tasks_priorities" });
const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });

/*
 * Date-times on input: `YYYY-MM-DD HH:MM[:SS]` (or with `T`), read in the user's
 * timezone, or with `Z`/`±HH:MM` naming their own offset. The pattern checks the shape;
 * parseTaskDateTime checks the calendar (no 31 April) and the year range.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const MIN_YEAR = 1970;
const MAX_YEAR = 2100;
export const TaskDateTimeSchema = Type.String({
  maxLength: 32,
  pattern: DATE_TIME.source,
  description: "YYYY-MM-DD HH:MM:SS in the user's timezone, or ISO 8601 with Z or ±HH:MM",
});

/**
 * Epoch milliseconds of a date-time as TaskDateTimeSchema takes it; one without an offset
 * is read on the account's clock (its timezone and daylight-saving rule). Undefined when it
 * names no real instant (31 April, 24:00) or falls outside the years 1970–`maxYear` (2100
 * unless given).
 */
export function parseTaskDateTime(text: string, clock: UserClock, maxYear = MAX_YEAR): number | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as [number, number, number, number, number, number];
  if (year < MIN_YEAR || year > maxYear || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 31 April over into May; a rolled date is not the one written.
  if (new Date(wall).getUTCDate() !== day) return undefined;
  const zone = m[7];
  // The clock reads years up to 2100; a later one (a sharing link's far expiry) at its offset then.
  if (!zone) return clock.toInstant(`${m[1]}-${m[2]}-${m[3]}`, `${m[4]}:${m[5]}:${m[6] ?? "00"}`) ?? wall - clock.offsetAt(wall) * 60_000;
  if (zone === "Z") return wall;
  const [h, min] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
  if (h > 14 || min > 59) return undefined;
  return wall - (zone.startsWith("-") ? -1 : 1) * (h * 60 + min) * 60_000;
}

/** The taskPost fields, all required but invoice_number (add_task). */
const taskPostFields = {
  device_id: Id("one of the user's devices"),
  title: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  comment: Type.String({ maxLength: 5000 }),
  priority: PriorityId,
  status: StatusId,
  pickup_address: Type.String({ maxLength: 500 }),
  pickup_address_lat: Latitude,
  pickup_address_lng: Longitude,
  pickup_time_from: TaskDateTimeSchema,
  pickup_time_to: TaskDateTimeSchema,
  delivery_address: Type.String({ maxLength: 500 }),
  delivery_address_lat: Latitude,
  delivery_address_lng: Longitude,
  delivery_time_from: TaskDateTimeSchema,
  delivery_time_to: TaskDateTimeSchema,
  invoice_number: Type.Optional(Type.String({ maxLength: 255 })),
};

export const AddTaskBodySchema = Type.Object(taskPostFields);
export type AddTaskBody = Static<typeof AddTaskBodySchema>;

/** A data URL of a 1 MiB image in base64, with room for its `data:image/jpeg;base64,` prefix. */
const SIGNATURE_DATA_URL_MAX = 64 + Math.ceil((1024 * 1024) / 3) * 4;

/**
 * edit_task: any taskPost field (absent ones keep their value), and for a status change
 * the status row's comment and signature. A multipart file part reaches validation as a
 * Buffer, which JSON Schema can only call an object; the route checks what it holds.
 */
export const EditTaskBodySchema = Type.Object({
  ...Type.Partial(Type.Object(taskPostFields)).properties,
  status_comment: Type.Optional(Type.String({ maxLength: 5000, description: "the comment of the status row a status change appends" })),
  signature: Type.Optional(
    Type.Union(
      [
        Type.String({ maxLength: SIGNATURE_DATA_URL_MAX, pattern: "^data:", description: "data:image/png;base64,… or data:image/jpeg;base64,…" }),
        Type.Unsafe<Uint8Array>({ type: "object", description: "a multipart file part" }),
      ],
      { description: "a PNG or JPEG of at most 1 MiB, kept on the status row a status change appends" },
    ),
  ),
});
export type EditTaskBody = Static<typeof EditTaskBodySchema>;

/** `{id}` of get_task/{id} and edit_task/{id}. */
export const TaskIdParamsSchema = Type.Object({ id: Id("the task") });

/**
 * destroy_task takes the id in the body, the query or both (then they must agree). The
 * body may be absent (fastify validates an absent body as null), hence nullable.
 */
export const DestroyTaskBodySchema = Type.Object({ id: Type.Optional(Id("the task")) }, { nullable: true });
export const DestroyTaskQuerySchema = Type.Object({ id: Type.Optional(Id("the task")) });

/** The path parameter the spec types as a string: digits of a status row id. */
export const TaskSignatureParamsSchema = Type.Object({ taskStatusId: Type.String({ minLength: 1, maxLength: 10, pattern: "^[1-9][0-9]*$", description: "a status row id" }) });

export const GetTasksQuerySchema = Type.Object({
  ...PageQuery,
  search_device_id: Type.Optional(Id("only tasks of this device")),
  search_task_status: Type.Optional(StatusId),
  search_time_from: Type.Optional(TaskDateTimeSchema),
  search_time_to: Type.Optional(TaskDateTimeSchema),
  search_invoice_number: Type.Optional(Type.String({ maxLength: 255, description: "part of the invoice number, any case" })),
});
export type GetTasksQuery = Static<typeof GetTasksQuerySchema>;

const Stamp = Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" });

export const TaskStatusRecordSchema = Type.Object({
  id: Type.Integer(),
  task_id: Type.Integer(),
  status: Type.Integer(),
  comment: Type.String(),
  created_at: Stamp,
  updated_at: Stamp,
});
export type TaskStatusRecord = Static<typeof TaskStatusRecordSchema>;

export const TaskSchema = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  title: Type.String(),
  comment: Type.String(),
  priority: Type.Integer(),
  status: Type.Integer(),
  invoice_number: Type.String(),
  pickup_address: Type.String(),
  pickup_address_lat: Type.Number(),
  pickup_address_lng: Type.Number(),
  pickup_time_from: Stamp,
  pickup_time_to: Stamp,
  delivery_address: Type.String(),
  delivery_address_lat: Type.Number(),
  delivery_address_lng: Type.Number(),
  delivery_time_from: Stamp,
  delivery_time_to: Stamp,
  created_at: Stamp,
  updated_at: Stamp,
  statuses: Type.Array(TaskStatusRecordSchema, { description: "the status history, oldest first" }),
});
export type TaskRecord = Static<typeof TaskSchema>;

export const GetTasksResponseSchema = Type.Object({ status: StatusOk, items: Paginated(TaskSchema) });
export const TaskResponseSchema = Type.Object({ status: StatusOk, item: TaskSchema });

const CatalogueSchema = Type.Object({ status: StatusOk, items: Type.Array(Type.Object({ id: Type.Integer(), title: Type.String() })) });
export const GetTasksStatusesResponseSchema = CatalogueSchema;
export const GetTasksPrioritiesResponseSchema = CatalogueSchema;

/** get_task_signature's success: the image bytes under their own content type. */
export const TaskSignatureImageSchema = Type.Unsafe<Uint8Array>({ type: "string", format: "binary" });

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
} from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as tasks from "../domain/tasks.js";
import { OK, endpoints } from "../lib/endpoints.js";
import { currentUser } from "../plugins/app/auth.js";

const tags = ["Task"];

export const taskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const api = endpoints(app, tags);

  api.get(
    "/get_tasks",
    {
      summary: "The user's tasks, newest first, a page at a time; the time filter keeps tasks whose pickup or delivery window overlaps it",
      query: GetTasksQuerySchema,
      response: GetTasksResponseSchema,
    },
    ({ user, query, req }) => tasks.list(db, user, query, req.url),
  );
  // endpoints() declares no path parameters: the routes with an id in the path are declared with app.
  app.get(
    "/get_task/:id",
    { schema: { tags, summary: "A task with its status history, oldest first", params: TaskIdParamsSchema, response: { 200: TaskResponseSchema, ...FailureResponses } } },
    (req) => tasks.find(db, currentUser(req), req.params.id),
  );
  api.post("/add_task", { summary: "Create a task (a taskPost) with its first status row", body: AddTaskBodySchema, response: TaskResponseSchema }, ({ user, body }) => tasks.add(db, user, body));
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
    (req) => tasks.edit(db, currentUser(req), req.params.id, req.body),
  );
  api.post(
    "/destroy_task",
    { summary: "Delete a task and its history (id in the body or the query)", query: DestroyTaskQuerySchema, body: DestroyTaskBodySchema, response: OkSchema },
    // The body is nullable in the schema (an absent body), which the static type does not say.
    async ({ user, query, body }) => (await tasks.destroy(db, user, query.id, (body as typeof body | null)?.id), OK),
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
      const signature = await tasks.signature(db, currentUser(req), Number(req.params.taskStatusId));
      // Private, and never to be sniffed as anything but the image it is.
      return reply.type(signature.contentType).header("cache-control", "private, no-store").header("x-content-type-options", "nosniff").send(signature.bytes);
    },
  );
  api.get("/get_tasks_statuses", { summary: "The task statuses", response: GetTasksStatusesResponseSchema }, tasks.statuses);
  api.get("/get_tasks_priorities", { summary: "The task priorities", response: GetTasksPrioritiesResponseSchema }, tasks.priorities);
};

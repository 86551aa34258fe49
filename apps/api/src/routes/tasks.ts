import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as tasks from "../domain/tasks.js";
import { OK, endpoints } from "../lib/endpoints.js";
import { imageAnswer, sendPrivateImage } from "../lib/image-type.js";
import { currentUser } from "../plugins/app/auth.js";

const tags = ["Task"];

export const taskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const api = endpoints(app, tags);

  api.get(
    "/get_tasks",
    {
      summary: "The user's tasks, newest first, a page at a time; the time filter keeps tasks whose pickup or delivery window overlaps it",
      query: contracts.GetTasksQuerySchema,
      response: contracts.GetTasksResponseSchema,
    },
    ({ user, query, req }) => tasks.list(db, user, query, req.url),
  );
  api.get("/get_task/:id", { summary: "A task with its status history, oldest first", params: contracts.TaskIdParamsSchema, response: contracts.TaskResponseSchema }, ({ user, params }) => tasks.find(db, user, params.id));
  api.post("/add_task", { summary: "Create a task (a taskPost) with its first status row", body: contracts.AddTaskBodySchema, response: contracts.TaskResponseSchema }, ({ user, body }) => tasks.add(db, user, body));
  api.post(
    "/edit_task/:id",
    {
      summary: "Change some of a task's fields; a new status appends a status row with status_comment and signature",
      params: contracts.TaskIdParamsSchema,
      body: contracts.EditTaskBodySchema,
      response: contracts.TaskResponseSchema,
    },
    ({ user, params, body }) => tasks.edit(db, user, params.id, body),
  );
  api.post(
    "/destroy_task",
    { summary: "Delete a task and its history (id in the body or the query)", query: contracts.DestroyTaskQuerySchema, body: contracts.DestroyTaskBodySchema, response: contracts.OkSchema },
    // The body is nullable in the schema (an absent body), which the static type does not say.
    async ({ user, query, body }) => (await tasks.destroy(db, user, query.id, (body as typeof body | null)?.id), OK),
  );
  // Declared with app: it answers an image, not a JSON body endpoints() would declare.
  app.get(
    "/get_task_signature/:taskStatusId",
    {
      schema: {
        tags,
        summary: "The signature image of a status row of one of the user's tasks, under its content type",
        params: contracts.TaskSignatureParamsSchema,
        response: {
          200: imageAnswer("The image", contracts.TaskSignatureImageSchema),
          ...contracts.FailureResponses,
        },
      },
    },
    async (req, reply) => {
      const signature = await tasks.signature(db, currentUser(req), Number(req.params.taskStatusId));
      return sendPrivateImage(reply, signature.contentType, signature.bytes);
    },
  );
  api.get("/get_tasks_statuses", { summary: "The task statuses", response: contracts.GetTasksStatusesResponseSchema }, tasks.statuses);
  api.get("/get_tasks_priorities", { summary: "The task priorities", response: contracts.GetTasksPrioritiesResponseSchema }, tasks.priorities);
};

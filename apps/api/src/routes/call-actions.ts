import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as callActions from "../domain/call-actions.js";
import { OK, endpoints } from "../lib/endpoints.js";

/** The log of calls made about the user's devices, at the vendor's paths (its `destory` spelling kept). */
export const callActionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const api = endpoints(app, ["Call actions"]);
  const params = contracts.CallActionIdParamsSchema;

  api.get("/call_actions", { summary: "A page of the user's call actions, latest call first; `device_id` keeps one device's", query: contracts.CallActionsQuerySchema, response: contracts.CallActionsResponseSchema }, ({ user, query, req }) =>
    callActions.list(db, user, query, req.url),
  );
  api.get("/call_actions/event_types", { summary: "The event types a call can be about", response: contracts.CallActionTypesResponseSchema }, callActions.eventTypes);
  api.get("/call_actions/response_types", { summary: "How a call can end", response: contracts.CallActionTypesResponseSchema }, callActions.responseTypes);
  api.post(
    "/call_actions/store",
    { summary: "Log a call about one of the user's devices, maybe about one of its events (whose alert it then names)", body: contracts.CallActionBodySchema, response: contracts.CallActionResponseSchema },
    ({ user, body }) => callActions.store(db, user, body),
  );
  api.get("/call_actions/:id", { summary: "One of the user's call actions", params, response: contracts.CallActionResponseSchema }, ({ user, params }) => callActions.get(db, user, params.id));
  api.put(
    "/call_actions/update/:id",
    { summary: "Change a call action; fields left out keep their values", params, body: contracts.CallActionUpdateBodySchema, response: contracts.GeoOkSchema },
    async ({ user, params, body }) => (await callActions.update(db, user, params.id, body), OK),
  );
  api.delete("/call_actions/destory/:id", { summary: "Delete a call action", params, response: contracts.GeoOkSchema }, async ({ user, params }) => (await callActions.destroy(db, user, params.id), OK));
};

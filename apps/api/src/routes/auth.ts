import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as auth from "../domain/auth.js";
import { endpoints } from "../lib/endpoints.js";

// Signing in is the one route without a signed-in user, so it is declared with app, not endpoints().
export const loginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    "/login",
    {
      preHandler: app.loginLimit.preHandler,
      onSend: app.loginLimit.onSend,
      schema: {
        tags: ["Authentication"],
        summary: "Exchange email and password for user_api_hash; an administrator's with `as` (another user's email) for that user's",
        body: contracts.LoginBodySchema,
        response: { 200: contracts.LoginResponseSchema, 401: contracts.WrongCredentialsSchema, 422: contracts.FailureResponses[422] },
      },
    },
    (req) => auth.login(app.services.db, req.body, req.log),
  );
};

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const api = endpoints(app, ["Setup"]);
  api.get("/get_user_data", { summary: "The signed-in account", response: contracts.UserDataSchema }, ({ user }) => auth.userData(user));
};

import { LoginBodySchema, LoginResponseSchema, UserDataSchema, WrongCredentialsSchema, FailureResponses, formatDateTime } from "@fleet/contracts";
import { verifyLogin } from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { currentUser } from "../plugins/app/auth.js";

const DAY_MS = 86_400_000;

export const loginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    "/login",
    {
      schema: {
        tags: ["Authentication"],
        summary: "Exchange email and password for user_api_hash",
        body: LoginBodySchema,
        response: { 200: LoginResponseSchema, 401: WrongCredentialsSchema, 422: FailureResponses[422] },
      },
    },
    async (req, reply) => {
      const user = await verifyLogin(app.services.db, req.body.email, req.body.password);
      if (!user) return reply.code(401).send({ status: 0, message: "Wrong credentials." });
      return { status: 1 as const, user_api_hash: user.apiHash };
    },
  );
};

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/get_user_data",
    { schema: { tags: ["Setup"], summary: "The signed-in account", response: { 200: UserDataSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const exp = user.expirationDate;
      return {
        email: user.email,
        expiration_date: exp ? formatDateTime(exp.getTime(), user.timezoneId) : null,
        days_left: exp ? Math.max(0, Math.ceil((exp.getTime() - Date.now()) / DAY_MS)) : null,
        plan: user.groupId === 1 ? "Administrator" : "Standard",
        devices_limit: user.devicesLimit ?? 0,
        group_id: user.groupId,
      };
    },
  );
};

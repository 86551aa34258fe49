import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as auth from "../domain/auth.js";
import { endpoints } from "../lib/endpoints.js";

const langs = new Set<string>(contracts.SupportedLangs);
/** The request's `lang` when it is one of the API's languages. */
const spokenLang = (query: unknown): string | undefined => {
  const lang = (query as Record<string, unknown> | undefined)?.lang;
  return typeof lang === "string" && langs.has(lang) ? lang : undefined;
};

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
    (req) =>
      auth.login(app.services.db, req.body, {
        lang: spokenLang(req.query) ?? spokenLang(req.body),
        log: req.log,
        relearn: (userId) => app.services.rulesNotices.afterUserWrite(userId, Promise.resolve()),
      }),
  );
};

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const api = endpoints(app, ["Setup"]);
  api.get("/get_user_data", { summary: "The signed-in account", response: contracts.UserDataSchema }, ({ user }) => auth.userData(user));
};

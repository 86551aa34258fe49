import * as contracts from "@fleet/contracts";
import { InvalidInputError } from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import * as accounts from "../domain/accounts.js";
import { resetBrokenLinkPage, resetDonePage, resetFormPage } from "../pages/password-reset.js";

const tags = ["Authentication"];

/**
 * Sign-up and password reminders: routes without a signed-in user, like login, and behind the
 * same brake on attempts. The reset page is HTML for a person who followed the mailed link.
 */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, mailer, settings } = app.services;
  const ctx = (req: FastifyRequest): accounts.AccountsContext => ({
    db,
    mailer,
    allowRegistration: settings.allowRegistration ?? false,
    publicUrl: settings.publicUrl ?? "http://127.0.0.1:8080",
    log: req.log,
  });
  const failures = { 403: contracts.RegistrationClosedSchema, 422: contracts.FailureResponses[422] };

  app.post(
    "/register",
    { preHandler: app.authLimit, schema: { tags, summary: "Open an account (when FLEET_ALLOW_REGISTRATION is on): a mail with a link to choose its password", body: contracts.RegisterBodySchema, response: { 200: contracts.RegisterResponseSchema, ...failures } } },
    (req) => accounts.register(ctx(req), req.body),
  );
  app.get(
    "/password_reminder",
    { preHandler: app.authLimit, schema: { tags, summary: "Mail a link and a code to reset the password; the same answer whether or not the email has an account", querystring: contracts.PasswordReminderQuerySchema, response: { 200: contracts.PasswordReminderResponseSchema, 422: contracts.FailureResponses[422] } } },
    (req) => accounts.remind(ctx(req), req.query.email),
  );
  app.post(
    "/password_reminder",
    { preHandler: app.authLimit, schema: { tags, summary: "With `code` and `password`: set the new password (the old user_api_hash stops working). With only `email`: as GET", body: contracts.PasswordReminderBodySchema, response: { 200: contracts.PasswordReminderResponseSchema, 422: contracts.FailureResponses[422] } } },
    (req) => accounts.reminderPost(ctx(req), req.body),
  );

  app.get("/password_reset", { schema: { tags, summary: "The page a reminder's link opens (HTML)", querystring: contracts.PasswordResetPageQuerySchema } }, async (req, reply) => {
    const { email, token } = req.query;
    void reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
    return email && token ? resetFormPage(email, token) : resetBrokenLinkPage();
  });
  app.post(
    "/password_reset",
    { preHandler: app.authLimit, schema: { tags, summary: "The reset page's form (HTML answer)", body: contracts.PasswordResetFormSchema } },
    async (req, reply) => {
      const { email, token, password, password_confirmation } = req.body;
      void reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
      try {
        await accounts.setPasswordWithCode(ctx(req), { email, code: token, password, password_confirmation });
        return resetDonePage();
      } catch (err) {
        if (!(err instanceof InvalidInputError)) throw err;
        if (err.errors.code) return reply.code(422).send(resetBrokenLinkPage());
        return reply.code(422).send(resetFormPage(email, token, Object.values(err.errors).join(" ")));
      }
    },
  );
};

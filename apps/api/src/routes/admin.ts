import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import * as admin from "../domain/admin.js";
import { endpoints } from "../lib/endpoints.js";
import { currentUser } from "../plugins/app/auth.js";

// Every route here may answer 403 (see the preValidation hook below).
const failures = { 403: Type.Object({ status: Type.Literal(0), error: Type.String() }) };

/** Administrator-only routes; anyone else gets 403. */
export const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, deadLetters } = app.services;
  // preValidation (after authenticate, before the body schema): a non-administrator gets
  // 403 whatever the body, rather than 422s that describe what the route accepts.
  app.addHook("preValidation", async (req) => admin.assertAdministrator(currentUser(req)));
  const api = endpoints(app, ["Admin User"]);

  api.post("/admin/client", { summary: "Create a user", body: contracts.AdminClientBodySchema, response: contracts.AdminClientResponseSchema, failures }, ({ user, body }) => admin.createClient(db, user, body));
  api.get("/admin/clients", { summary: "List users", query: contracts.AdminClientsQuerySchema, response: contracts.AdminClientsResponseSchema, failures }, ({ user, query, req }) => admin.clients(db, user, query, req.url));
  api.get("/admin/unregistered_devices", { summary: "uniqueIds that sent positions but match no device", response: contracts.UnregisteredDevicesResponseSchema, failures }, ({ user }) => admin.unregistered(db, user));
  api.get(
    "/admin/dead_letters",
    { summary: "Messages a consumer could never process (positions.dead, events.dead)", query: contracts.DeadLettersQuerySchema, response: contracts.DeadLettersResponseSchema, failures },
    ({ user, query }) => admin.deadLetterList(deadLetters, user, query.topic),
  );
  api.post(
    "/admin/dead_letters/republish",
    { summary: "Send dead letters back to their topic after a fix", body: contracts.DeadLettersRepublishBodySchema, response: contracts.DeadLettersRepublishResponseSchema, failures },
    ({ body }) => admin.republish(deadLetters, body.topic, body.ids),
  );
};

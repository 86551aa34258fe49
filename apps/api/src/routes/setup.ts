import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import * as setup from "../domain/setup.js";
import { OK, endpoints } from "../lib/endpoints.js";

/** A form cannot send an empty array; `groups=` (empty) is how it says "no groups". */
async function emptyGroupsAsList(req: FastifyRequest): Promise<void> {
  const body = req.body as Record<string, unknown> | undefined;
  if (body && typeof body === "object" && body.groups === "") body.groups = [];
}

export const setupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, rulesNotices } = app.services;
  const api = endpoints(app, ["Setup"]);
  app.addHook("preValidation", emptyGroupsAsList);

  api.get("/edit_setup_data", { summary: "The account's settings and the option lists to edit them", query: contracts.EditSetupDataQuerySchema, response: contracts.EditSetupDataResponseSchema }, ({ user }) => setup.editData(db, user));
  // The rules service reads the user's timezone, DST rule and units (a password is none of its business).
  api.post("/edit_setup", { summary: "Save the account's settings and its complete list of device groups", body: contracts.EditSetupBodySchema, response: contracts.EditSetupResponseSchema }, async ({ user, body }) => (await rulesNotices.afterUserWrite(user.id, setup.save(db, user, body)), OK));
  api.post("/change_password", { summary: "Set a new password; the current user_api_hash stops working and a new login is needed", body: contracts.ChangePasswordBodySchema, response: contracts.ChangePasswordResponseSchema }, async ({ user, body }) => (await setup.setPassword(db, user, body), OK));
};

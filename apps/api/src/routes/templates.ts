import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { gprs, sms } from "../domain/templates.js";
import { OK, endpoints } from "../lib/endpoints.js";

/** GPRS and SMS command templates: the user's own, seven endpoints each. */
export const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;

  const g = endpoints(app, ["GPRS Template"]);
  const gprsId = contracts.UserGprsTemplateIdQuerySchema;
  g.get(
    "/get_user_gprs_templates",
    { summary: "The user's GPRS templates, a page at a time, by id", query: contracts.GetUserGprsTemplatesQuerySchema, response: contracts.GetUserGprsTemplatesResponseSchema },
    ({ user, query, req }) => gprs.list(db, user, query, req.url),
  );
  g.get("/add_user_gprs_template_data", { summary: "The protocols a GPRS template can be for", response: contracts.AddUserGprsTemplateDataResponseSchema }, gprs.addData);
  g.post("/add_user_gprs_template", { summary: "Create a GPRS template", body: contracts.AddUserGprsTemplateBodySchema, response: contracts.AddUserGprsTemplateResponseSchema }, ({ user, body }) => gprs.add(db, user, body));
  g.get(
    "/edit_user_gprs_template_data",
    { summary: "A GPRS template and the protocols it can be for", query: gprsId, response: contracts.EditUserGprsTemplateDataResponseSchema },
    ({ user, query }) => gprs.editData(db, user, query.user_gprs_template_id),
  );
  g.post("/edit_user_gprs_template", { summary: "Rewrite a GPRS template", body: contracts.EditUserGprsTemplateBodySchema, response: contracts.TemplateChangedResponseSchema }, async ({ user, body }) => (await gprs.edit(db, user, body), OK));
  g.get("/destroy_user_gprs_template", { summary: "Delete a GPRS template", query: gprsId, response: contracts.TemplateChangedResponseSchema }, async ({ user, query }) => (await gprs.destroy(db, user, query.user_gprs_template_id), OK));
  g.get("/get_user_gprs_message", { summary: "A GPRS template's message", query: gprsId, response: contracts.TemplateMessageResponseSchema }, ({ user, query }) => gprs.message(db, user, query.user_gprs_template_id));

  const s = endpoints(app, ["SMS Template"]);
  const smsId = contracts.UserSmsTemplateIdQuerySchema;
  s.get(
    "/get_user_sms_templates",
    { summary: "The user's SMS templates, a page at a time, by id", query: contracts.GetUserSmsTemplatesQuerySchema, response: contracts.GetUserSmsTemplatesResponseSchema },
    ({ user, query, req }) => sms.list(db, user, query, req.url),
  );
  s.get("/add_user_sms_template_data", { summary: "Nothing to choose from: SMS templates are free text", response: contracts.AddUserSmsTemplateDataResponseSchema }, sms.addData);
  s.post("/add_user_sms_template", { summary: "Create an SMS template (a title or a message at least)", body: contracts.AddUserSmsTemplateBodySchema, response: contracts.AddUserSmsTemplateResponseSchema }, ({ user, body }) => sms.add(db, user, body));
  s.get("/edit_user_sms_template_data", { summary: "An SMS template", query: smsId, response: contracts.EditUserSmsTemplateDataResponseSchema }, ({ user, query }) => sms.editData(db, user, query.user_sms_template_id));
  s.post(
    "/edit_user_sms_template",
    { summary: "Update an SMS template; an absent title or message keeps its value", body: contracts.EditUserSmsTemplateBodySchema, response: contracts.TemplateChangedResponseSchema },
    async ({ user, body }) => (await sms.edit(db, user, body), OK),
  );
  s.get("/destroy_user_sms_template", { summary: "Delete an SMS template", query: smsId, response: contracts.TemplateChangedResponseSchema }, async ({ user, query }) => (await sms.destroy(db, user, query.user_sms_template_id), OK));
  s.get("/get_user_sms_message", { summary: "An SMS template's message", query: smsId, response: contracts.TemplateMessageResponseSchema }, ({ user, query }) => sms.message(db, user, query.user_sms_template_id));
};

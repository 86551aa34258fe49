import {
  AddUserGprsTemplateBodySchema,
  AddUserGprsTemplateDataResponseSchema,
  AddUserGprsTemplateResponseSchema,
  AddUserSmsTemplateBodySchema,
  AddUserSmsTemplateDataResponseSchema,
  AddUserSmsTemplateResponseSchema,
  EditUserGprsTemplateBodySchema,
  EditUserGprsTemplateDataResponseSchema,
  EditUserSmsTemplateBodySchema,
  EditUserSmsTemplateDataResponseSchema,
  FailureResponses,
  GetUserGprsTemplatesQuerySchema,
  GetUserGprsTemplatesResponseSchema,
  GetUserSmsTemplatesQuerySchema,
  GetUserSmsTemplatesResponseSchema,
  TemplateChangedResponseSchema,
  TemplateMessageResponseSchema,
  UserGprsTemplateIdQuerySchema,
  UserSmsTemplateIdQuerySchema,
  formatDateTime,
  protocols,
  type GprsTemplateRecord,
  type SmsTemplateRecord,
} from "@fleet/contracts";
import {
  EmptySmsTemplateError,
  createGprsTemplate,
  createSmsTemplate,
  destroyGprsTemplate,
  destroySmsTemplate,
  findUserGprsTemplate,
  findUserSmsTemplate,
  listUserGprsTemplates,
  listUserSmsTemplates,
  updateGprsTemplate,
  updateSmsTemplate,
  type GprsTemplate,
  type SmsTemplate,
} from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply } from "fastify";
import { notFound } from "../lib/not-found.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { currentUser } from "../plugins/app/auth.js";

export function gprsTemplateRecord(t: GprsTemplate, timezoneId: number): GprsTemplateRecord {
  return {
    id: t.id,
    user_id: t.userId,
    title: t.title,
    message: t.message,
    protocol: t.protocol,
    created_at: formatDateTime(t.createdAt.getTime(), timezoneId),
    updated_at: formatDateTime(t.updatedAt.getTime(), timezoneId),
  };
}

export function smsTemplateRecord(t: SmsTemplate, timezoneId: number): SmsTemplateRecord {
  return {
    id: t.id,
    user_id: t.userId,
    title: t.title,
    message: t.message,
    created_at: formatDateTime(t.createdAt.getTime(), timezoneId),
    updated_at: formatDateTime(t.updatedAt.getTime(), timezoneId),
  };
}

/** The protocol options of the GPRS template forms: the catalogue, named as sent. */
const protocolOptions = () => protocols.map((p) => ({ id: p, title: p }));

function emptySmsTemplate(reply: FastifyReply) {
  return reply.code(422).send({ status: 0 as const, errors: { message: "The message field is required when the title is empty." } });
}

const gprsTemplateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const tags = ["GPRS Template"];
  const GPRS = "GPRS template";

  app.get(
    "/get_user_gprs_templates",
    { schema: { tags, summary: "The user's GPRS templates, a page at a time, by id", querystring: GetUserGprsTemplatesQuerySchema, response: { 200: GetUserGprsTemplatesResponseSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const page = pageRequest(req.query);
      const { total, templates } = await listUserGprsTemplates(db, user.id, pageWindow(page));
      const data = templates.map((t) => gprsTemplateRecord(t, user.timezoneId));
      return { items: { user_gprs_templates: paginate(req, page, total, data) }, status: 1 as const };
    },
  );

  app.get(
    "/add_user_gprs_template_data",
    { schema: { tags, summary: "The protocols a GPRS template can be for", response: { 200: AddUserGprsTemplateDataResponseSchema, ...FailureResponses } } },
    async () => ({ protocols: protocolOptions(), status: 1 as const }),
  );

  app.post(
    "/add_user_gprs_template",
    { schema: { tags, summary: "Create a GPRS template", body: AddUserGprsTemplateBodySchema, response: { 200: AddUserGprsTemplateResponseSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const { title, message, protocol } = req.body;
      const created = await createGprsTemplate(db, user.id, { title, message, protocol });
      return { status: 1 as const, item: gprsTemplateRecord(created, user.timezoneId) };
    },
  );

  app.get(
    "/edit_user_gprs_template_data",
    { schema: { tags, summary: "A GPRS template and the protocols it can be for", querystring: UserGprsTemplateIdQuerySchema, response: { 200: EditUserGprsTemplateDataResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const found = await findUserGprsTemplate(db, user.id, req.query.user_gprs_template_id);
      if (!found) return notFound(reply, GPRS);
      return { item: gprsTemplateRecord(found, user.timezoneId), protocols: protocolOptions(), status: 1 as const };
    },
  );

  app.post(
    "/edit_user_gprs_template",
    { schema: { tags, summary: "Rewrite a GPRS template", body: EditUserGprsTemplateBodySchema, response: { 200: TemplateChangedResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const { id, title, message, protocol } = req.body;
      const updated = await updateGprsTemplate(db, currentUser(req).id, id, { title, message, protocol });
      if (!updated) return notFound(reply, GPRS);
      return { status: 1 as const };
    },
  );

  app.get(
    "/destroy_user_gprs_template",
    { schema: { tags, summary: "Delete a GPRS template", querystring: UserGprsTemplateIdQuerySchema, response: { 200: TemplateChangedResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      if (!(await destroyGprsTemplate(db, currentUser(req).id, req.query.user_gprs_template_id))) return notFound(reply, GPRS);
      return { status: 1 as const };
    },
  );

  app.get(
    "/get_user_gprs_message",
    { schema: { tags, summary: "A GPRS template's message", querystring: UserGprsTemplateIdQuerySchema, response: { 200: TemplateMessageResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const found = await findUserGprsTemplate(db, currentUser(req).id, req.query.user_gprs_template_id);
      if (!found) return notFound(reply, GPRS);
      return { status: 1 as const, message: found.message };
    },
  );
};

const smsTemplateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const tags = ["SMS Template"];
  const SMS = "SMS template";

  app.get(
    "/get_user_sms_templates",
    { schema: { tags, summary: "The user's SMS templates, a page at a time, by id", querystring: GetUserSmsTemplatesQuerySchema, response: { 200: GetUserSmsTemplatesResponseSchema, ...FailureResponses } } },
    async (req) => {
      const user = currentUser(req);
      const page = pageRequest(req.query);
      const { total, templates } = await listUserSmsTemplates(db, user.id, pageWindow(page));
      const data = templates.map((t) => smsTemplateRecord(t, user.timezoneId));
      return { items: { user_sms_templates: paginate(req, page, total, data) }, status: 1 as const };
    },
  );

  app.get(
    "/add_user_sms_template_data",
    { schema: { tags, summary: "Nothing to choose from: SMS templates are free text", response: { 200: AddUserSmsTemplateDataResponseSchema, ...FailureResponses } } },
    async () => ({ status: 1 as const }),
  );

  app.post(
    "/add_user_sms_template",
    { schema: { tags, summary: "Create an SMS template (a title or a message at least)", body: AddUserSmsTemplateBodySchema, response: { 200: AddUserSmsTemplateResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      try {
        const created = await createSmsTemplate(db, user.id, { title: req.body.title, message: req.body.message });
        return { status: 1 as const, item: smsTemplateRecord(created, user.timezoneId) };
      } catch (err) {
        if (err instanceof EmptySmsTemplateError) return emptySmsTemplate(reply);
        throw err;
      }
    },
  );

  app.get(
    "/edit_user_sms_template_data",
    { schema: { tags, summary: "An SMS template", querystring: UserSmsTemplateIdQuerySchema, response: { 200: EditUserSmsTemplateDataResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const found = await findUserSmsTemplate(db, user.id, req.query.user_sms_template_id);
      if (!found) return notFound(reply, SMS);
      return { item: smsTemplateRecord(found, user.timezoneId), status: 1 as const };
    },
  );

  app.post(
    "/edit_user_sms_template",
    {
      schema: {
        tags,
        summary: "Update an SMS template; an absent title or message keeps its value",
        body: EditUserSmsTemplateBodySchema,
        response: { 200: TemplateChangedResponseSchema, ...FailureResponses },
      },
    },
    async (req, reply) => {
      try {
        const updated = await updateSmsTemplate(db, currentUser(req).id, req.body.id, { title: req.body.title, message: req.body.message });
        if (!updated) return notFound(reply, SMS);
        return { status: 1 as const };
      } catch (err) {
        if (err instanceof EmptySmsTemplateError) return emptySmsTemplate(reply);
        throw err;
      }
    },
  );

  app.get(
    "/destroy_user_sms_template",
    { schema: { tags, summary: "Delete an SMS template", querystring: UserSmsTemplateIdQuerySchema, response: { 200: TemplateChangedResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      if (!(await destroySmsTemplate(db, currentUser(req).id, req.query.user_sms_template_id))) return notFound(reply, SMS);
      return { status: 1 as const };
    },
  );

  app.get(
    "/get_user_sms_message",
    { schema: { tags, summary: "An SMS template's message", querystring: UserSmsTemplateIdQuerySchema, response: { 200: TemplateMessageResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const found = await findUserSmsTemplate(db, currentUser(req).id, req.query.user_sms_template_id);
      if (!found) return notFound(reply, SMS);
      return { status: 1 as const, message: found.message };
    },
  );
};

/** GPRS and SMS command templates: the user's own, seven endpoints each. */
export const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(gprsTemplateRoutes);
  await app.register(smsTemplateRoutes);
};

import { Type, type Static } from "@sinclair/typebox";
import { StatusOk } from "./common.js";
import { PageQuery, Paginated } from "./pagination.js";
import { protocols } from "./protocols.js";

/** Longest template (and command) text: far above any device command or multi-part SMS. */
export const TEMPLATE_MESSAGE_MAX = 1000;
export const TEMPLATE_TITLE_MAX = 255;

const Stamp = Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" });
// A title or message of blanks shows as nothing in a picker: at least one visible character.
const Visible = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: "\\S" });

/** A protocol of the catalogue (the option list of add/edit_user_gprs_template_data). */
export const TemplateProtocolSchema = Type.Union(
  protocols.map((p) => Type.Literal(p)),
  { description: "one of the protocols add_user_gprs_template_data lists" },
);

/** `{id, title}` protocol options, as the spec shows them for GPRS templates. */
export const ProtocolOptionSchema = Type.Object({ id: Type.String(), title: Type.String() });

// ---- GPRS templates --------------------------------------------------------------------

export const GprsTemplateSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  title: Type.String(),
  message: Type.String(),
  protocol: Type.String(),
  created_at: Stamp,
  updated_at: Stamp,
});
export type GprsTemplateRecord = Static<typeof GprsTemplateSchema>;

const gprsFields = {
  title: Visible(TEMPLATE_TITLE_MAX),
  message: Visible(TEMPLATE_MESSAGE_MAX),
  protocol: TemplateProtocolSchema,
};

export const AddUserGprsTemplateBodySchema = Type.Object(gprsFields);
export type AddUserGprsTemplateBody = Static<typeof AddUserGprsTemplateBodySchema>;

export const EditUserGprsTemplateBodySchema = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), ...gprsFields });
export type EditUserGprsTemplateBody = Static<typeof EditUserGprsTemplateBodySchema>;

/** `?user_gprs_template_id=N` of the edit data, destroy and message endpoints. */
export const UserGprsTemplateIdQuerySchema = Type.Object({ user_gprs_template_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export const GetUserGprsTemplatesQuerySchema = Type.Object({ ...PageQuery });

export const GetUserGprsTemplatesResponseSchema = Type.Object({ items: Type.Object({ user_gprs_templates: Paginated(GprsTemplateSchema) }), status: StatusOk });

export const AddUserGprsTemplateDataResponseSchema = Type.Object({ protocols: Type.Array(ProtocolOptionSchema), status: StatusOk });

export const AddUserGprsTemplateResponseSchema = Type.Object({ status: StatusOk, item: GprsTemplateSchema });

export const EditUserGprsTemplateDataResponseSchema = Type.Object({ item: GprsTemplateSchema, protocols: Type.Array(ProtocolOptionSchema), status: StatusOk });

// ---- SMS templates ---------------------------------------------------------------------

export const SmsTemplateSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  title: Type.String(),
  message: Type.String(),
  created_at: Stamp,
  updated_at: Stamp,
});
export type SmsTemplateRecord = Static<typeof SmsTemplateSchema>;

// Optional, as the spec has them; an absent or empty one is "". The route refuses a
// template whose title and message are both blank (it would be an empty, nameless option).
const smsFields = {
  title: Type.Optional(Type.String({ maxLength: TEMPLATE_TITLE_MAX })),
  message: Type.Optional(Type.String({ maxLength: TEMPLATE_MESSAGE_MAX })),
};

export const AddUserSmsTemplateBodySchema = Type.Object(smsFields);
export type AddUserSmsTemplateBody = Static<typeof AddUserSmsTemplateBodySchema>;

/** Absent title or message keeps the stored value; "" clears it. */
export const EditUserSmsTemplateBodySchema = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), ...smsFields });
export type EditUserSmsTemplateBody = Static<typeof EditUserSmsTemplateBodySchema>;

export const UserSmsTemplateIdQuerySchema = Type.Object({ user_sms_template_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export const GetUserSmsTemplatesQuerySchema = Type.Object({ ...PageQuery });

export const GetUserSmsTemplatesResponseSchema = Type.Object({ items: Type.Object({ user_sms_templates: Paginated(SmsTemplateSchema) }), status: StatusOk });

/** The spec shows no body and SMS templates have nothing to choose from: `{status: 1}`. */
export const AddUserSmsTemplateDataResponseSchema = Type.Object({ status: StatusOk });

export const AddUserSmsTemplateResponseSchema = Type.Object({ status: StatusOk, item: SmsTemplateSchema });

export const EditUserSmsTemplateDataResponseSchema = Type.Object({ item: SmsTemplateSchema, status: StatusOk });

// ---- both ------------------------------------------------------------------------------

/** get_user_gprs_message and get_user_sms_message. */
export const TemplateMessageResponseSchema = Type.Object({ status: StatusOk, message: Type.String() });

/** edit_* and destroy_* of either kind: the vendor's `success`. */
export const TemplateChangedResponseSchema = Type.Object({ status: StatusOk });

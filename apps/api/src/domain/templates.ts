import {
  NotFoundError,
  protocols,
  type AddUserGprsTemplateBody,
  type AddUserSmsTemplateBody,
  type EditUserGprsTemplateBody,
  type EditUserSmsTemplateBody,
  type GprsTemplateRecord,
  type SmsTemplateRecord,
  type UserClock,
} from "@fleet/contracts";
import {
  createGprsTemplate,
  createSmsTemplate,
  destroyGprsTemplate,
  destroySmsTemplate,
  findUserGprsTemplate,
  findUserSmsTemplate,
  pageUserGprsTemplates,
  pageUserSmsTemplates,
  updateGprsTemplate,
  updateSmsTemplate,
  type Db,
  type GprsTemplate,
  type Page,
  type SmsTemplate,
  type User,
} from "@fleet/db";
import { clockOf } from "../lib/clock.js";
import { pageRequest, pageWindow, paginate } from "../lib/pagination.js";
import { worded, type Wording } from "./refusals.js";

/*
 * The user's command templates: GPRS (for a protocol) and SMS (free text), seven
 * endpoints each that differ only in the fields a template has.
 */

type Template = GprsTemplate | SmsTemplate;

/** A template as the endpoints show it; a GPRS template's protocol among its fields. */
function record(t: GprsTemplate, clock: UserClock): GprsTemplateRecord;
function record(t: SmsTemplate, clock: UserClock): SmsTemplateRecord;
function record(t: Template, clock: UserClock): GprsTemplateRecord | SmsTemplateRecord {
  return {
    id: t.id,
    user_id: t.userId,
    title: t.title,
    message: t.message,
    ...("protocol" in t ? { protocol: t.protocol } : {}),
    created_at: clock.format(t.createdAt.getTime()),
    updated_at: clock.format(t.updatedAt.getTime()),
  };
}

interface Kind<T extends Template, R> {
  what: string;
  page(db: Db, userId: number, page: Page): Promise<{ total: number; rows: T[] }>;
  find(db: Db, userId: number, id: number): Promise<T | undefined>;
  destroy(db: Db, userId: number, id: number): Promise<boolean>;
  record(t: T, clock: UserClock): R;
}

type PageQuery = { page?: number; per_page?: number };

/** What both kinds do alike: a page, one template, its message, deleting it. */
function templates<T extends Template, R>(kind: Kind<T, R>) {
  const find = async (db: Db, user: User, id: number): Promise<T> => {
    const found = await kind.find(db, user.id, id);
    if (!found) throw new NotFoundError(kind.what);
    return found;
  };
  return {
    /** A page of the user's templates; `url` is the request's, for the page links. */
    async page(db: Db, user: User, query: PageQuery, url: string) {
      const page = pageRequest(query);
      const { total, rows } = await kind.page(db, user.id, pageWindow(page));
      return paginate({ url }, page, total, rows.map((t) => kind.record(t, clockOf(user))));
    },
    item: async (db: Db, user: User, id: number) => kind.record(await find(db, user, id), clockOf(user)),
    async destroy(db: Db, user: User, id: number): Promise<void> {
      if (!(await kind.destroy(db, user.id, id))) throw new NotFoundError(kind.what);
    },
    message: async (db: Db, user: User, id: number) => ({ status: 1 as const, message: (await find(db, user, id)).message }),
  };
}

// ---- GPRS ------------------------------------------------------------------------------

const GPRS = "GPRS template";
const gprsRows = templates<GprsTemplate, GprsTemplateRecord>({ what: GPRS, page: pageUserGprsTemplates, find: findUserGprsTemplate, destroy: destroyGprsTemplate, record });

/** The protocol options of the GPRS template forms: the catalogue, named as sent. */
const protocolOptions = () => protocols.map((p) => ({ id: p, title: p }));

const gprsFields = ({ title, message, protocol }: AddUserGprsTemplateBody) => ({ title, message, protocol });

export const gprs = {
  list: async (db: Db, user: User, query: PageQuery, url: string) => ({ items: { user_gprs_templates: await gprsRows.page(db, user, query, url) }, status: 1 as const }),
  addData: () => ({ protocols: protocolOptions(), status: 1 as const }),
  add: async (db: Db, user: User, body: AddUserGprsTemplateBody) => ({ status: 1 as const, item: record(await createGprsTemplate(db, user.id, gprsFields(body)), clockOf(user)) }),
  editData: async (db: Db, user: User, id: number) => ({ item: await gprsRows.item(db, user, id), protocols: protocolOptions(), status: 1 as const }),
  async edit(db: Db, user: User, body: EditUserGprsTemplateBody): Promise<void> {
    if (!(await updateGprsTemplate(db, user.id, body.id, gprsFields(body)))) throw new NotFoundError(GPRS);
  },
  destroy: gprsRows.destroy,
  message: gprsRows.message,
};

// ---- SMS -------------------------------------------------------------------------------

const SMS = "SMS template";
const smsRows = templates<SmsTemplate, SmsTemplateRecord>({ what: SMS, page: pageUserSmsTemplates, find: findUserSmsTemplate, destroy: destroySmsTemplate, record });

// The database refuses a template left with neither title nor message.
const smsWording: Wording = { message: { message: "The message field is required when the title is empty." } };

export const sms = {
  list: async (db: Db, user: User, query: PageQuery, url: string) => ({ items: { user_sms_templates: await smsRows.page(db, user, query, url) }, status: 1 as const }),
  addData: () => ({ status: 1 as const }),
  async add(db: Db, user: User, body: AddUserSmsTemplateBody) {
    const created = await worded(createSmsTemplate(db, user.id, { title: body.title, message: body.message }), smsWording);
    return { status: 1 as const, item: record(created, clockOf(user)) };
  },
  editData: async (db: Db, user: User, id: number) => ({ item: await smsRows.item(db, user, id), status: 1 as const }),
  async edit(db: Db, user: User, body: EditUserSmsTemplateBody): Promise<void> {
    if (!(await worded(updateSmsTemplate(db, user.id, body.id, { title: body.title, message: body.message }), smsWording))) throw new NotFoundError(SMS);
  },
  destroy: smsRows.destroy,
  message: smsRows.message,
};

import { describe, expect, it } from "vitest";
import {
  AddUserGprsTemplateDataResponseSchema,
  AddUserGprsTemplateResponseSchema,
  AddUserSmsTemplateDataResponseSchema,
  AddUserSmsTemplateResponseSchema,
  EditUserGprsTemplateDataResponseSchema,
  EditUserSmsTemplateDataResponseSchema,
  GetUserGprsTemplatesResponseSchema,
  GetUserSmsTemplatesResponseSchema,
  TemplateChangedResponseSchema,
  TemplateMessageResponseSchema,
  userClock,
  protocols,
} from "@fleet/contracts";
import { findUserGprsTemplate, findUserSmsTemplate, schema } from "@fleet/db";
import { describeApi, failure, invalid, ok, type ApiHarness, type BodyEncoding, type TestUser } from "./fixture.js";

const INJECTION = "'; DROP TABLE gprs_templates; -- <script>alert(1)</script>";

async function addGprs(h: ApiHarness, user: TestUser, fields: Record<string, string> = {}, as: BodyEncoding = "json") {
  const body = { title: "Reboot", message: "RESET#", protocol: "gt06", ...fields };
  return ok(await h.post("/add_user_gprs_template", { user, body, as }), AddUserGprsTemplateResponseSchema).item;
}

async function addSms(h: ApiHarness, user: TestUser, body: Record<string, string>, as: BodyEncoding = "json") {
  return ok(await h.post("/add_user_sms_template", { user, body, as }), AddUserSmsTemplateResponseSchema).item;
}

const gprsList = async (h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) =>
  ok(await h.get("/get_user_gprs_templates", { user, query }), GetUserGprsTemplatesResponseSchema).items.user_gprs_templates;
const smsList = async (h: ApiHarness, user: TestUser, query: Record<string, string | number> = {}) =>
  ok(await h.get("/get_user_sms_templates", { user, query }), GetUserSmsTemplatesResponseSchema).items.user_sms_templates;

/** Both template tables, to check a refused request wrote nothing. */
const allTemplates = async (h: ApiHarness) => [await h.db.select().from(schema.gprsTemplates), await h.db.select().from(schema.smsTemplates)];

describeApi("command templates", (h) => {
  describe("GPRS templates", () => {
    it("starts as an empty page", async () => {
      const user = await h.newUser();
      expect(await gprsList(h, user)).toEqual({
        total: 0,
        per_page: 10,
        current_page: 1,
        last_page: 1,
        from: 0,
        to: 0,
        next_page_url: null,
        prev_page_url: null,
        url: "/api/get_user_gprs_templates",
        data: [],
      });
    });

    it("offers the protocol catalogue as {id, title}", async () => {
      const user = await h.newUser();
      const data = ok(await h.get("/add_user_gprs_template_data", { user }), AddUserGprsTemplateDataResponseSchema);
      expect(data).toEqual({ protocols: protocols.map((p) => ({ id: p, title: p })), status: 1 });
    });

    it("adds a template from JSON, a form or multipart and returns it as the record, timestamps in the user's timezone", async () => {
      const user = await h.newUser({ timezoneId: 65 }); // UTC+02:00
      for (const as of ["json", "form", "multipart"] as const) {
        const item = await addGprs(h, user, { title: `Reboot ${as}`, message: "RESET#,[%IMEI%]", protocol: "teltonika" }, as);
        const row = (await findUserGprsTemplate(h.db, user.id, item.id))!;
        expect(item).toEqual({
          id: row.id,
          user_id: user.id,
          title: `Reboot ${as}`,
          message: "RESET#,[%IMEI%]",
          protocol: "teltonika",
          created_at: userClock({ timezoneId: 65 }).format(row.createdAt.getTime()),
          updated_at: userClock({ timezoneId: 65 }).format(row.updatedAt.getTime()),
        });
      }
      const page = await gprsList(h, user);
      expect(page.total).toBe(3);
      expect(page.data.map((t) => t.title)).toEqual(["Reboot json", "Reboot form", "Reboot multipart"]);
    });

    it("pages templates by id with per_page", async () => {
      const user = await h.newUser();
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) ids.push((await addGprs(h, user, { title: `T${i}` })).id);
      const first = await gprsList(h, user);
      expect(first).toMatchObject({ total: 12, last_page: 2, from: 1, to: 10 });
      expect(first.data.map((t) => t.id)).toEqual(ids.slice(0, 10));
      const second = await gprsList(h, user, { page: 2, per_page: 5 });
      expect(second.data.map((t) => t.id)).toEqual(ids.slice(5, 10));
      invalid(await h.get("/get_user_gprs_templates", { user, query: { per_page: 101 } }));
    });

    it("refuses missing, blank, oversized and unknown fields, every one at once, and writes nothing", async () => {
      const user = await h.newUser();
      const before = await allTemplates(h);
      expect(invalid(await h.post("/add_user_gprs_template", { user, body: {} }))).toEqual({
        title: "The title field is required.",
        message: "The message field is required.",
        protocol: "The protocol field is required.",
      });
      const bad = invalid(await h.post("/add_user_gprs_template", { user, body: { title: "   ", message: "x".repeat(1001), protocol: "nokia3310" } }));
      expect(Object.keys(bad).sort()).toEqual(["message", "protocol", "title"]);
      expect(bad.protocol).toBe("The selected protocol is invalid.");
      expect(Object.keys(invalid(await h.post("/add_user_gprs_template", { user, body: { title: "x".repeat(256), message: "ok", protocol: "gt06" } })))).toEqual(["title"]);
      expect(Object.keys(invalid(await h.post("/add_user_gprs_template", { user, body: { title: { $ne: 1 }, message: ["a", "b"], protocol: 5 } }))).sort()).toEqual(["message", "protocol", "title"]);
      expect(Object.keys(invalid(await h.post("/add_user_gprs_template", { user, body: { title: "t", message: "m", protocol: INJECTION } })))).toEqual(["protocol"]);
      expect(await allTemplates(h)).toEqual(before);
    });

    it("stores text exactly as sent, injection strings included", async () => {
      const user = await h.newUser();
      const item = await addGprs(h, user, { title: INJECTION, message: INJECTION });
      expect(ok(await h.get("/get_user_gprs_message", { user, query: { user_gprs_template_id: item.id } }), TemplateMessageResponseSchema)).toEqual({ status: 1, message: INJECTION });
      expect((await gprsList(h, user)).data[0]!.title).toBe(INJECTION);
    });

    it("reads, edits, answers the message of and destroys a template", async () => {
      const user = await h.newUser();
      const item = await addGprs(h, user);
      const data = ok(await h.get("/edit_user_gprs_template_data", { user, query: { user_gprs_template_id: item.id } }), EditUserGprsTemplateDataResponseSchema);
      expect(data).toEqual({ item, protocols: protocols.map((p) => ({ id: p, title: p })), status: 1 });

      const edited = { id: item.id, title: "Stop engine", message: "RELAY,1#", protocol: "gt06" };
      expect(ok(await h.post("/edit_user_gprs_template", { user, body: edited, as: "multipart" }), TemplateChangedResponseSchema)).toEqual({ status: 1 });
      const after = ok(await h.get("/edit_user_gprs_template_data", { user, query: { user_gprs_template_id: item.id } }), EditUserGprsTemplateDataResponseSchema).item;
      expect(after).toMatchObject({ title: "Stop engine", message: "RELAY,1#", protocol: "gt06", created_at: item.created_at });
      expect(ok(await h.get("/get_user_gprs_message", { user, query: { user_gprs_template_id: item.id } }), TemplateMessageResponseSchema)).toEqual({ status: 1, message: "RELAY,1#" });

      // Every field is required on edit, as the spec lists them.
      expect(Object.keys(invalid(await h.post("/edit_user_gprs_template", { user, body: { id: item.id, title: "Only title" } }))).sort()).toEqual(["message", "protocol"]);

      expect(ok(await h.get("/destroy_user_gprs_template", { user, query: { user_gprs_template_id: item.id } }), TemplateChangedResponseSchema)).toEqual({ status: 1 });
      for (const path of ["/edit_user_gprs_template_data", "/get_user_gprs_message", "/destroy_user_gprs_template"]) {
        expect(failure(await h.get(path, { user, query: { user_gprs_template_id: item.id } }), 404)).toBe("GPRS template not found.");
      }
      expect(failure(await h.post("/edit_user_gprs_template", { user, body: edited }), 404)).toBe("GPRS template not found.");
    });

    it("refuses ids that are not ids", async () => {
      const user = await h.newUser();
      for (const bad of ["abc", "0", "-1", "1.5", "99999999999", "1 OR 1=1"]) {
        expect(Object.keys(invalid(await h.get("/get_user_gprs_message", { user, query: { user_gprs_template_id: bad } })))).toEqual(["user_gprs_template_id"]);
      }
      invalid(await h.get("/destroy_user_gprs_template", { user }));
    });

    it("treats another user's template as a missing one and leaves it alone", async () => {
      const a = await h.newUser();
      const b = await h.newUser();
      const mine = await addGprs(h, a, { title: "A's secret template" });
      const before = await findUserGprsTemplate(h.db, a.id, mine.id);
      const missing = 2_000_000_000;
      for (const id of [mine.id, missing]) {
        for (const path of ["/edit_user_gprs_template_data", "/get_user_gprs_message", "/destroy_user_gprs_template"]) {
          expect(failure(await h.get(path, { user: b, query: { user_gprs_template_id: id } }), 404)).toBe("GPRS template not found.");
        }
        expect(failure(await h.post("/edit_user_gprs_template", { user: b, body: { id, title: "Mine now", message: "x", protocol: "gt06" } }), 404)).toBe("GPRS template not found.");
      }
      expect(await findUserGprsTemplate(h.db, a.id, mine.id)).toEqual(before);
      const listed = await h.get("/get_user_gprs_templates", { user: b });
      expect(listed.text).not.toContain("A's secret template");
      expect((await gprsList(h, b)).total).toBe(0);
    });
  });

  describe("SMS templates", () => {
    it("has nothing to choose from when adding", async () => {
      const user = await h.newUser();
      expect(ok(await h.get("/add_user_sms_template_data", { user }), AddUserSmsTemplateDataResponseSchema)).toEqual({ status: 1 });
      expect((await smsList(h, user)).data).toEqual([]);
    });

    it("adds templates with a title, a message or both; an absent field is empty", async () => {
      const user = await h.newUser();
      const both = await addSms(h, user, { title: "Locate", message: "WHERE#" }, "form");
      const onlyMessage = await addSms(h, user, { message: "STATUS#" }, "multipart");
      const onlyTitle = await addSms(h, user, { title: "Fill in later" });
      expect([both, onlyMessage, onlyTitle].map((t) => [t.title, t.message])).toEqual([
        ["Locate", "WHERE#"],
        ["", "STATUS#"],
        ["Fill in later", ""],
      ]);
      const row = (await findUserSmsTemplate(h.db, user.id, both.id))!;
      expect(both).toEqual({ id: row.id, user_id: user.id, title: "Locate", message: "WHERE#", created_at: userClock({ timezoneId: 0 }).format(row.createdAt.getTime()), updated_at: userClock({ timezoneId: 0 }).format(row.updatedAt.getTime()) });
      expect((await smsList(h, user)).data.map((t) => t.id)).toEqual([both.id, onlyMessage.id, onlyTitle.id]);
    });

    it("refuses an empty template, oversized fields and wrong types, and writes nothing", async () => {
      const user = await h.newUser();
      const before = await allTemplates(h);
      expect(invalid(await h.post("/add_user_sms_template", { user, body: {} }))).toEqual({ message: "The message field is required when the title is empty." });
      expect(Object.keys(invalid(await h.post("/add_user_sms_template", { user, body: { title: " ", message: "\t" } })))).toEqual(["message"]);
      expect(Object.keys(invalid(await h.post("/add_user_sms_template", { user, body: { title: "x".repeat(256), message: "y".repeat(1001) } }))).sort()).toEqual(["message", "title"]);
      expect(Object.keys(invalid(await h.post("/add_user_sms_template", { user, body: { title: { $ne: 1 }, message: "ok" } })))).toEqual(["title"]);
      expect(await allTemplates(h)).toEqual(before);
    });

    it("edits: an absent field keeps its value, an empty one clears it, but never both empty", async () => {
      const user = await h.newUser();
      const item = await addSms(h, user, { title: "Locate", message: "WHERE#" });
      const read = async () => ok(await h.get("/edit_user_sms_template_data", { user, query: { user_sms_template_id: item.id } }), EditUserSmsTemplateDataResponseSchema);

      ok(await h.post("/edit_user_sms_template", { user, body: { id: item.id, message: "WHERE,1#" } }), TemplateChangedResponseSchema);
      expect((await read()).item).toMatchObject({ title: "Locate", message: "WHERE,1#" });
      ok(await h.post("/edit_user_sms_template", { user, body: { id: item.id, title: "" }, as: "form" }), TemplateChangedResponseSchema);
      expect(await read()).toEqual({ item: expect.objectContaining({ id: item.id, title: "", message: "WHERE,1#" }), status: 1 });

      const before = await allTemplates(h);
      expect(invalid(await h.post("/edit_user_sms_template", { user, body: { id: item.id, message: "" } }))).toEqual({ message: "The message field is required when the title is empty." });
      expect(await allTemplates(h)).toEqual(before);
      expect(ok(await h.get("/get_user_sms_message", { user, query: { user_sms_template_id: item.id } }), TemplateMessageResponseSchema)).toEqual({ status: 1, message: "WHERE,1#" });
      invalid(await h.post("/edit_user_sms_template", { user, body: { title: "no id" } }));
    });

    it("destroys a template; then it is not found anywhere", async () => {
      const user = await h.newUser();
      const item = await addSms(h, user, { title: "Gone", message: "soon" });
      ok(await h.get("/destroy_user_sms_template", { user, query: { user_sms_template_id: item.id } }), TemplateChangedResponseSchema);
      for (const path of ["/edit_user_sms_template_data", "/get_user_sms_message", "/destroy_user_sms_template"]) {
        expect(failure(await h.get(path, { user, query: { user_sms_template_id: item.id } }), 404)).toBe("SMS template not found.");
      }
      expect(failure(await h.post("/edit_user_sms_template", { user, body: { id: item.id, title: "back" } }), 404)).toBe("SMS template not found.");
    });

    it("treats another user's template as a missing one and leaves it alone", async () => {
      const a = await h.newUser();
      const b = await h.newUser();
      const mine = await addSms(h, a, { title: "A's private SMS", message: "secret" });
      const before = await findUserSmsTemplate(h.db, a.id, mine.id);
      for (const id of [mine.id, 2_000_000_000]) {
        for (const path of ["/edit_user_sms_template_data", "/get_user_sms_message", "/destroy_user_sms_template"]) {
          expect(failure(await h.get(path, { user: b, query: { user_sms_template_id: id } }), 404)).toBe("SMS template not found.");
        }
        // Blank on both sides too: the 404 comes first, so it cannot tell a foreign id from a missing one.
        expect(failure(await h.post("/edit_user_sms_template", { user: b, body: { id, title: "", message: "" } }), 404)).toBe("SMS template not found.");
      }
      expect(await findUserSmsTemplate(h.db, a.id, mine.id)).toEqual(before);
      const listed = await h.get("/get_user_sms_templates", { user: b });
      expect(listed.text).not.toContain("A's private SMS");
    });
  });
});

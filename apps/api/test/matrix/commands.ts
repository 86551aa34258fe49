/* GPRS and SMS templates and commands in the matrices. */
import { AddUserGprsTemplateResponseSchema, AddUserSmsTemplateResponseSchema } from "@fleet/contracts";
import { ok, type ApiHarness, type TestUser } from "../fixture.js";
import type { IdCase, ListCase, MatrixGroup, Records, RequestSpec } from "./types.js";

const get = (h: ApiHarness, user: TestUser, path: string, query: Record<string, string | number>) => h.get(path, { user, query });
const post = (h: ApiHarness, user: TestUser, path: string, body: unknown) => h.post(path, { user, body });
const gprsFields = { title: "Taken over", message: "RESET#", protocol: "gt06" };

const idCases: IdCase[] = [
  { route: "get /edit_user_gprs_template_data", call: (h, u, t) => get(h, u, "/edit_user_gprs_template_data", { user_gprs_template_id: t.gprsTemplate }) },
  { route: "post /edit_user_gprs_template", call: (h, u, t) => post(h, u, "/edit_user_gprs_template", { id: t.gprsTemplate, ...gprsFields }) },
  { route: "get /destroy_user_gprs_template", call: (h, u, t) => get(h, u, "/destroy_user_gprs_template", { user_gprs_template_id: t.gprsTemplate }) },
  { route: "get /get_user_gprs_message", call: (h, u, t) => get(h, u, "/get_user_gprs_message", { user_gprs_template_id: t.gprsTemplate }) },
  { route: "get /edit_user_sms_template_data", call: (h, u, t) => get(h, u, "/edit_user_sms_template_data", { user_sms_template_id: t.smsTemplate }) },
  { route: "post /edit_user_sms_template", call: (h, u, t) => post(h, u, "/edit_user_sms_template", { id: t.smsTemplate, title: "Taken over", message: "" }) },
  { route: "get /destroy_user_sms_template", call: (h, u, t) => get(h, u, "/destroy_user_sms_template", { user_sms_template_id: t.smsTemplate }) },
  { route: "get /get_user_sms_message", call: (h, u, t) => get(h, u, "/get_user_sms_message", { user_sms_template_id: t.smsTemplate }) },
  { route: "get /get_device_commands", call: (h, u, t) => get(h, u, "/get_device_commands", { device_id: t.device }) },
  { route: "post /send_gprs_command", call: (h, u, t) => post(h, u, "/send_gprs_command", { device_id: t.device, type: "engineStop" }) },
  { route: "post /send_gprs_command (custom)", call: (h, u, t) => post(h, u, "/send_gprs_command", { device_id: t.device, type: "custom", data: "STATUS,[%IMEI%]#", request_id: "iso-1" }) },
  { route: "post /send_sms_command", call: (h, u, t) => post(h, u, "/send_sms_command", { devices: [t.device], message: "Where are you?" }) },
];

const listCases: ListCase[] = [
  { route: "get /get_user_gprs_templates", call: (h, u) => h.get("/get_user_gprs_templates", { user: u }) },
  { route: "get /add_user_gprs_template_data", call: (h, u) => h.get("/add_user_gprs_template_data", { user: u }) },
  { route: "get /get_user_sms_templates", call: (h, u) => h.get("/get_user_sms_templates", { user: u }) },
  { route: "get /add_user_sms_template_data", call: (h, u) => h.get("/add_user_sms_template_data", { user: u }) },
  { route: "get /send_command_data", call: (h, u) => h.get("/send_command_data", { user: u }) },
];

const valid: Record<string, (o: Records) => RequestSpec> = {
  "get /get_user_gprs_templates": () => ({ query: { page: 1 } }),
  "get /add_user_gprs_template_data": () => ({}),
  "post /add_user_gprs_template": () => ({ body: { title: "Reboot", message: "RESET#", protocol: "gt06" } }),
  "get /edit_user_gprs_template_data": (o) => ({ query: { user_gprs_template_id: o.gprsTemplate } }),
  "post /edit_user_gprs_template": (o) => ({ body: { id: o.gprsTemplate, title: "Reboot", message: "RESET#", protocol: "gt06" } }),
  "get /destroy_user_gprs_template": (o) => ({ query: { user_gprs_template_id: o.gprsTemplate } }),
  "get /get_user_gprs_message": (o) => ({ query: { user_gprs_template_id: o.gprsTemplate } }),
  "get /get_user_sms_templates": () => ({ query: { page: 1 } }),
  "get /add_user_sms_template_data": () => ({}),
  "post /add_user_sms_template": () => ({ body: { title: "Locate", message: "WHERE#" } }),
  "get /edit_user_sms_template_data": (o) => ({ query: { user_sms_template_id: o.smsTemplate } }),
  "post /edit_user_sms_template": (o) => ({ body: { id: o.smsTemplate, title: "Locate", message: "WHERE#" } }),
  "get /destroy_user_sms_template": (o) => ({ query: { user_sms_template_id: o.smsTemplate } }),
  "get /get_user_sms_message": (o) => ({ query: { user_sms_template_id: o.smsTemplate } }),
  "get /send_command_data": () => ({}),
  "get /get_device_commands": (o) => ({ query: { device_id: o.device } }),
  "post /send_gprs_command": (o) => ({ body: { device_id: o.device, type: "positionPeriodic", unit: "minute", frequency: 5 } }),
  "post /send_sms_command": (o) => ({ body: { devices: [o.device], message: "WHERE#" } }),
};

async function seed(h: ApiHarness, user: TestUser, _base: Records, tag: string): Promise<Partial<Records>> {
  const gprsTemplate = ok(await h.post("/add_user_gprs_template", { user, body: { title: `GPRS template of ${tag}`, message: `GPRS message of ${tag}`, protocol: "gt06" } }), AddUserGprsTemplateResponseSchema).item.id;
  const smsTemplate = ok(await h.post("/add_user_sms_template", { user, body: { title: `SMS template of ${tag}`, message: `SMS message of ${tag}` } }), AddUserSmsTemplateResponseSchema).item.id;
  return { gprsTemplate, smsTemplate };
}

export const commandsGroup: MatrixGroup = {
  seed,
  privateText: (tag) => [`GPRS template of ${tag}`, `GPRS message of ${tag}`, `SMS template of ${tag}`, `SMS message of ${tag}`],
  idCases,
  listCases,
  accountOnly: ["post /add_user_gprs_template", "post /add_user_sms_template"],
  valid,
};

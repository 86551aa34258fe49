import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AddUserGprsTemplateResponseSchema,
  AddUserSmsTemplateResponseSchema,
  GetDeviceCommandsResponseSchema,
  OkSchema,
  QueuedCommandSchema,
  SendCommandDataResponseSchema,
  SendGprsCommandResponseSchema,
  SendSmsCommandResponseSchema,
  Topics,
  type DeviceCommand,
} from "@fleet/contracts";
import { findUserDevice, listUserSentCommands, schema } from "@fleet/db";
import { describeApi, expectSchema, failure, invalid, liveState, ok, SMS_GATEWAY_TIMEOUT_MS, type ApiHarness, type TestUser } from "./fixture.js";

// ---- a real SMS gateway: an HTTP server on a free loopback port --------------------------

interface GatewayRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage["headers"];
  body: string;
}

class FakeGateway {
  readonly received: GatewayRequest[] = [];
  /** What to answer: an HTTP status, or "hang" to never answer. */
  answer: number | "hang" = 200;
  private server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://gateway");
        this.received.push({ method: req.method ?? "", path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body });
        if (this.answer === "hang") return;
        res.writeHead(this.answer, { "content-type": "text/plain" }).end(this.answer === 200 ? "OK" : "failure");
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

// ---- helpers ----------------------------------------------------------------------------

const DEFAULT_TYPES = ["engineStop", "engineResume", "alarmArm", "alarmDisarm", "positionSingle", "positionPeriodic", "positionStop", "movementAlarm", "setTimezone", "rebootDevice", "sendSms", "custom"];

async function reportAs(h: ApiHarness, user: TestUser, deviceId: number, protocol: string): Promise<void> {
  const device = (await findUserDevice(h.db, user.id, deviceId))!;
  await h.live.putStates([{ state: liveState(deviceId, { protocol, uniqueId: device.imei }), userIds: [user.id] }]);
}

async function imeiOf(h: ApiHarness, user: TestUser, deviceId: number): Promise<string> {
  return (await findUserDevice(h.db, user.id, deviceId))!.imei;
}

const sendGprs = (h: ApiHarness, user: TestUser, body: Record<string, unknown>, headers?: Record<string, string>) => h.post("/send_gprs_command", { user, body, ...(headers ? { headers } : {}) });

/** The bus messages queued for `imei`. */
const queuedFor = (h: ApiHarness, imei: string) => h.busMessages.filter((m) => m.key === imei);

const commandsOf = async (h: ApiHarness, user: TestUser, deviceId: number) => ok(await h.get("/get_device_commands", { user, query: { device_id: deviceId } }), GetDeviceCommandsResponseSchema);
const byType = (commands: DeviceCommand[]) => new Map(commands.map((c) => [c.type, c]));

async function setGateway(h: ApiHarness, user: TestUser, settings: Record<string, unknown>): Promise<void> {
  const body = { unit_of_distance: "km", unit_of_capacity: "lt", unit_of_altitude: "mt", timezone_id: 0, groups: [], sms_gateway: 1, request_method: "get", ...settings };
  ok(await h.post("/edit_setup", { user, body }), OkSchema);
}

const commandRows = (h: ApiHarness) => h.db.select().from(schema.sentCommands);

describeApi("commands", (h) => {
  describe("send_command_data", () => {
    it("lists devices, templates (no template first), commands and options as the spec has them", async () => {
      const user = await h.newUser();
      const withSim = await h.addDevice(user, { name: "Phone tracker", sim_number: "+37060000001" });
      const noSim = await h.addDevice(user, { name: "Silent tracker" });
      await reportAs(h, user, withSim, "watch");
      const sms = ok(await h.post("/add_user_sms_template", { user, body: { title: "Locate", message: "WHERE#" } }), AddUserSmsTemplateResponseSchema).item;
      const gprs = ok(await h.post("/add_user_gprs_template", { user, body: { title: "Reboot", message: "RESET#", protocol: "gt06" } }), AddUserGprsTemplateResponseSchema).item;

      const data = ok(await h.get("/send_command_data", { user }), SendCommandDataResponseSchema);
      expect(data.devices_sms).toEqual([{ id: withSim, value: "Phone tracker" }]);
      expect(data.devices_gprs).toEqual([
        { id: withSim, value: "Phone tracker" },
        { id: noSim, value: "Silent tracker" },
      ]);
      expect(data.sms_templates).toEqual([
        { id: "0", title: "-- none --", message: null },
        { id: String(sms.id), title: "Locate", message: "WHERE#" },
      ]);
      expect(data.gprs_templates).toEqual([
        { id: "0", title: "-- none --", message: null },
        { id: String(gprs.id), title: "Reboot", message: "RESET#" },
      ]);
      expect(data.commands.map((c) => c.id)).toEqual(DEFAULT_TYPES);
      expect(data.units.map((u) => u.id)).toEqual(["second", "minute", "hour"]);
      expect(data.number_index.map((u) => u.id)).toEqual([1, 2, 3, 0]);
      expect(data.actions).toEqual([
        { id: 1, value: "On" },
        { id: 0, value: "Off" },
      ]);
      expect(data.devices_protocols).toEqual({ [String(withSim)]: "watch" });
      expect(Object.keys(data.commands_all.default)).toEqual(DEFAULT_TYPES);
      expect(Object.keys(data.commands_all.watch)).toEqual(["sosNumber", "alarmSos", "alarmBattery", "alarmRemove", "rebootDevice", "silenceTime", "alarmClock", "setPhonebook"]);
      expect(Object.keys(data.commands_all.pt502)).toEqual(["engineStop", "engineResume"]);
      expect(data.status).toBe(1);
    });

    it("shows nothing of another user's", async () => {
      const a = await h.newUser();
      const b = await h.newUser();
      const device = await h.addDevice(a, { name: "A's hidden car", sim_number: "+37060000002" });
      await reportAs(h, a, device, "gt06");
      ok(await h.post("/add_user_sms_template", { user: a, body: { title: "A's hidden SMS" } }), AddUserSmsTemplateResponseSchema);
      const res = await h.get("/send_command_data", { user: b });
      const data = ok(res, SendCommandDataResponseSchema);
      expect(res.text).not.toContain("A's hidden");
      expect([data.devices_sms, data.devices_gprs, data.devices_protocols]).toEqual([[], [], {}]);
      expect(data.sms_templates).toHaveLength(1);
    });
  });

  describe("get_device_commands", () => {
    it("offers the default commands to a device that has not reported, with the spec's descriptors", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const res = await h.get("/get_device_commands", { user, query: { device_id: device } });
      const commands = ok(res, GetDeviceCommandsResponseSchema);
      expect(Array.isArray(res.body)).toBe(true); // no status, as the spec says
      expect(commands.map((c) => c.type)).toEqual(DEFAULT_TYPES);
      const c = byType(commands);
      expect(c.get("engineStop")).toEqual({ type: "engineStop", title: "Engine stop", attributes: [] });
      expect(c.get("positionPeriodic")!.attributes).toEqual([
        {
          title: "Unit",
          name: "unit",
          type: "select",
          options: [
            { id: "second", title: "Second" },
            { id: "minute", title: "Minute" },
            { id: "hour", title: "Hour" },
          ],
          default: "second",
          validation: "required|in:second,minute,hour",
        },
        expect.objectContaining({ name: "frequency", type: "integer", validation: "required|integer|min:1|max:86400" }),
      ]);
      expect(c.get("positionSingle")!.attributes.map((a) => [a.name, a.type])).toEqual([
        ["unit", "select"],
        ["frequency", "integer"],
      ]);
      expect(c.get("setTimezone")!.attributes.map((a) => [a.name, a.type])).toEqual([["timezone", "integer"]]);
      expect(c.get("custom")!.attributes).toEqual([expect.objectContaining({ name: "data", type: "text" })]);
      expect(c.get("rebootDevice")!.attributes).toEqual([]);
    });

    it("follows the protocol of the device's latest position", async () => {
      const user = await h.newUser();
      const watch = await h.addDevice(user);
      const pt502 = await h.addDevice(user);
      const meitrack = await h.addDevice(user);
      await reportAs(h, user, watch, "watch");
      await reportAs(h, user, pt502, "pt502");
      await reportAs(h, user, meitrack, "meitrack");

      const w = byType(await commandsOf(h, user, watch));
      expect([...w.keys()]).toEqual(expect.arrayContaining(["sosNumber", "alarmSos", "alarmBattery", "alarmRemove", "rebootDevice", "silenceTime", "alarmClock", "setPhonebook", "custom"]));
      expect(w.has("engineStop")).toBe(false);
      expect(w.get("rebootDevice")!.title).toBe("Restart");
      for (const t of ["alarmSos", "alarmBattery", "alarmRemove"]) {
        expect(w.get(t)!.attributes).toEqual([expect.objectContaining({ name: "enable", type: "select", options: [expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 0 })] })]);
      }
      expect(w.get("alarmClock")!.attributes).toEqual([expect.objectContaining({ name: "data", type: "string" })]);
      const sos = w.get("sosNumber")!.attributes;
      expect(sos.map((a) => [a.name, a.type])).toEqual([
        ["index", "select"],
        ["phone", "string"],
      ]);
      expect(sos[0]!.options!.map((o) => o.id)).toEqual([0, 1, 2]);

      expect((await commandsOf(h, user, pt502)).map((c) => c.type)).toEqual(["engineStop", "engineResume", "custom"]);
      expect((await commandsOf(h, user, meitrack)).map((c) => c.type)).toContain("requestPhoto");
    });

    it("answers another user's device exactly as a missing one", async () => {
      const a = await h.newUser();
      const b = await h.newUser();
      const device = await h.addDevice(a);
      const theirs = await h.get("/get_device_commands", { user: b, query: { device_id: device } });
      const none = await h.get("/get_device_commands", { user: b, query: { device_id: 2_000_000_000 } });
      expect(failure(theirs, 404)).toBe("Device not found.");
      expect(theirs.body).toEqual(none.body);
      expect(Object.keys(invalid(await h.get("/get_device_commands", { user: b, query: { device_id: "abc" } })))).toEqual(["device_id"]);
    });
  });

  describe("send_gprs_command", () => {
    beforeEach(() => {
      h.busDown = false;
    });

    it("queues the command on the commands topic keyed by IMEI and records it as queued", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const imei = await imeiOf(h, user, device);
      await reportAs(h, user, device, "gt06");
      const before = Date.now();
      const { id } = ok(await sendGprs(h, user, { device_id: device, type: "positionPeriodic", unit: "minute", frequency: "5" }), SendGprsCommandResponseSchema);

      const queued = queuedFor(h, imei);
      expect(queued).toHaveLength(1);
      expect(queued[0]!.topic).toBe(Topics.commands);
      const message = expectSchema(QueuedCommandSchema, queued[0]!.value, "queued command");
      expect(message).toEqual({ id, userId: user.id, deviceId: device, imei, protocol: "gt06", type: "positionPeriodic", attributes: { unit: "minute", frequency: 5 }, queuedAt: expect.any(Number) });
      expect(message.queuedAt).toBeGreaterThanOrEqual(before - 5000);

      const rows = await listUserSentCommands(h.db, user.id);
      expect(rows).toEqual([expect.objectContaining({ id, deviceId: device, channel: "gprs", type: "positionPeriodic", payload: { unit: "minute", frequency: 5 }, status: "queued", requestKey: null })]);
    });

    it("sends a form or multipart body too, and a device that never reported gets protocol null", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const imei = await imeiOf(h, user, device);
      ok(await h.post("/send_gprs_command", { user, as: "form", body: { device_id: device, type: "engineStop" } }), SendGprsCommandResponseSchema);
      ok(await h.post("/send_gprs_command", { user, as: "multipart", body: { device_id: device, type: "alarmArm" } }), SendGprsCommandResponseSchema);
      expect(queuedFor(h, imei).map((m) => m.value)).toEqual([expect.objectContaining({ type: "engineStop", protocol: null, attributes: {} }), expect.objectContaining({ type: "alarmArm" })]);
    });

    it("replaces every [%IMEI%] of a custom command, taken from data or else from message", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const imei = await imeiOf(h, user, device);
      ok(await sendGprs(h, user, { device_id: device, type: "custom", data: "SERVER,[%IMEI%],1,[%IMEI%]#" }), SendGprsCommandResponseSchema);
      ok(await sendGprs(h, user, { device_id: device, type: "custom", message: "ID=[%IMEI%]" }), SendGprsCommandResponseSchema);
      expect(queuedFor(h, imei).map((m) => (m.value as { attributes: unknown }).attributes)).toEqual([{ data: `SERVER,${imei},1,${imei}#` }, { data: `ID=${imei}` }]);
      expect((await listUserSentCommands(h.db, user.id)).map((r) => r.payload)).toEqual([{ data: `SERVER,${imei},1,${imei}#` }, { data: `ID=${imei}` }]);
    });

    it("checks the attributes against the command's descriptors and queues nothing when they are wrong", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const watch = await h.addDevice(user);
      await reportAs(h, user, watch, "watch");
      const queuedBefore = h.busMessages.length;
      const rowsBefore = await commandRows(h);

      expect(invalid(await sendGprs(h, user, { device_id: device, type: "positionPeriodic" }))).toEqual({ unit: "The unit field is required.", frequency: "The frequency field is required." });
      expect(invalid(await sendGprs(h, user, { device_id: device, type: "positionPeriodic", unit: "second", frequency: 0 }))).toEqual({ frequency: "The frequency must be at least 1." });
      expect(invalid(await sendGprs(h, user, { device_id: device, type: "positionPeriodic", unit: "second", frequency: 86_401 }))).toEqual({ frequency: "The frequency may not be greater than 86400." });
      expect(Object.keys(invalid(await sendGprs(h, user, { device_id: device, type: "positionPeriodic", unit: "fortnight", frequency: 1 })))).toEqual(["unit"]);
      expect(invalid(await sendGprs(h, user, { device_id: device, type: "setTimezone", timezone: 900 }))).toEqual({ timezone: "The timezone may not be greater than 840." });
      expect(invalid(await sendGprs(h, user, { device_id: device, type: "custom", data: "   " }))).toEqual({ data: "The data field is required." });
      expect(Object.keys(invalid(await sendGprs(h, user, { device_id: device, type: "sendSms", phone: "call me", message: "x".repeat(161) }))).sort()).toEqual(["message", "phone"]);
      expect(invalid(await sendGprs(h, user, { device_id: watch, type: "sosNumber", index: 3, phone: "+37060000000" }))).toEqual({ index: "The selected index is invalid." });
      expect(invalid(await sendGprs(h, user, { device_id: watch, type: "alarmSos" }))).toEqual({ enable: "The enable field is required." });
      // Offered by type, not by name: a watch does not take engineStop, a car tracker not sosNumber.
      expect(invalid(await sendGprs(h, user, { device_id: watch, type: "engineStop" }))).toEqual({ type: "The selected type is not available for this device." });
      expect(invalid(await sendGprs(h, user, { device_id: device, type: "sosNumber", index: 0, phone: "+37060000000" }))).toEqual({ type: "The selected type is not available for this device." });
      // Schema-level: unknown types, wrong types, oversized and injected text.
      expect(Object.keys(invalid(await sendGprs(h, user, { device_id: device, type: "selfDestruct" })))).toEqual(["type"]);
      expect(Object.keys(invalid(await sendGprs(h, user, { device_id: device, type: "'; DROP TABLE sent_commands; --" })))).toEqual(["type"]);
      expect(Object.keys(invalid(await sendGprs(h, user, { device_id: "abc", type: "engineStop" })))).toEqual(["device_id"]);
      expect(Object.keys(invalid(await sendGprs(h, user, { device_id: device, type: "custom", data: "x".repeat(1001) })))).toEqual(["data"]);
      expect(Object.keys(invalid(await sendGprs(h, user, { device_id: device, type: "alarmArm", enable: { $ne: 1 } })))).toEqual(["enable"]);
      expect(Object.keys(invalid(await sendGprs(h, user, {})))).toEqual(expect.arrayContaining(["device_id", "type"]));

      expect(h.busMessages.length).toBe(queuedBefore);
      expect(await commandRows(h)).toEqual(rowsBefore);

      // The same values, right this time, go through.
      ok(await sendGprs(h, user, { device_id: watch, type: "sosNumber", index: 2, phone: "+37060000000" }), SendGprsCommandResponseSchema);
      ok(await sendGprs(h, user, { device_id: watch, type: "alarmSos", enable: "0" }), SendGprsCommandResponseSchema);
      expect(queuedFor(h, await imeiOf(h, user, watch)).map((m) => (m.value as { attributes: unknown }).attributes)).toEqual([{ index: 2, phone: "+37060000000" }, { enable: 0 }]);
    });

    it("answers a repeated request_id or Idempotency-Key with the first result and queues nothing new", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const other = await h.addDevice(user);
      const imei = await imeiOf(h, user, device);
      const body = { device_id: device, type: "engineStop", request_id: "4f1c2a8e-0b7d-4c55-9a51-0d2f1b3c4e5f" };

      const first = ok(await sendGprs(h, user, body), SendGprsCommandResponseSchema);
      expect(ok(await sendGprs(h, user, body), SendGprsCommandResponseSchema)).toEqual(first);
      // The header names the same key.
      expect(ok(await sendGprs(h, user, { device_id: device, type: "engineStop" }, { "idempotency-key": body.request_id }), SendGprsCommandResponseSchema)).toEqual(first);
      expect(queuedFor(h, imei)).toHaveLength(1);
      expect((await listUserSentCommands(h.db, user.id)).map((r) => [r.id, r.requestKey])).toEqual([[first.id, body.request_id]]);

      // Concurrent repeats are one command too.
      const key = "concurrent-1";
      const answers = await Promise.all([1, 2, 3].map(() => sendGprs(h, user, { device_id: device, type: "engineResume", request_id: key })));
      expect(new Set(answers.map((a) => ok(a, SendGprsCommandResponseSchema).id)).size).toBe(1);
      expect(queuedFor(h, imei).filter((m) => (m.value as { type: string }).type === "engineResume")).toHaveLength(1);

      // The key with another command for the device is refused; for another device it is that device's own command.
      expect(invalid(await sendGprs(h, user, { ...body, type: "engineResume" }))).toEqual({ request_id: "The request id was already used for another command to this device." });
      expect(Object.keys(invalid(await sendGprs(h, user, body, { "idempotency-key": "another-key" })))).toEqual(["request_id"]);
      expect(Object.keys(invalid(await sendGprs(h, user, { device_id: device, type: "engineStop" }, { "idempotency-key": "bad key!" })))).toEqual(["request_id"]);
      expect(ok(await sendGprs(h, user, { ...body, device_id: other }), SendGprsCommandResponseSchema).id).not.toBe(first.id);
      // Without a key every request is a new command.
      const a = ok(await sendGprs(h, user, { device_id: device, type: "alarmArm" }), SendGprsCommandResponseSchema);
      const b = ok(await sendGprs(h, user, { device_id: device, type: "alarmArm" }), SendGprsCommandResponseSchema);
      expect(a.id).not.toBe(b.id);
    });

    it("answers 503 and records nothing while the bus is down; a retry with the same key then queues once", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user);
      const imei = await imeiOf(h, user, device);
      const body = { device_id: device, type: "rebootDevice", request_id: "retry-me" };
      h.busDown = true;
      expect(failure(await h.upstreamFailing(() => sendGprs(h, user, body)), 503)).toBe("The command queue is unavailable, try again later.");
      expect(await listUserSentCommands(h.db, user.id)).toEqual([]);
      h.busDown = false;
      const { id } = ok(await sendGprs(h, user, body), SendGprsCommandResponseSchema);
      ok(await sendGprs(h, user, body), SendGprsCommandResponseSchema);
      expect(queuedFor(h, imei).map((m) => (m.value as { id: number }).id)).toEqual([id]);
    });

    it("answers another user's device exactly as a missing one, and queues nothing", async () => {
      const a = await h.newUser();
      const b = await h.newUser();
      const device = await h.addDevice(a);
      const imei = await imeiOf(h, a, device);
      for (const body of [{ type: "engineStop" }, { type: "custom", data: "[%IMEI%]", request_id: "k1" }]) {
        const theirs = await sendGprs(h, b, { ...body, device_id: device });
        const none = await sendGprs(h, b, { ...body, device_id: 2_000_000_000 });
        expect(invalid(theirs)).toEqual({ device_id: "The selected device id is invalid." });
        expect(theirs.body).toEqual(none.body);
      }
      expect(queuedFor(h, imei)).toEqual([]);
      expect(await listUserSentCommands(h.db, b.id)).toEqual([]);
    });
  });

  describe("send_sms_command", () => {
    const gateway = new FakeGateway();
    beforeAll(() => gateway.start());
    afterAll(() => gateway.stop());
    beforeEach(() => {
      gateway.answer = 200;
      gateway.received.length = 0;
    });

    async function smsUser(settings: Record<string, unknown> = {}) {
      const user = await h.newUser();
      await setGateway(h, user, { sms_gateway_url: `${gateway.url}/send?key=abc`, ...settings });
      const device = await h.addDevice(user, { sim_number: "+37060000009" });
      return { user, device };
    }

    it("calls the gateway with GET, the number and text as query parameters next to the URL's own", async () => {
      const { user, device } = await smsUser({ senders_phone: "FLEET" });
      const second = await h.addDevice(user, { sim_number: " +37060000010 " });
      ok(await h.post("/send_sms_command", { user, body: { devices: [device, second, device], message: "WHERE# ünïcode & more" } }), SendSmsCommandResponseSchema);
      const received = [...gateway.received].sort((x, y) => x.query.to!.localeCompare(y.query.to!));
      expect(received.map((r) => ({ method: r.method, path: r.path, query: r.query, auth: r.headers.authorization }))).toEqual([
        { method: "GET", path: "/send", query: { key: "abc", to: "+37060000009", message: "WHERE# ünïcode & more", from: "FLEET" }, auth: undefined },
        { method: "GET", path: "/send", query: { key: "abc", to: "+37060000010", message: "WHERE# ünïcode & more", from: "FLEET" }, auth: undefined },
      ]);
      const rows = await listUserSentCommands(h.db, user.id);
      expect(rows.map((r) => [r.deviceId, r.channel, r.status, r.payload, r.error]).sort()).toEqual(
        [
          [device, "sms", "sent", { phone: "+37060000009", message: "WHERE# ünïcode & more" }, null],
          [second, "sms", "sent", { phone: "+37060000010", message: "WHERE# ünïcode & more" }, null],
        ].sort(),
      );
    });

    it("POSTs a form, or JSON when the encoding is json, with basic auth when authentication is on", async () => {
      const form = await smsUser({ request_method: "post", authentication: 1, username: "fleet", password: "s3cret:pw" });
      ok(await h.post("/send_sms_command", { user: form.user, as: "multipart", body: { "devices[]": form.device, message: "STATUS#" } }), SendSmsCommandResponseSchema);
      const json = await smsUser({ request_method: "post", encoding: "json" });
      ok(await h.post("/send_sms_command", { user: json.user, as: "form", body: { "devices[0]": json.device, message: "RESET#" } }), SendSmsCommandResponseSchema);

      const [f, j] = gateway.received;
      expect(f).toMatchObject({ method: "POST", path: "/send", query: { key: "abc" } });
      expect(f!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(Object.fromEntries(new URLSearchParams(f!.body))).toEqual({ to: "+37060000009", message: "STATUS#" });
      expect(f!.headers.authorization).toBe(`Basic ${Buffer.from("fleet:s3cret:pw").toString("base64")}`);
      expect(j!.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(j!.body)).toEqual({ to: "+37060000009", message: "RESET#" });
      expect(j!.headers.authorization).toBeUndefined();
    });

    it("answers 502 and records the send as failed when the gateway answers an error", async () => {
      const { user, device } = await smsUser();
      gateway.answer = 500;
      const error = failure(await h.upstreamFailing(() => h.post("/send_sms_command", { user, body: { devices: [device], message: "WHERE#" } })), 502);
      expect(error).toBe("The SMS was not sent to 1 of 1 devices. The SMS gateway answered HTTP 500.");
      expect(gateway.received).toHaveLength(1);
      expect(await listUserSentCommands(h.db, user.id)).toEqual([expect.objectContaining({ deviceId: device, status: "failed", error: "The SMS gateway answered HTTP 500." })]);
    });

    it("gives up on a gateway that does not answer within the timeout", async () => {
      const { user, device } = await smsUser({ request_method: "post" });
      gateway.answer = "hang";
      const started = Date.now();
      const error = failure(await h.upstreamFailing(() => h.post("/send_sms_command", { user, body: { devices: [device], message: "WHERE#" } })), 502);
      expect(Date.now() - started).toBeLessThan(SMS_GATEWAY_TIMEOUT_MS + 3000);
      expect(error).toContain(`did not answer within ${SMS_GATEWAY_TIMEOUT_MS} ms`);
      expect(await listUserSentCommands(h.db, user.id)).toEqual([expect.objectContaining({ status: "failed" })]);
    });

    it("fails clearly on a gateway that cannot be reached", async () => {
      const { user, device } = await smsUser({ sms_gateway_url: "http://127.0.0.1:1/send" });
      expect(failure(await h.upstreamFailing(() => h.post("/send_sms_command", { user, body: { devices: [device], message: "WHERE#" } })), 502)).toMatch(/could not be reached/);
      expect(await listUserSentCommands(h.db, user.id)).toEqual([expect.objectContaining({ status: "failed" })]);
    });

    it("refuses without a usable gateway and records nothing", async () => {
      const user = await h.newUser();
      const device = await h.addDevice(user, { sim_number: "+37060000011" });
      expect(failure(await h.post("/send_sms_command", { user, body: { devices: [device], message: "WHERE#" } }), 400)).toMatch(/no SMS gateway/);
      await setGateway(h, user, { request_method: "app" });
      expect(failure(await h.post("/send_sms_command", { user, body: { devices: [device], message: "WHERE#" } }), 400)).toMatch(/gateway app/);
      expect(await listUserSentCommands(h.db, user.id)).toEqual([]);
      expect(gateway.received).toEqual([]);
    });

    it("refuses devices that are not the user's or have no SIM number, and bad bodies, sending and recording nothing", async () => {
      const { user, device } = await smsUser();
      const other = await h.newUser();
      const foreign = await h.addDevice(other, { sim_number: "+37060000012" });
      const noSim = await h.addDevice(user);
      const rowsBefore = await commandRows(h);

      const theirs = await h.post("/send_sms_command", { user, body: { devices: [device, foreign], message: "WHERE#" } });
      const none = await h.post("/send_sms_command", { user, body: { devices: [device, 2_000_000_000], message: "WHERE#" } });
      expect(invalid(theirs)).toEqual({ "devices.1": "The selected device is invalid." });
      expect(theirs.body).toEqual(none.body);
      expect(invalid(await h.post("/send_sms_command", { user, body: { devices: [noSim], message: "WHERE#" } }))).toEqual({ "devices.0": "The selected device has no SIM number." });
      expect(Object.keys(invalid(await h.post("/send_sms_command", { user, body: { devices: [], message: "WHERE#" } })))).toEqual(["devices"]);
      expect(Object.keys(invalid(await h.post("/send_sms_command", { user, body: { devices: [device], message: "  " } })))).toEqual(["message"]);
      expect(Object.keys(invalid(await h.post("/send_sms_command", { user, body: { devices: [device], message: "x".repeat(1001) } })))).toEqual(["message"]);
      expect(Object.keys(invalid(await h.post("/send_sms_command", { user, body: { devices: ["1 OR 1=1"], message: "hi" } })))).toEqual(["devices.0"]);
      expect(Object.keys(invalid(await h.post("/send_sms_command", { user, body: { devices: Array.from({ length: 101 }, () => device), message: "hi" } })))).toEqual(["devices"]);
      expect(Object.keys(invalid(await h.post("/send_sms_command", { user, body: { message: "hi" } })))).toEqual(["devices"]);

      expect(gateway.received).toEqual([]);
      expect(await commandRows(h)).toEqual(rowsBefore);
    });
  });
});

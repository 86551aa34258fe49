import {
  CommandQueueUnavailableSchema,
  FailureResponses,
  GetDeviceCommandsQuerySchema,
  GetDeviceCommandsResponseSchema,
  RequestIdSchema,
  SendCommandDataResponseSchema,
  SendGprsCommandBodySchema,
  SendGprsCommandResponseSchema,
  SendSmsCommandBodySchema,
  SendSmsCommandResponseSchema,
  SmsGatewayFailureSchema,
  type SendCommandDataResponse,
} from "@fleet/contracts";
import { RequestKeyReusedError, allUserGprsTemplates, allUserSmsTemplates, findCommandDevices, findUserDevice, listCommandDevices, recordGprsCommand, recordSmsAttempts } from "@fleet/db";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Value } from "@sinclair/typebox/value";
import type { FastifyReply, FastifyRequest } from "fastify";
import { commandValues, withImei } from "../lib/command-attributes.js";
import { actionOptions, commandGroups, commandLabelsFor, deviceCommands, numberIndexOptions, unitOptions } from "../lib/command-catalogue.js";
import { CommandQueueUnavailableError } from "../lib/command-queue.js";
import { notFound } from "../lib/not-found.js";
import { sendAllSms, smsGatewayOf } from "../lib/sms-gateway.js";
import { currentUser } from "../plugins/app/auth.js";

const DEFAULT_SMS_TIMEOUT_MS = 10_000;

/** The "no template" entry the command form's template pickers start with. */
const NO_TEMPLATE = { id: "0", title: "-- none --", message: null };

function unprocessable(reply: FastifyReply, errors: Record<string, string>) {
  return reply.code(422).send({ status: 0 as const, errors });
}

/**
 * The client's idempotency key: `request_id` in the body or an `Idempotency-Key` header
 * (forms cannot set headers, HTTP clients prefer them). Both may be sent if they agree.
 */
function requestKey(req: FastifyRequest, fromBody: string | undefined): { key?: string } | { error: string } {
  const header = req.headers["idempotency-key"];
  if (header === undefined) return { key: fromBody };
  if (typeof header !== "string" || !Value.Check(RequestIdSchema, header)) return { error: "The Idempotency-Key header must be 1 to 128 letters, digits or . _ : -." };
  if (fromBody !== undefined && fromBody !== header) return { error: "The request id and the Idempotency-Key header differ." };
  return { key: header };
}

export const commandRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live, commands, settings } = app.services;
  const tags = ["Command"];

  app.get(
    "/send_command_data",
    { schema: { tags, summary: "What the command form offers: devices, templates, commands and their options", response: { 200: SendCommandDataResponseSchema, ...FailureResponses } } },
    async (req): Promise<SendCommandDataResponse> => {
      const user = currentUser(req);
      const devices = await listCommandDevices(db, user.id);
      const [smsTemplates, gprsTemplates, states] = await Promise.all([allUserSmsTemplates(db, user.id), allUserGprsTemplates(db, user.id), live.getStates(devices.map((d) => d.id))]);
      const devicesProtocols: Record<string, string> = {};
      for (const d of devices) {
        const protocol = states.get(d.id)?.protocol;
        if (protocol) devicesProtocols[String(d.id)] = protocol;
      }
      return {
        devices_sms: devices.filter((d) => d.simNumber.trim() !== "").map((d) => ({ id: d.id, value: d.name })),
        devices_gprs: devices.map((d) => ({ id: d.id, value: d.name })),
        sms_templates: [NO_TEMPLATE, ...smsTemplates.map((t) => ({ id: String(t.id), title: t.title, message: t.message }))],
        gprs_templates: [NO_TEMPLATE, ...gprsTemplates.map((t) => ({ id: String(t.id), title: t.title, message: t.message }))],
        commands: Object.entries(commandGroups.default).map(([id, value]) => ({ id, value })),
        units: unitOptions,
        number_index: numberIndexOptions,
        actions: actionOptions,
        devices_protocols: devicesProtocols,
        commands_all: commandGroups,
        status: 1,
      };
    },
  );

  app.get(
    "/get_device_commands",
    { schema: { tags, summary: "The GPRS commands the device's protocol takes, with their attributes", querystring: GetDeviceCommandsQuerySchema, response: { 200: GetDeviceCommandsResponseSchema, ...FailureResponses } } },
    async (req, reply) => {
      const user = currentUser(req);
      const device = await findUserDevice(db, user.id, req.query.device_id);
      if (!device) return notFound(reply, "Device");
      const state = (await live.getStates([device.id])).get(device.id);
      return deviceCommands(state?.protocol);
    },
  );

  app.post(
    "/send_gprs_command",
    {
      schema: {
        tags,
        summary: "Queue a GPRS command for a device; a repeated request_id (or Idempotency-Key) answers the first request and queues nothing",
        body: SendGprsCommandBodySchema,
        response: { 200: SendGprsCommandResponseSchema, ...FailureResponses, 503: CommandQueueUnavailableSchema },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const body = req.body;
      const key = requestKey(req, body.request_id);
      if ("error" in key) return unprocessable(reply, { request_id: key.error });
      const device = await findUserDevice(db, user.id, body.device_id);
      if (!device) return unprocessable(reply, { device_id: "The selected device id is invalid." });
      const protocol = (await live.getStates([device.id])).get(device.id)?.protocol;
      if (!Object.hasOwn(commandLabelsFor(protocol), body.type)) return unprocessable(reply, { type: "The selected type is not available for this device." });
      const checked = commandValues(body.type, body);
      if ("errors" in checked) return unprocessable(reply, checked.errors);
      const attributes = body.type === "custom" ? withImei(checked.values, device.imei) : checked.values;
      try {
        const { command } = await recordGprsCommand(db, user.id, { deviceId: device.id, type: body.type, attributes, requestKey: key.key }, (row) =>
          commands.enqueue({ id: row.id, userId: user.id, deviceId: device.id, imei: device.imei, protocol: protocol ?? null, type: body.type, attributes, queuedAt: row.createdAt.getTime() }),
        );
        return { status: 1 as const, id: command.id };
      } catch (err) {
        if (err instanceof RequestKeyReusedError) return unprocessable(reply, { request_id: "The request id was already used for another command to this device." });
        if (err instanceof CommandQueueUnavailableError) {
          req.log.warn({ err }, "command queue unavailable");
          return reply.code(503).send({ status: 0 as const, error: err.message });
        }
        throw err;
      }
    },
  );

  app.post(
    "/send_sms_command",
    {
      schema: {
        tags,
        summary: "Send an SMS to each device's SIM number through the account's SMS gateway; each send is recorded as sent or failed",
        body: SendSmsCommandBodySchema,
        response: { 200: SendSmsCommandResponseSchema, ...FailureResponses, 502: SmsGatewayFailureSchema },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const { message, devices: requested } = req.body;
      const found = await findCommandDevices(db, user.id, requested);
      const errors: Record<string, string> = {};
      requested.forEach((id, i) => {
        const device = found.get(id);
        if (!device) errors[`devices.${i}`] = "The selected device is invalid.";
        else if (device.simNumber.trim() === "") errors[`devices.${i}`] = "The selected device has no SIM number.";
      });
      if (Object.keys(errors).length > 0) return unprocessable(reply, errors);
      const gateway = smsGatewayOf(user);
      if ("problem" in gateway) return reply.code(400).send({ status: 0 as const, error: gateway.problem });

      // A device listed twice gets one message.
      const targets = [...new Set(requested)].map((id) => found.get(id)!);
      const sms = targets.map((d) => ({ to: d.simNumber.trim(), message }));
      const results = await sendAllSms(gateway.config, sms, { timeoutMs: settings.smsGatewayTimeoutMs ?? DEFAULT_SMS_TIMEOUT_MS, allowPrivate: settings.smsGatewayAllowPrivate ?? false });
      await recordSmsAttempts(
        db,
        user.id,
        targets.map((d, i) => {
          const r = results[i]!;
          return { deviceId: d.id, phone: sms[i]!.to, message, status: r.ok ? "sent" : "failed", ...(r.ok ? {} : { error: r.error }) };
        }),
      );
      const failed = results.flatMap((r) => (r.ok ? [] : [r.error]));
      if (failed.length > 0) return reply.code(502).send({ status: 0 as const, error: `The SMS was not sent to ${failed.length} of ${results.length} devices. ${failed[0]}` });
      return { status: 1 as const };
    },
  );
};

import * as contracts from "@fleet/contracts";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import * as commands from "../domain/commands.js";
import { endpoints } from "../lib/endpoints.js";

export const commandRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, live, commands: queue, settings } = app.services;
  const api = endpoints(app, ["Command"]);

  api.get("/send_command_data", { summary: "What the command form offers: devices, templates, commands and their options", response: contracts.SendCommandDataResponseSchema }, ({ user }) => commands.sendData(db, live, user));
  api.get(
    "/get_device_commands",
    { summary: "The GPRS commands the device's protocol takes, with their attributes", query: contracts.GetDeviceCommandsQuerySchema, response: contracts.GetDeviceCommandsResponseSchema },
    ({ user, query }) => commands.commandsOf(db, live, user, query.device_id),
  );
  api.post(
    "/send_gprs_command",
    {
      summary: "Queue a GPRS command for a device; a repeated request_id (or Idempotency-Key) answers the first request and queues nothing",
      body: contracts.SendGprsCommandBodySchema,
      response: contracts.SendGprsCommandResponseSchema,
      failures: { 503: contracts.CommandQueueUnavailableSchema },
    },
    ({ user, body, req }) => commands.sendGprs(db, live, queue, user, body, req.headers["idempotency-key"]),
  );
  api.post(
    "/send_sms_command",
    {
      summary: "Send an SMS to each device's SIM number through the account's SMS gateway; each send is recorded as sent or failed",
      body: contracts.SendSmsCommandBodySchema,
      response: contracts.SendSmsCommandResponseSchema,
      failures: { 502: contracts.SmsGatewayFailureSchema },
    },
    ({ user, body }) => commands.sendSms(db, settings, user, body),
  );
};

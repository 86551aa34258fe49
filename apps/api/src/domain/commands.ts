import {
  FailureError,
  InvalidInputError,
  NotFoundError,
  RequestIdSchema,
  assertNoErrors,
  type SendCommandDataResponse,
  type SendGprsCommandBody,
  type SendSmsCommandBody,
} from "@fleet/contracts";
import { allUserGprsTemplates, allUserSmsTemplates, findCommandDevices, findUserDevice, listCommandDevices, recordGprsCommand, recordSmsAttempts, type Db, type User } from "@fleet/db";
import type { LiveStore } from "@fleet/live";
import { Value } from "@sinclair/typebox/value";
import { commandValues, withImei } from "../lib/command-attributes.js";
import { actionOptions, commandGroups, commandLabelsFor, deviceCommands, numberIndexOptions, unitOptions } from "../lib/command-catalogue.js";
import { CommandQueueUnavailableError, type CommandQueue } from "../lib/command-queue.js";
import { sendAllSms, smsGatewayOf } from "@fleet/outbound";
import type { ApiSettings } from "../plugins/app/services.js";
import { worded } from "./refusals.js";

/*
 * Commands to devices: GPRS commands go through the command queue to the device gateways,
 * SMS through the account's own SMS gateway to each device's SIM number. Every one sent is
 * recorded.
 */

const DEFAULT_SMS_TIMEOUT_MS = 10_000;

/** The "no template" entry the command form's template pickers start with. */
const NO_TEMPLATE = { id: "0", title: "-- none --", message: null };

const protocolOf = async (live: LiveStore, deviceId: number) => (await live.getStates([deviceId])).get(deviceId)?.protocol;

/** The queue's own error as the 503 it answers; nothing was recorded (see recordGprsCommand). */
function queueUnavailable(err: unknown): never {
  throw err instanceof CommandQueueUnavailableError ? Object.assign(new FailureError(503, err.message), { cause: err }) : err;
}

/**
 * The client's idempotency key: `request_id` in the body or an `Idempotency-Key` header
 * (forms cannot set headers, HTTP clients prefer them). Both may be sent if they agree.
 */
function requestKey(header: string | string[] | undefined, fromBody: string | undefined): string | undefined {
  if (header === undefined) return fromBody;
  if (typeof header !== "string" || !Value.Check(RequestIdSchema, header)) throw new InvalidInputError({ request_id: "The Idempotency-Key header must be 1 to 128 letters, digits or . _ : -." });
  if (fromBody !== undefined && fromBody !== header) throw new InvalidInputError({ request_id: "The request id and the Idempotency-Key header differ." });
  return header;
}

/** What the command form offers: devices, templates, commands and their options. */
export async function sendData(db: Db, live: LiveStore, user: User): Promise<SendCommandDataResponse> {
  const devices = await listCommandDevices(db, user.id);
  const [smsTemplates, gprsTemplates, states] = await Promise.all([allUserSmsTemplates(db, user.id), allUserGprsTemplates(db, user.id), live.getStates(devices.map((d) => d.id))]);
  const devicesProtocols: Record<string, string> = {};
  for (const d of devices) {
    const protocol = states.get(d.id)?.protocol;
    if (protocol) devicesProtocols[String(d.id)] = protocol;
  }
  const templates = (rows: { id: number; title: string; message: string }[]) => [NO_TEMPLATE, ...rows.map((t) => ({ id: String(t.id), title: t.title, message: t.message }))];
  return {
    devices_sms: devices.filter((d) => d.simNumber.trim() !== "").map((d) => ({ id: d.id, value: d.name })),
    devices_gprs: devices.map((d) => ({ id: d.id, value: d.name })),
    sms_templates: templates(smsTemplates),
    gprs_templates: templates(gprsTemplates),
    commands: Object.entries(commandGroups.default).map(([id, value]) => ({ id, value })),
    units: unitOptions,
    number_index: numberIndexOptions,
    actions: actionOptions,
    devices_protocols: devicesProtocols,
    commands_all: commandGroups,
    status: 1,
  };
}

/** The GPRS commands the device's protocol takes, with their attributes. */
export async function commandsOf(db: Db, live: LiveStore, user: User, deviceId: number) {
  const device = await findUserDevice(db, user.id, deviceId);
  if (!device) throw new NotFoundError("Device");
  return deviceCommands(await protocolOf(live, device.id));
}

/**
 * Records the command and queues it; a repeated request key answers the first request's
 * command and queues nothing. `idempotencyKey` is the request's Idempotency-Key header.
 */
export async function sendGprs(db: Db, live: LiveStore, queue: CommandQueue, user: User, body: SendGprsCommandBody, idempotencyKey: string | string[] | undefined) {
  const key = requestKey(idempotencyKey, body.request_id);
  const device = await findUserDevice(db, user.id, body.device_id);
  if (!device) throw new InvalidInputError({ device_id: "The selected device id is invalid." });
  const protocol = await protocolOf(live, device.id);
  if (!Object.hasOwn(commandLabelsFor(protocol), body.type)) throw new InvalidInputError({ type: "The selected type is not available for this device." });
  const checked = commandValues(body.type, body);
  if ("errors" in checked) throw new InvalidInputError(checked.errors);
  const attributes = body.type === "custom" ? withImei(checked.values, device.imei) : checked.values;
  const enqueue = (row: { id: number; createdAt: Date }) =>
    queue.enqueue({ id: row.id, userId: user.id, deviceId: device.id, imei: device.imei, protocol: protocol ?? null, type: body.type, attributes, queuedAt: row.createdAt.getTime() });
  const recorded = recordGprsCommand(db, user.id, { deviceId: device.id, type: body.type, attributes, requestKey: key }, enqueue).catch(queueUnavailable);
  const { command } = await worded(recorded, { requestKey: { field: "request_id", message: "The request id was already used for another command to this device." } });
  return { status: 1 as const, id: command.id };
}

/**
 * Sends the message to each device's SIM number (once per device) and records each send
 * as sent or failed; any failure answers 502 once all were tried.
 */
export async function sendSms(db: Db, settings: ApiSettings, user: User, body: SendSmsCommandBody) {
  const { message, devices: requested } = body;
  const found = await findCommandDevices(db, user.id, requested);
  const errors: Record<string, string> = {};
  requested.forEach((id, i) => {
    const device = found.get(id);
    if (!device) errors[`devices.${i}`] = "The selected device is invalid.";
    else if (device.simNumber.trim() === "") errors[`devices.${i}`] = "The selected device has no SIM number.";
  });
  assertNoErrors(errors);
  const gateway = smsGatewayOf(user);
  if ("problem" in gateway) throw new FailureError(400, gateway.problem);

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
  if (failed.length > 0) throw new FailureError(502, `The SMS was not sent to ${failed.length} of ${results.length} devices. ${failed[0]}`);
  return { status: 1 as const };
}

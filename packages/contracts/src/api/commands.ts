import { Type, type Static } from "@sinclair/typebox";
import { IdValue, StatusFail, StatusOk } from "./common.js";
import { TEMPLATE_MESSAGE_MAX } from "./templates.js";

const RowId = (description?: string) => Type.Integer({ minimum: 1, maximum: 2_147_483_647, ...(description ? { description } : {}) });

/**
 * Every GPRS command type the platform knows: the three groups of `commands_all`
 * (default, watch, pt502) and `requestPhoto`, which the spec lists among get_device_commands' types.
 */
export const commandTypes = [
  "engineStop",
  "engineResume",
  "alarmArm",
  "alarmDisarm",
  "positionSingle",
  "positionPeriodic",
  "positionStop",
  "movementAlarm",
  "setTimezone",
  "rebootDevice",
  "sendSms",
  "custom",
  "requestPhoto",
  "sosNumber",
  "alarmSos",
  "alarmBattery",
  "alarmRemove",
  "silenceTime",
  "alarmClock",
  "setPhonebook",
] as const;
export type CommandType = (typeof commandTypes)[number];

/** Units of positionSingle / positionPeriodic (`units` of send_command_data). */
export const commandUnits = ["second", "minute", "hour"] as const;

/** Most devices one send_sms_command may address. */
export const SMS_DEVICES_MAX = 100;

// ---- get_device_commands ---------------------------------------------------------------

export const CommandAttributeTypes = ["string", "integer", "text", "select"] as const;

/** One attribute descriptor of a command, as get_device_commands returns it. */
export const CommandAttributeSchema = Type.Object({
  title: Type.String(),
  name: Type.String({ description: "the send_gprs_command body field that carries the value" }),
  type: Type.Union(CommandAttributeTypes.map((t) => Type.Literal(t))),
  options: Type.Optional(Type.Array(Type.Object({ id: Type.Union([Type.String(), Type.Integer()]), title: Type.String() }))),
  default: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: "the form's initial value; the field is still required" })),
  validation: Type.String({ description: "Laravel-style rule, e.g. required|integer|min:1|max:86400" }),
  description: Type.Optional(Type.String()),
});
export type CommandAttribute = Static<typeof CommandAttributeSchema>;

export const DeviceCommandSchema = Type.Object({
  type: Type.String(),
  title: Type.String(),
  attributes: Type.Array(CommandAttributeSchema),
});
export type DeviceCommand = Static<typeof DeviceCommandSchema>;

export const GetDeviceCommandsQuerySchema = Type.Object({ device_id: RowId() });

/** No `status` in the success body, as the spec says. */
export const GetDeviceCommandsResponseSchema = Type.Array(DeviceCommandSchema);

// ---- send_command_data -----------------------------------------------------------------

/** A template in the command form's picker; id "0" with message null is "no template". */
export const CommandTemplateOptionSchema = Type.Object({ id: Type.String(), title: Type.String(), message: Type.Union([Type.Null(), Type.String()]) });

const LabelMap = Type.Record(Type.String(), Type.String());

export const SendCommandDataResponseSchema = Type.Object({
  devices_sms: Type.Array(IdValue(Type.Integer()), { description: "the user's devices with a SIM number" }),
  devices_gprs: Type.Array(IdValue(Type.Integer()), { description: "all of the user's devices" }),
  sms_templates: Type.Array(CommandTemplateOptionSchema),
  gprs_templates: Type.Array(CommandTemplateOptionSchema),
  commands: Type.Array(IdValue(Type.String()), { description: "the default command group" }),
  units: Type.Array(IdValue(Type.String())),
  number_index: Type.Array(IdValue(Type.Integer())),
  actions: Type.Array(IdValue(Type.Integer())),
  devices_protocols: Type.Record(Type.String(), Type.String(), { description: "device id → protocol of its latest position" }),
  commands_all: Type.Object({ default: LabelMap, watch: LabelMap, pt502: LabelMap }),
  status: StatusOk,
});
export type SendCommandDataResponse = Static<typeof SendCommandDataResponseSchema>;

// ---- send_gprs_command -----------------------------------------------------------------

/** A client's key for a retried request: a UUID or any short token of safe characters. */
export const RequestIdSchema = Type.String({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9._:-]+$" });

/**
 * The command and its attributes as body fields, as the vendor's form posts them. The
 * schema checks types and sizes; which attributes a type needs, and their ranges, are
 * checked against the command's descriptors (get_device_commands).
 */
export const SendGprsCommandBodySchema = Type.Object({
  device_id: RowId("one of the user's devices"),
  type: Type.Union(
    commandTypes.map((t) => Type.Literal(t)),
    { description: "a command get_device_commands offers for the device" },
  ),
  message: Type.Optional(Type.String({ maxLength: TEMPLATE_MESSAGE_MAX, description: "sendSms: the text; custom: the raw command when `data` is absent" })),
  data: Type.Optional(Type.String({ maxLength: TEMPLATE_MESSAGE_MAX, description: "custom: the raw command, [%IMEI%] replaced by the device's IMEI" })),
  enable: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  unit: Type.Optional(Type.Union(commandUnits.map((u) => Type.Literal(u)))),
  frequency: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  timezone: Type.Optional(Type.Integer({ minimum: -10_000, maximum: 10_000, description: "UTC offset in minutes" })),
  index: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  radius: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  request_id: Type.Optional(RequestIdSchema),
});
export type SendGprsCommandBody = Static<typeof SendGprsCommandBodySchema>;

/** `id` is the sent command's; a repeated request_id answers the first request's id. */
export const SendGprsCommandResponseSchema = Type.Object({ status: StatusOk, id: Type.Integer() });

/** The command queue was unavailable: nothing was queued or recorded; the request may be retried. */
export const CommandQueueUnavailableSchema = Type.Object({ status: StatusFail, error: Type.String() });

/**
 * What a device gateway reads from the `commands` topic, keyed by the device's IMEI so a
 * device's commands stay in order. `id` is the sent_commands row.
 */
export const QueuedCommandSchema = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  deviceId: Type.Integer(),
  imei: Type.String(),
  /** The protocol of the device's latest position; null before its first one. */
  protocol: Type.Union([Type.Null(), Type.String()]),
  type: Type.Union(commandTypes.map((t) => Type.Literal(t))),
  /** The validated attribute values by name (custom: `data`, with [%IMEI%] already replaced). */
  attributes: Type.Record(Type.String(), Type.Union([Type.String(), Type.Integer()])),
  /** Epoch milliseconds. */
  queuedAt: Type.Integer(),
});
export type QueuedCommand = Static<typeof QueuedCommandSchema>;

// ---- send_sms_command ------------------------------------------------------------------

export const SendSmsCommandBodySchema = Type.Object({
  message: Type.String({ minLength: 1, maxLength: TEMPLATE_MESSAGE_MAX, pattern: "\\S" }),
  devices: Type.Array(RowId(), { minItems: 1, maxItems: SMS_DEVICES_MAX, description: "ids of the user's devices that have a SIM number" }),
});
export type SendSmsCommandBody = Static<typeof SendSmsCommandBodySchema>;

/** Every message was accepted by the gateway. */
export const SendSmsCommandResponseSchema = Type.Object({ status: StatusOk });

/** The gateway failed for at least one device (each attempt is recorded as sent or failed). */
export const SmsGatewayFailureSchema = Type.Object({ status: StatusFail, error: Type.String() });

/*
 * The GPRS command catalogue: the command groups of send_command_data's `commands_all`,
 * each command's attribute descriptors (get_device_commands), and which commands a
 * device is offered by the protocol of its latest position.
 */
import type { CommandAttribute, CommandType, DeviceCommand } from "@fleet/contracts";

/** How an attribute's value is checked; rendered as the descriptor's type and validation. */
export type AttributeRule =
  | { kind: "select"; options: readonly { id: string | number; title: string }[] }
  | { kind: "integer"; min: number; max: number }
  | { kind: "string" | "text"; max: number; pattern?: { re: RegExp; what: string } };

export interface AttributeSpec {
  name: string;
  title: string;
  rule: AttributeRule;
  default?: string | number;
  description?: string;
}

/** The three groups of `commands_all`, with the spec's ids in the spec's order. */
export const commandGroups = {
  default: {
    engineStop: "Engine stop",
    engineResume: "Engine resume",
    alarmArm: "Alarm arm",
    alarmDisarm: "Alarm disarm",
    positionSingle: "Position single",
    positionPeriodic: "Periodic reporting",
    positionStop: "Stop reporting",
    movementAlarm: "Movement alarm",
    setTimezone: "Set timezone",
    rebootDevice: "Reboot device",
    sendSms: "Send sms",
    custom: "Custom command",
  },
  watch: {
    sosNumber: "SOS number setting",
    alarmSos: "SOS message alarm",
    alarmBattery: "Low battery alarm",
    alarmRemove: "Alarm of taking watch",
    rebootDevice: "Restart",
    silenceTime: "Time interval setting of silence time",
    alarmClock: "Alarm clock setting order",
    setPhonebook: "Phone book setting order",
  },
  pt502: {
    engineStop: "Engine stop",
    engineResume: "Engine resume",
  },
} as const satisfies Record<string, Partial<Record<CommandType, string>>>;

export const unitOptions = [
  { id: "second", value: "Second" },
  { id: "minute", value: "Minute" },
  { id: "hour", value: "Hour" },
];
export const numberIndexOptions = [
  { id: 1, value: "First" },
  { id: 2, value: "Second" },
  { id: 3, value: "Third" },
  { id: 0, value: "Three SOS numbers at the same time" },
];
export const actionOptions = [
  { id: 1, value: "On" },
  { id: 0, value: "Off" },
];

const onOff: AttributeSpec = { name: "enable", title: "Enable", rule: { kind: "select", options: actionOptions.map((o) => ({ id: o.id, title: o.value })) }, default: 1 };
const reporting: AttributeSpec[] = [
  { name: "unit", title: "Unit", rule: { kind: "select", options: unitOptions.map((o) => ({ id: o.id, title: o.value })) }, default: "second" },
  { name: "frequency", title: "Frequency", rule: { kind: "integer", min: 1, max: 86_400 }, description: "how many units between reports" },
];
const PHONE = { re: /^\+?[0-9]{3,20}$/, what: "a phone number (digits, optionally after +)" };
const shortText = (name: string, title: string, description?: string): AttributeSpec => ({ name, title, rule: { kind: "string", max: 255 }, ...(description ? { description } : {}) });

/**
 * Attributes per command type. The spec lists those of the observed types; the others
 * follow Traccar's command attributes (movementAlarm's radius, sendSms's phone and
 * message, the watch's data strings). Every attribute is required.
 */
export const commandAttributes: Record<CommandType, readonly AttributeSpec[]> = {
  engineStop: [],
  engineResume: [],
  alarmArm: [],
  alarmDisarm: [],
  positionSingle: reporting,
  positionPeriodic: reporting,
  positionStop: [],
  movementAlarm: [{ name: "radius", title: "Radius (m)", rule: { kind: "integer", min: 1, max: 100_000 } }],
  setTimezone: [{ name: "timezone", title: "Timezone", rule: { kind: "integer", min: -720, max: 840 }, default: 0, description: "offset from UTC in minutes" }],
  rebootDevice: [],
  sendSms: [
    { name: "phone", title: "Phone", rule: { kind: "string", max: 32, pattern: PHONE } },
    { name: "message", title: "Message", rule: { kind: "text", max: 160 }, description: "one SMS" },
  ],
  custom: [{ name: "data", title: "Command", rule: { kind: "text", max: 1000 }, description: "the raw command; [%IMEI%] is replaced by the device's IMEI" }],
  requestPhoto: [],
  sosNumber: [
    {
      name: "index",
      title: "Index",
      rule: {
        kind: "select",
        options: [
          { id: 0, title: "First" },
          { id: 1, title: "Second" },
          { id: 2, title: "Third" },
        ],
      },
      default: 0,
    },
    { name: "phone", title: "Phone", rule: { kind: "string", max: 32, pattern: PHONE } },
  ],
  alarmSos: [onOff],
  alarmBattery: [onOff],
  alarmRemove: [onOff],
  silenceTime: [shortText("data", "Silence time", "time ranges, e.g. 08:00-12:00,14:00-18:00")],
  alarmClock: [shortText("data", "Alarm clock", "alarm times as the watch takes them")],
  setPhonebook: [shortText("data", "Phone book", "name,number pairs as the watch takes them")],
};

/** The laravel-style rule string of a descriptor, as the vendor's forms show it. */
function validationOf(rule: AttributeRule): string {
  switch (rule.kind) {
    case "select":
      return `required|in:${rule.options.map((o) => o.id).join(",")}`;
    case "integer":
      return `required|integer|min:${rule.min}|max:${rule.max}`;
    default:
      return `required|string|max:${rule.max}`;
  }
}

export function describeAttribute(a: AttributeSpec): CommandAttribute {
  return {
    title: a.title,
    name: a.name,
    type: a.rule.kind,
    ...(a.rule.kind === "select" ? { options: a.rule.options.map((o) => ({ ...o })) } : {}),
    ...(a.default === undefined ? {} : { default: a.default }),
    validation: validationOf(a.rule),
    ...(a.description ? { description: a.description } : {}),
  };
}

type Labels = Partial<Record<CommandType, string>>;

/**
 * The commands offered per protocol: watch devices get the watch group plus the common
 * commands Traccar's watch protocol also takes; pt502 its own group; Meitrack the
 * default group plus requestPhoto; anything else (or no position yet) the default group.
 * custom is always offered: it is how any other command reaches a device.
 */
const byProtocol: Record<string, Labels> = {
  watch: { ...commandGroups.watch, positionSingle: "Position single", positionPeriodic: "Periodic reporting", setTimezone: "Set timezone", custom: "Custom command" },
  pt502: { ...commandGroups.pt502, custom: "Custom command" },
  meitrack: { ...commandGroups.default, requestPhoto: "Request photo" },
};

/** Every command's label, whichever protocol offers it; the default group's label where two differ. */
export const commandTitles: Labels = Object.assign({}, ...Object.values(byProtocol), commandGroups.default);

/** The commands a device with this protocol is offered, with their labels. */
export function commandLabelsFor(protocol: string | undefined): Labels {
  return (protocol !== undefined && Object.hasOwn(byProtocol, protocol) ? byProtocol[protocol] : undefined) ?? commandGroups.default;
}

/** get_device_commands for a device whose latest position has `protocol`. */
export function deviceCommands(protocol: string | undefined): DeviceCommand[] {
  return Object.entries(commandLabelsFor(protocol)).map(([type, title]) => ({
    type,
    title,
    attributes: commandAttributes[type as CommandType].map(describeAttribute),
  }));
}

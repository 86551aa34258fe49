import { Type, type Static, type TArray, type TInteger, type TOptional, type TString } from "@sinclair/typebox";
import { ALERT_COMMAND_TYPES, ALERT_SCALAR_ATTRIBUTES, MAX_SILENT_MINUTES, ALERT_TYPES, ALERT_TYPE_NAMES, SCHEDULE_SLOT_PATTERN, WEEKDAYS, scalarBounds, type AlertScalarName, type Weekday } from "../alert-types.js";
import { FormBoolean, IdValue, StatusOk } from "./common.js";
import { ActiveFlagSchema } from "./device-edit.js";
import { UserDateSchema } from "./events.js";

/** A record id: Postgres int4, so anything larger cannot exist and is refused as malformed. */
const RecordId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Ids = (maxItems: number, minItems = 0) => Type.Array(RecordId, { minItems, maxItems });

/** Devices one alert may watch, and ids one change_active_alert may name (more than any account holds). */
export const MAX_ALERT_DEVICES = 10_000;
export const MAX_CHANGE_ACTIVE_ALERTS = 10_000;

export const AlertIdQuerySchema = Type.Object({ alert_id: RecordId });

// ---- alertPost -----------------------------------------------------------------------

const Slot = Type.String({ pattern: SCHEDULE_SLOT_PATTERN, description: "HH:MM, a quarter hour" });

/** weekday → the active quarter-hour slots; an unknown weekday is refused rather than ignored. */
export const AlertSchedulesInputSchema = Type.Object(
  Object.fromEntries(WEEKDAYS.map((d) => [d, Type.Optional(Type.Array(Slot, { maxItems: 96 }))])) as Record<Weekday, TOptional<TArray<TString>>>,
  { additionalProperties: false },
);

// `active` may be left out: an unticked checkbox sends nothing. Unknown keys (the vendor's
// sound file, popup, colour) are ignored like any unknown field.
const Toggle = Type.Object({ active: Type.Optional(FormBoolean()) });
const WithInput = (maxLength: number, what: string) => Type.Object({ active: Type.Optional(FormBoolean()), input: Type.Optional(Type.String({ maxLength, description: what })) });

/** The command an alert sends its device when it fires: in `notifications`, or at the body's top level as the vendor's add_alert places it. */
const alertCommandFields = { active: Type.Optional(FormBoolean()), type: Type.Optional(Type.String({ maxLength: 64, description: `when active one of ${ALERT_COMMAND_TYPES.join(", ")}` })) };

export const AlertNotificationsInputSchema = Type.Object({
  sound: Type.Optional(Toggle),
  push: Type.Optional(Toggle),
  email: Type.Optional(WithInput(2000, "email addresses separated by semicolons; checked when active")),
  sms: Type.Optional(WithInput(1000, "phone numbers separated by semicolons; checked when active")),
  webhook: Type.Optional(WithInput(2048, "an http(s) URL; checked when active")),
  command: Type.Optional(Type.Object(alertCommandFields)),
  // The vendor's `silent`: a whole number of minutes; 0 (an empty form's) only while off.
  silent: Type.Optional(
    Type.Object({
      active: Type.Optional(FormBoolean()),
      input: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SILENT_MINUTES, description: `minutes, 1–${MAX_SILENT_MINUTES} when active: notifications repeated within them (same alert, device, geofence and event type) are not sent` })),
    }),
  ),
});
export type AlertNotificationsInput = Static<typeof AlertNotificationsInputSchema>;

/**
 * One optional field per scalar attribute of the alert types, bounded by its declaration;
 * whether the chosen type needs it is checked by checkAlertAttributes.
 */
const scalarAttributeFields = Object.fromEntries(
  ALERT_SCALAR_ATTRIBUTES.map((a) => {
    const usedBy = ALERT_TYPES.filter((t) => t.attributes.some((x) => x.name === a.name)).map((t) => t.type);
    return [a.name, Type.Optional(Type.Integer({ ...scalarBounds(a), description: `${a.title}; for type ${usedBy.join(", ")}` }))];
  }),
) as Record<AlertScalarName, TOptional<TInteger>>;

const alertPostFields = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  type: Type.Union(
    ALERT_TYPE_NAMES.map((t) => Type.Literal(t)),
    { description: "one of add_alert_data's types" },
  ),
  devices: Ids(MAX_ALERT_DEVICES, 1),
  active: Type.Optional(FormBoolean({ description: "1 unless given (add); unchanged unless given (edit)" })),
  zone: Type.Optional(Type.Integer({ minimum: 0, maximum: 2, description: "0 anywhere, 1 inside the zones, 2 outside them" })),
  zones: Type.Optional(Ids(1000)),
  schedule: Type.Optional(FormBoolean({ description: "only notify in the scheduled slots" })),
  schedules: Type.Optional(AlertSchedulesInputSchema),
  notifications: Type.Optional(AlertNotificationsInputSchema),
  command: Type.Optional(Type.Object(alertCommandFields, { description: "the vendor's place for notifications.command, read when notifications has no command" })),
  geofences: Type.Optional(Ids(1000)),
  drivers: Type.Optional(Ids(1000)),
  events_custom: Type.Optional(Ids(1000)),
  pois: Type.Optional(Ids(1000)),
  ...scalarAttributeFields,
};

export const AddAlertBodySchema = Type.Object(alertPostFields);
export type AddAlertBody = Static<typeof AddAlertBodySchema>;
export const EditAlertBodySchema = Type.Object({ id: RecordId, ...alertPostFields });
export type EditAlertBody = Static<typeof EditAlertBodySchema>;

/** add_alert: the spec's `{status}` plus the new alert's id, as add_device and add_service answer. */
export const AddAlertResponseSchema = Type.Object({ status: StatusOk, id: Type.Integer() });
export const AlertOkResponseSchema = Type.Object({ status: StatusOk });

// ---- the Alert record ----------------------------------------------------------------

const ScheduleDaySchema = Type.Object({
  id: Type.Union(WEEKDAYS.map((d) => Type.Literal(d))),
  title: Type.String(),
  items: Type.Array(Type.Object({ id: Type.String(), title: Type.String(), active: Type.Boolean() })),
});

const ChannelInput = Type.Object({ active: Type.Boolean(), input: Type.String() });
export const AlertNotificationsSchema = Type.Object({
  sound: Type.Object({ active: Type.Boolean() }),
  push: Type.Object({ active: Type.Boolean() }),
  email: ChannelInput,
  sms: ChannelInput,
  webhook: ChannelInput,
  command: Type.Union([Type.Null(), Type.Object({ active: Type.Boolean(), type: Type.String(), key: Type.Union([Type.Null(), Type.String(), Type.Integer(), Type.Boolean()]) })]),
  /** Ignore notifications repeated within `input` minutes; `{active: false, input: 0}` when never set. */
  silent: Type.Object({ active: Type.Boolean(), input: Type.Integer({ minimum: 0 }) }),
});

/** The Alert record; the chosen type's scalar attributes appear as fields of their own, as the vendor's do. */
export const AlertSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  active: Type.Union([Type.Literal(0), Type.Literal(1)]),
  name: Type.String(),
  type: Type.String(),
  created_at: Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" }),
  updated_at: Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" }),
  devices: Type.Array(Type.Integer()),
  drivers: Type.Array(Type.Integer()),
  geofences: Type.Array(Type.Integer()),
  events_custom: Type.Array(Type.Integer()),
  pois: Type.Array(Type.Integer()),
  zone: Type.Integer({ minimum: 0, maximum: 2 }),
  zones: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }), { description: "the zone's geofences" }),
  schedule: Type.Boolean(),
  schedules: Type.Array(ScheduleDaySchema),
  notifications: AlertNotificationsSchema,
  ...scalarAttributeFields,
});
export type AlertRecord = Static<typeof AlertSchema>;

export const GetAlertsResponseSchema = Type.Object({ status: StatusOk, items: Type.Object({ alerts: Type.Array(AlertSchema) }) });

// ---- add_alert_data / edit_alert_data -------------------------------------------------

export const AlertAttributeDescriptorSchema = Type.Object({
  name: Type.String(),
  type: Type.Union([Type.Literal("integer"), Type.Literal("string"), Type.Literal("text"), Type.Literal("select"), Type.Literal("multiselect")]),
  title: Type.String(),
  default: Type.Union([Type.String(), Type.Array(Type.Integer())]),
  options: Type.Union([Type.Null(), Type.Array(Type.Object({ id: Type.Union([Type.Integer(), Type.String()]), value: Type.String() }))]),
});

export const AlertTypeDescriptorSchema = Type.Object({ type: Type.String(), title: Type.String(), attributes: Type.Array(AlertAttributeDescriptorSchema) });

export const AlertNotificationDescriptorSchema = Type.Object({
  name: Type.String(),
  active: Type.Boolean(),
  title: Type.String(),
  input: Type.Union([Type.Null(), Type.String()]),
  description: Type.Union([Type.Null(), Type.String()]),
});

const IntOptions = Type.Array(IdValue(Type.Integer()));

export const AddAlertDataResponseSchema = Type.Object({
  devices: IntOptions,
  geofences: IntOptions,
  drivers: IntOptions,
  alert_zones: IntOptions,
  alert_fuel_type: IntOptions,
  alert_distance: IntOptions,
  event_types: IntOptions,
  event_protocols: Type.Array(IdValue(Type.String())),
  types: Type.Array(AlertTypeDescriptorSchema),
  notifications: Type.Array(AlertNotificationDescriptorSchema),
  schedules: Type.Array(ScheduleDaySchema),
  status: StatusOk,
});
export type AddAlertDataResponse = Static<typeof AddAlertDataResponseSchema>;

/** edit_alert_data (not shown by the spec): add_alert_data's lists filled with the alert's values, plus the alert. */
export const EditAlertDataResponseSchema = Type.Object({ ...AddAlertDataResponseSchema.properties, item: AlertSchema });

// ---- get_protocols, change_active_alert, set_alert_devices ----------------------------

const ProtocolGroup = Type.Object({ id: Type.Integer(), value: Type.Object({ type: Type.Integer(), items: Type.Array(IdValue(Type.String())) }) });

/** Keyed by position, as the vendor's: `0` custom-event protocols (event type 1), `1` system events (type 2). */
export const GetProtocolsResponseSchema = Type.Object({ 0: ProtocolGroup, 1: ProtocolGroup, status: StatusOk });

/**
 * `change_active_alert`, from the query (GET: `id=1`, `id[]=1&id[]=2`) or a body (POST).
 * `active` null or left out means off, as the vendor's body allows (`boolean` or `null`, not required).
 */
export const ChangeActiveAlertSchema = Type.Object({
  id: Type.Union([RecordId, Ids(MAX_CHANGE_ACTIVE_ALERTS, 1)]),
  active: Type.Optional(Type.Union([ActiveFlagSchema, Type.Null()])),
});
export type ChangeActiveAlert = Static<typeof ChangeActiveAlertSchema>;

const AlertDevicesField = { devices: Ids(MAX_ALERT_DEVICES, 1) };
/** GET set_alert_devices: the alert and its new devices in the query (`devices[]=1&devices[]=2`). */
export const SetAlertDevicesQuerySchema = Type.Object({ ...AlertIdQuerySchema.properties, ...AlertDevicesField });
/** POST set_alert_devices: the devices in the body. */
export const SetAlertDevicesBodySchema = Type.Object(AlertDevicesField);

// ---- get_alerts_attributes, get_alerts_commands, get_alerts_summary --------------------

/** An input field of an alert type, as the Swagger's items show it: options (select, multiselect) by string id. */
export const AlertInputFieldSchema = Type.Object({
  name: Type.String({ description: "the add_alert / edit_alert field" }),
  type: Type.Union([Type.Literal("integer"), Type.Literal("select"), Type.Literal("multiselect")]),
  title: Type.String(),
  options: Type.Optional(Type.Array(Type.Object({ id: Type.String(), title: Type.String() }))),
});

export const AlertsAttributesResponseSchema = Type.Object({
  status: StatusOk,
  types: Type.Array(Type.Object({ type: Type.String(), title: Type.String(), attributes: Type.Array(AlertInputFieldSchema) })),
});

/** Whose commands to list: the devices named (either list, or both), else the alert's devices. */
export const AlertsCommandsSchema = Type.Object({
  alert_id: Type.Optional(RecordId),
  devices: Type.Optional(Ids(MAX_ALERT_DEVICES)),
  selected_devices: Type.Optional(Ids(MAX_ALERT_DEVICES)),
});
export type AlertsCommands = Static<typeof AlertsCommandsSchema>;

export const AlertsCommandsResponseSchema = Type.Object({
  status: StatusOk,
  items: Type.Array(Type.Object({ type: Type.String({ description: "an alert's notifications.command.type" }), title: Type.String() })),
});

export const AlertsSummaryQuerySchema = Type.Object({ date_from: Type.Optional(UserDateSchema), date_to: Type.Optional(UserDateSchema) });
export type AlertsSummaryQuery = Static<typeof AlertsSummaryQuerySchema>;

const Count = Type.Integer({ minimum: 0 });

export const AlertsSummaryResponseSchema = Type.Object({
  status: StatusOk,
  items: Type.Object({
    total: Count,
    active: Count,
    events: Type.Integer({ minimum: 0, description: "events the alerts recorded in the period" }),
    alerts: Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        type: Type.String(),
        active: Type.Union([Type.Literal(0), Type.Literal(1)]),
        devices: Type.Integer({ minimum: 0, description: "devices the alert watches" }),
        events: Type.Integer({ minimum: 0, description: "events it recorded in the period" }),
      }),
    ),
  }),
});
export type AlertsSummaryResponse = Static<typeof AlertsSummaryResponseSchema>;

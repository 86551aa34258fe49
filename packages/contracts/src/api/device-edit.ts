import { Type, type Static } from "@sinclair/typebox";
import { IdValue, StatusOk } from "./common.js";
import { AddDeviceBodySchema, AddDeviceDataSchema, DeviceDataSchema, DeviceIconsTypeSchema, IconColorSchema } from "./devices.js";

/** Where a device's engine hours come from: ignition time (`gps`) or an engine hours sensor. */
export const engineHoursSources = ["gps", "engine_hours"] as const;
export type EngineHoursSource = (typeof engineHoursSources)[number];

/** What decides engine on/off: motion (`gps`) or the device's sensor of that type. */
export const detectEngineSources = ["gps", "ignition", "acc", "engine"] as const;
export type DetectEngineSource = (typeof detectEngineSources)[number];

/** The `engine_hours` and `detect_engine` option lists of `edit_device_data`. */
export const engineHoursOptions: { id: EngineHoursSource; value: string }[] = [
  { id: "gps", value: "GPS (ignition time)" },
  { id: "engine_hours", value: "Engine hours sensor" },
];
export const detectEngineOptions: { id: DetectEngineSource; value: string }[] = [
  { id: "gps", value: "GPS (motion)" },
  { id: "ignition", value: "Ignition sensor" },
  { id: "acc", value: "ACC sensor" },
  { id: "engine", value: "Engine sensor" },
];

export const EngineHoursSchema = Type.Union(engineHoursSources.map((s) => Type.Literal(s)));
export const DetectEngineSchema = Type.Union(detectEngineSources.map((s) => Type.Literal(s)));
export const TailColorSchema = Type.String({ pattern: "^#[0-9a-fA-F]{6}$", description: "`#rrggbb`" });

/** A device id as routes take it. Ids beyond int4 pass here and are simply not found. */
export const DeviceIdSchema = Type.Integer({ minimum: 1, description: "Device ID" });

/** `edit_device_data` and `destroy_device`: the device in the query, as the vendor sends it. */
export const DeviceIdQuerySchema = Type.Object({ device_id: DeviceIdSchema });

/** `edit_device` query: `device_id` may come here or in the body; the query's wins. */
export const EditDeviceQuerySchema = Type.Object({ device_id: Type.Optional(DeviceIdSchema) });

/**
 * `edit_device` body: every `add_device` field, each optional (omitted = unchanged), plus
 * the fields only an edit sets. `device_id` is required, but the route copies it in from
 * the query when the query carries it. `expiration_date` is not a field: a plain user may
 * not move it, and unknown fields are ignored.
 */
export const EditDeviceBodySchema = Type.Object({
  device_id: DeviceIdSchema,
  ...Type.Partial(AddDeviceBodySchema).properties,
  // Redeclared without add_device's `default: 0`: with useDefaults on, a default would
  // turn "omitted" into "reset to default" on every partial edit.
  timezone_id: Type.Optional(Type.Integer({ minimum: 0, maximum: 113, description: "0 = default" })),
  engine_hours: Type.Optional(EngineHoursSchema),
  detect_engine: Type.Optional(DetectEngineSchema),
  tail_color: Type.Optional(TailColorSchema),
});
export type EditDeviceBody = Static<typeof EditDeviceBodySchema>;

/**
 * `edit_device_data` item: the Device record, plus the settings the edit form shows that
 * the vendor's record lacks (so a form can be filled from this response alone).
 */
export const EditDeviceItemSchema = Type.Object({
  ...DeviceDataSchema.properties,
  additional_notes: Type.String(),
  device_icons_type: DeviceIconsTypeSchema,
  icon_colors: Type.Object({ moving: IconColorSchema, stopped: IconColorSchema, offline: IconColorSchema, engine: IconColorSchema }),
});
export type EditDeviceItem = Static<typeof EditDeviceItemSchema>;

/** `edit_device_data`: `add_device_data`'s lists, the device, and the edit-only lists. */
export const EditDeviceDataResponseSchema = Type.Object({
  ...AddDeviceDataSchema.properties,
  item: EditDeviceItemSchema,
  engine_hours: Type.Array(IdValue(Type.String())),
  detect_engine: Type.Array(IdValue(Type.String())),
});
export type EditDeviceDataResponse = Static<typeof EditDeviceDataResponseSchema>;

/**
 * A yes/no as `change_active_*` clients send it. Strings first and no bare `Boolean`:
 * with coerceTypes a boolean branch would read JSON `null` as false.
 */
export const ActiveFlagSchema = Type.Union([
  Type.Literal("true"),
  Type.Literal("false"),
  Type.Literal("1"),
  Type.Literal("0"),
  Type.Literal(1),
  Type.Literal(0),
  Type.Literal(true),
  Type.Literal(false),
]);
export type ActiveFlag = Static<typeof ActiveFlagSchema>;

export function isActive(v: ActiveFlag): boolean {
  return v === true || v === 1 || v === "1" || v === "true";
}

/** At most this many ids in one `change_active_device` (more than any account holds). */
export const MAX_CHANGE_ACTIVE_IDS = 10_000;

/** `change_active_device`, from the query (`id=1`, `id[]=1&id[]=2`) or the body; `active` left out means off, as for the other change_active_* calls. */
export const ChangeActiveDeviceSchema = Type.Object({
  id: Type.Union([DeviceIdSchema, Type.Array(DeviceIdSchema, { minItems: 1, maxItems: MAX_CHANGE_ACTIVE_IDS })]),
  active: Type.Optional(ActiveFlagSchema),
});
export type ChangeActiveDevice = Static<typeof ChangeActiveDeviceSchema>;

/** The POST form's query: either field may come here instead of the body. */
export const ChangeActiveDeviceQuerySchema = Type.Partial(ChangeActiveDeviceSchema);

export const DeviceStatusResponseSchema = Type.Object({ status: StatusOk });
export const EditDeviceResponseSchema = DeviceStatusResponseSchema;
export const DestroyDeviceResponseSchema = DeviceStatusResponseSchema;
export const ChangeActiveDeviceResponseSchema = DeviceStatusResponseSchema;

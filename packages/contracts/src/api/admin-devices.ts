import { Type, type Static } from "@sinclair/typebox";
import { AdminClientBodySchema, AdminDateSchemas } from "./admin.js";
import { FormBoolean, StatusOk } from "./common.js";
import { MAX_CHANGE_ACTIVE_IDS } from "./device-edit.js";
import { RecordIdSchema } from "./geofences.js";
import { PageQuery, PaginationCompactSchema } from "./pagination.js";

/*
 * The administration of clients and devices beyond creating and listing clients: a client's
 * account and devices, every device of the platform and who has it.
 */

const Email = AdminClientBodySchema.properties.email;

/**
 * `PUT /admin/client`: the client named by `id` (the Swagger's body names none), the
 * `POST /admin/client` fields, each kept when left out. `objects`, when given, is the complete
 * list of the client's devices. `enable_*` off clears the limit or the expiry.
 */
export const AdminClientUpdateBodySchema = Type.Object({
  id: RecordIdSchema,
  email: Type.Optional(Email),
  password: Type.Optional(AdminClientBodySchema.properties.password),
  password_confirmation: Type.Optional(AdminClientBodySchema.properties.password_confirmation),
  group_id: AdminClientBodySchema.properties.group_id,
  active: Type.Optional(FormBoolean()),
  enable_devices_limit: Type.Optional(FormBoolean()),
  devices_limit: AdminClientBodySchema.properties.devices_limit,
  enable_expiration_date: Type.Optional(FormBoolean()),
  expiration_date: AdminClientBodySchema.properties.expiration_date,
  objects: Type.Optional(Type.Array(RecordIdSchema, { maxItems: MAX_CHANGE_ACTIVE_IDS, description: "device ids: every device the client has" })),
});
export type AdminClientUpdateBody = Static<typeof AdminClientUpdateBodySchema>;

/** `POST /admin/client/status`: the client by `id`, or by `email` without one. */
export const AdminClientStatusBodySchema = Type.Object({
  id: Type.Optional(RecordIdSchema),
  email: Type.Optional(Email),
  status: FormBoolean({ description: "active or not" }),
});
export type AdminClientStatusBody = Static<typeof AdminClientStatusBodySchema>;

export const AdminClientsDeleteBodySchema = Type.Object({ ids: Type.Array(RecordIdSchema, { minItems: 1, maxItems: MAX_CHANGE_ACTIVE_IDS }) });

export const AdminIdParamsSchema = Type.Object({ id: RecordIdSchema });
export const AdminDeviceParamsSchema = Type.Object({ device: RecordIdSchema });
/** The paths whose `{device}` the vendor documents as "ID or IMEI" (a device's user and status). */
export const AdminDeviceKeyParamsSchema = Type.Object({ device: Type.String({ minLength: 1, maxLength: 64, pattern: "^[^\\s\\x00-\\x1f]+$", description: "ID or IMEI" }) });

export const AdminPageQuerySchema = Type.Object(PageQuery);

const paged = <T extends ReturnType<typeof Type.Object>>(item: T) => Type.Object({ status: StatusOk, data: Type.Array(item), pagination: PaginationCompactSchema });

export const AdminClientDevicesResponseSchema = paged(Type.Object({ id: Type.Integer(), name: Type.String() }));

export const AdminDeviceUsersResponseSchema = paged(Type.Object({ id: Type.Integer(), email: Type.String(), active: Type.Union([Type.Literal(0), Type.Literal(1)]) }));

export const adminDeviceSearchColumns = ["name", "imei", "sim_number", "device_model", "plate_number", "vin", "registration_number", "object_owner"] as const;

/** `GET /admin/devices`: `s` searched in `property` (one column) or in all of them; `includes` is accepted and ignored. */
export const AdminDevicesQuerySchema = Type.Object({
  ...PageQuery,
  s: Type.Optional(Type.String({ maxLength: 255, description: "text found anywhere in the columns, any case" })),
  property: Type.Optional(Type.Union(adminDeviceSearchColumns.map((c) => Type.Literal(c)))),
  includes: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Array(Type.String({ maxLength: 255 }), { maxItems: 20 })])),
});
export type AdminDevicesQuery = Static<typeof AdminDevicesQuerySchema>;

/** The Swagger's `device_lookup`. */
export const DeviceLookupSchema = Type.Object({
  id: Type.Integer(),
  active: Type.Boolean(),
  name: Type.String(),
  imei: Type.String(),
  sim_number: Type.String(),
  device_model: Type.String(),
  plate_number: Type.String(),
  vin: Type.String(),
  registration_number: Type.String(),
  object_owner: Type.String(),
  additional_notes: Type.String(),
  protocol: Type.Union([Type.String(), Type.Null()], { description: "of its latest position; null before any" }),
  expiration_date: Type.Union([Type.String(), Type.Null()]),
});
export type DeviceLookup = Static<typeof DeviceLookupSchema>;

export const AdminDevicesResponseSchema = paged(DeviceLookupSchema);

/** `GET /admin/device/{device}`: the lookup fields and the device's settings and motion, as the Swagger's example has them. */
export const AdminDeviceSchema = Type.Object({
  ...DeviceLookupSchema.properties,
  icon_colors: Type.Object({ moving: Type.String(), stopped: Type.String(), offline: Type.String(), engine: Type.String() }),
  icon_id: Type.Integer(),
  timezone_id: Type.Union([Type.Integer(), Type.Null()]),
  fuel_measurement_id: Type.Integer(),
  fuel_quantity: Type.Number(),
  fuel_price: Type.Number(),
  tail_length: Type.Integer(),
  tail_color: Type.String(),
  min_moving_speed: Type.Number(),
  min_fuel_fillings: Type.Number(),
  min_fuel_thefts: Type.Number(),
  gprs_templates_only: Type.Integer(),
  detect_engine: Type.Union([Type.String(), Type.Null()]),
  engine_hours: Type.Union([Type.String(), Type.Null()]),
  engine_status: Type.Union([Type.String(), Type.Null()]),
  stop_duration: Type.Union([Type.String(), Type.Null()]),
  stop_duration_sec: Type.Integer(),
  total_distance: Type.Number(),
  moved_timestamp: Type.Integer(),
  inaccuracy: Type.Union([Type.String(), Type.Null()]),
});

export const AdminDeviceResponseSchema = Type.Object({ status: StatusOk, data: AdminDeviceSchema });

/** `POST /admin/device/{device}/user`: the user by `user_id`, or by `email` without one. */
export const AdminDeviceUserBodySchema = Type.Object({ user_id: Type.Optional(RecordIdSchema), email: Type.Optional(Email) });
export type AdminDeviceUserBody = Static<typeof AdminDeviceUserBodySchema>;
/** `DELETE /admin/device/{device}/user`: the same, in the query (or a body). */
export const AdminDeviceUserQuerySchema = AdminDeviceUserBodySchema;

export const AdminDeviceStatusBodySchema = Type.Object({ active: FormBoolean() });

/** `expiration_date` as the Swagger types it (unix seconds), or a date-time; null or 0 for none. */
export const AdminDeviceExpirationBodySchema = Type.Object({
  expiration_date: Type.Union([Type.Null(), Type.Integer({ minimum: 0, maximum: 4_102_444_800, description: "unix seconds; 0 for none" }), ...AdminDateSchemas]),
});
export type AdminDeviceExpirationBody = Static<typeof AdminDeviceExpirationBodySchema>;

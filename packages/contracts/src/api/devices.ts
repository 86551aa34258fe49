import { Type, type Static } from "@sinclair/typebox";
import { IdValue, StatusOk } from "./common.js";
import { LiveEventSchema } from "./events.js";

export const IconColorSchema = Type.Union([Type.Literal("green"), Type.Literal("yellow"), Type.Literal("red"), Type.Literal("blue"), Type.Literal("orange"), Type.Literal("black")]);
export const DeviceIconsTypeSchema = Type.Union([Type.Literal("arrow"), Type.Literal("icon"), Type.Literal("rotating")]);

const Text = (max = 255) => Type.String({ maxLength: max });
const Amount = (max = 1_000_000) => Type.Number({ minimum: 0, maximum: max });

/** `add_device` body, as the spec lists it. */
export const AddDeviceBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  imei: Type.String({ minLength: 1, maxLength: 64, pattern: "^[^\\s\\x00-\\x1f]+$" }),
  icon_id: Type.Integer({ minimum: 0, maximum: 2147483647 }),
  fuel_measurement_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  tail_length: Type.Integer({ minimum: 0, maximum: 30 }),
  min_moving_speed: Amount(300),
  min_fuel_fillings: Amount(),
  min_fuel_thefts: Amount(),
  fuel_quantity: Type.Optional(Amount()),
  fuel_price: Type.Optional(Amount()),
  group_id: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  device_icons_type: Type.Optional(DeviceIconsTypeSchema),
  timezone_id: Type.Optional(Type.Integer({ minimum: 0, maximum: 113, default: 0 })),
  icon_moving: Type.Optional(IconColorSchema),
  icon_stopped: Type.Optional(IconColorSchema),
  icon_offline: Type.Optional(IconColorSchema),
  icon_engine: Type.Optional(IconColorSchema),
  sim_number: Type.Optional(Text(64)),
  vin: Type.Optional(Text(64)),
  device_model: Type.Optional(Text()),
  plate_number: Type.Optional(Text(64)),
  registration_number: Type.Optional(Text(64)),
  object_owner: Type.Optional(Text()),
  additional_notes: Type.Optional(Text(5000)),
});
export type AddDeviceBody = Static<typeof AddDeviceBodySchema>;

export const AddDeviceResponseSchema = Type.Object({ status: StatusOk, id: Type.Integer() });

export const DeviceIconSchema = Type.Object({ id: Type.String(), order: Type.String(), width: Type.String(), height: Type.String(), path: Type.String() });
export const FuelMeasurementSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  fuel_title: Type.String(),
  distance_title: Type.String(),
  lang: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const AddDeviceDataSchema = Type.Object({
  device_groups: Type.Array(IdValue(Type.Integer())),
  sensor_groups: Type.Array(IdValue(Type.Integer())),
  device_fuel_measurements: Type.Array(FuelMeasurementSchema),
  device_icons: Type.Array(DeviceIconSchema),
  users: Type.Array(Type.Object({ id: Type.Integer(), email: Type.String() })),
  timezones: Type.Array(IdValue(Type.Integer())),
  expiration_date_select: Type.Object({ "1": Type.String(), "0000-00-00": Type.String() }),
  status: StatusOk,
});

const S = Type.String();
/** The embedded Device record (`device_data`), strings as the spec types them. */
export const DeviceDataSchema = Type.Object({
  id: S,
  user_id: Type.Union([Type.Null(), Type.Integer()]),
  traccar_device_id: S,
  icon_id: S,
  active: S,
  deleted: S,
  name: S,
  imei: S,
  fuel_measurement_id: S,
  fuel_quantity: S,
  fuel_price: S,
  fuel_per_km: S,
  sim_number: S,
  device_model: S,
  plate_number: S,
  vin: S,
  registration_number: S,
  object_owner: S,
  expiration_date: S,
  tail_color: S,
  tail_length: S,
  engine_hours: S,
  detect_engine: S,
  min_moving_speed: S,
  min_fuel_fillings: S,
  min_fuel_thefts: S,
  snap_to_road: S,
  created_at: S,
  updated_at: S,
  pivot: Type.Object({
    user_id: S,
    device_id: S,
    group_id: Type.Union([Type.Null(), S]),
    current_driver_id: S,
    active: S,
    timezone_id: Type.Union([Type.Null(), S]),
  }),
  group_id: Type.Union([Type.Null(), S]),
  current_driver_id: S,
});
export type DeviceData = Static<typeof DeviceDataSchema>;

const liveItemFields = {
  id: Type.Integer(),
  name: S,
  online: S,
  alarm: S,
  time: S,
  timestamp: Type.Integer(),
  acktimestamp: Type.Integer(),
  speed: Type.Integer(),
  lat: Type.Number(),
  lng: Type.Number(),
  course: S,
  power: S,
  altitude: Type.Integer(),
  address: S,
  protocol: S,
  driver: S,
  distance_unit_hour: S,
  device_data: DeviceDataSchema,
  users: Type.Array(Type.Object({ id: Type.Integer(), email: S })),
  unit_of_distance: S,
  unit_of_altitude: S,
  unit_of_capacity: S,
  stop_duration: S,
  moved_timestamp: Type.Integer(),
  engine_status: Type.Union([Type.Null(), Type.Boolean()]),
  icon_type: S,
  icon_color: S,
  icon_colors: Type.Object({ moving: S, stopped: S, offline: S, engine: S }),
};

export const LiveSensorSchema = Type.Object({ name: S, value: S, show_in_popup: S });
export const LiveServiceSchema = Type.Object({ name: S, value: S, expiring: Type.Boolean() });
export const TailItemSchema = Type.Object({ lat: S, lng: S });

/** One item of the live device list (`get_devices`). */
export const LiveDeviceItemSchema = Type.Object({
  ...liveItemFields,
  sensors: Type.Array(LiveSensorSchema),
  services: Type.Array(LiveServiceSchema),
  tail: Type.Array(TailItemSchema),
});
export type LiveDeviceItem = Static<typeof LiveDeviceItemSchema>;

/**
 * `get_devices_latest` items: the same, with sensors, services and tail as JSON text, and what
 * the vendor's Swagger lists there only: the engine detection setting, engine hours and total
 * distance as the device's services count them, and its latest position's parameter names.
 */
export const LatestDeviceItemSchema = Type.Object({
  ...liveItemFields,
  sensors: S,
  services: S,
  tail: S,
  detect_engine: S,
  engine_hours: Type.String({ description: "hours, two decimals" }),
  total_distance: Type.String({ description: "in the user's distance unit, two decimals" }),
  parameters: Type.Array(S, { description: "the names of the latest position's parameters, sorted" }),
});
export type LatestDeviceItem = Static<typeof LatestDeviceItemSchema>;

export const GetDevicesResponseSchema = Type.Array(Type.Object({ id: Type.Integer(), title: S, items: Type.Array(LiveDeviceItemSchema) }));

/** An optional whole number of a list filter; empty is no filter, as a form that leaves the field blank sends it. */
const FilterInt = (max: number) => Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: max }), Type.Literal("")]));
const FilterText = Type.Optional(Type.String({ maxLength: 255, description: "exact value; empty is no filter" }));

/**
 * The live list's filters as the vendor's Swagger gives them (get_devices' query, and
 * get_devices_latest's `filter[...]`): exact values of the device's fields, its status, and
 * how recently it reported. Every filter given must hold; an empty one is none.
 */
export const DeviceListFilterSchema = Type.Object({
  s: Type.Optional(Type.String({ maxLength: 255, description: "text found, in any case, in the name, IMEI, SIM, VIN, plate, registration number, owner or model" })),
  id: FilterInt(2147483647),
  imei: FilterText,
  sim_number: FilterText,
  msisdn: Type.Optional(Type.String({ maxLength: 255, description: "the SIM's number: matches sim_number" })),
  vin: FilterText,
  plate_number: FilterText,
  registration_number: FilterText,
  object_owner: FilterText,
  device_model: FilterText,
  group_id: FilterInt(2147483647),
  status: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })], { description: "the item's `online` value, online or offline; several are any of them" })),
  online: FilterInt(5_256_000),
  offline: FilterInt(5_256_000),
});
export type DeviceListFilter = Static<typeof DeviceListFilterSchema>;

/** The most devices a get_devices page holds. */
export const MAX_DEVICES_PER_PAGE = 1000;

export const GetDevicesQuerySchema = Type.Object({
  ...DeviceListFilterSchema.properties,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DEVICES_PER_PAGE, description: "devices per page; without limit and page, every device" })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "1-based; 100 devices a page unless limit says" })),
});
export type GetDevicesQuery = Static<typeof GetDevicesQuerySchema>;

export const GetDevicesLatestQuerySchema = Type.Object({
  time: Type.Optional(Type.Integer({ minimum: 0, maximum: 4102444800, description: "unix seconds from the previous response" })),
  filter: Type.Optional(Type.Object(DeviceListFilterSchema.properties, { additionalProperties: false, description: "get_devices' filters, as filter[imei] and so on" })),
});

export const GetDevicesLatestResponseSchema = Type.Object({
  items: Type.Array(LatestDeviceItemSchema),
  events: Type.Array(LiveEventSchema),
  time: Type.Integer(),
  version: S,
});


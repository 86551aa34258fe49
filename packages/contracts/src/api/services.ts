import { Type, type Static } from "@sinclair/typebox";
import { FormBoolean, StatusOk } from "./common.js";
import { DeviceDataSchema } from "./devices.js";
import { PageQuery, Paginated } from "./pagination.js";

/** How a maintenance service expires, with the labels `*_service_data` offer. */
export const serviceExpirationLabels = { odometer: "Odometer", engine_hours: "Engine hours", days: "Days" } as const;

export const ServiceExpirationBySchema = Type.Union([Type.Literal("odometer"), Type.Literal("engine_hours"), Type.Literal("days")]);
export const ServiceExpirationLabelsSchema = Type.Object({ odometer: Type.String(), engine_hours: Type.String(), days: Type.String() });

const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: 2147483647, ...(description ? { description } : {}) });
/**
 * Amounts travel as strings, as the vendor types them (numbers are coerced). What they
 * must hold depends on `expiration_by`, so the route checks them after the schema.
 */
const Amount = (description: string) => Type.String({ maxLength: 32, description });

/** The servicePost fields, shared by add_service and edit_service. */
const serviceFields = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  expiration_by: ServiceExpirationBySchema,
  interval: Amount("km or mi (the user's unit), hours or days; more than 0 (whole days)"),
  last_service: Amount("the odometer (km or mi) or engine hours at the last service, or its date YYYY-MM-DD for days"),
  trigger_event_left: Amount("how long before expiry the service counts as expiring, in the interval's unit; 0 or more"),
  renew_after_expiration: FormBoolean({ description: "once due, start the next cycle (see docs/decisions.md)" }),
  email: Type.Optional(Type.String({ maxLength: 255, description: "an address, or several separated by commas" })),
  mobile_phone: Type.Optional(Type.String({ maxLength: 64, description: "a number, or several separated by commas" })),
};

/** `device_id` of the services endpoints that take a device. */
export const ServiceDeviceQuerySchema = Type.Object({ device_id: Id() });

export const AddServiceDataResponseSchema = Type.Object({
  device_id: Type.Integer(),
  odometer_value: Type.String({ description: "the device's odometer now, in the user's distance unit" }),
  engine_hours_value: Type.String({ description: "the device's engine hours now" }),
  expiration_by: ServiceExpirationLabelsSchema,
  status: StatusOk,
});

/** add_service takes `device_id` in the query, the body or both (then they must agree). */
export const AddServiceQuerySchema = Type.Object({ device_id: Type.Optional(Id()) });
export const AddServiceBodySchema = Type.Object({ device_id: Type.Optional(Id()), ...serviceFields });
export type AddServiceBody = Static<typeof AddServiceBodySchema>;
export const AddServiceResponseSchema = Type.Object({ status: StatusOk, id: Type.Integer() });

export const EditServiceBodySchema = Type.Object({ id: Id("the service"), device_id: Id(), ...serviceFields });
export type EditServiceBody = Static<typeof EditServiceBodySchema>;

/** edit_service_data names the parameter `sensor_id` in the spec and `service_id` at the vendor: either is taken. */
export const EditServiceDataQuerySchema = Type.Object({
  service_id: Type.Optional(Id()),
  sensor_id: Type.Optional(Id("the service id, under the name the spec gives it")),
});
export const ServiceIdQuerySchema = Type.Object({ service_id: Id() });

const S = Type.String();
/** The Service record: the stored fields and the state computed from the device's counters, strings as the spec types them. */
export const ServiceRecordSchema = Type.Object({
  id: S,
  user_id: S,
  device_id: S,
  name: S,
  expiration_by: S,
  interval: S,
  last_service: S,
  trigger_event_left: S,
  renew_after_expiration: S,
  expires: S,
  expires_date: Type.Union([Type.Null(), S]),
  remind: S,
  remind_date: Type.Union([Type.Null(), S]),
  event_sent: S,
  expired: S,
  email: S,
  mobile_phone: S,
  device: DeviceDataSchema,
});
export type ServiceRecord = Static<typeof ServiceRecordSchema>;

export const EditServiceDataResponseSchema = Type.Object({
  device_id: Type.Integer(),
  odometer_value: S,
  engine_hours_value: S,
  expiration_by: ServiceExpirationLabelsSchema,
  item: ServiceRecordSchema,
  status: StatusOk,
});

export const GetServicesQuerySchema = Type.Object({ device_id: Id(), ...PageQuery });
/** The vendor's get_services: the pagination wrapper at the top level, plus `status`. */
export const GetServicesResponseSchema = Type.Object({ ...Paginated(ServiceRecordSchema).properties, status: StatusOk });

export const ServiceOkResponseSchema = Type.Object({ status: StatusOk });

import { Type, type Static } from "@sinclair/typebox";
import { StatusOk } from "./common.js";
import { PageQuery, Paginated } from "./pagination.js";

const Text = (max: number) => Type.String({ maxLength: max });

/** Fields add_user_driver and edit_user_driver share (the vendor's `driverpost`). */
const driverFields = {
  device_id: Type.Integer({ minimum: 1, description: "one of the user's devices; the driver becomes its current driver" }),
  // At least one visible character: a name of blanks shows as nothing in the live list.
  name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  rfid: Type.Optional(Text(64)),
  phone: Type.Optional(Text(64)),
  // Forms send an untouched optional field as "", which means "no email".
  email: Type.Optional(Type.String({ maxLength: 255, pattern: "^$|^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$" })),
  description: Type.Optional(Text(5000)),
};

export const AddUserDriverBodySchema = Type.Object(driverFields);
export type AddUserDriverBody = Static<typeof AddUserDriverBodySchema>;

export const EditUserDriverBodySchema = Type.Object({ id: Type.Integer({ minimum: 1 }), ...driverFields });
export type EditUserDriverBody = Static<typeof EditUserDriverBodySchema>;

/** `?user_driver_id=N` of edit_user_driver_data and destroy_user_driver. */
export const UserDriverIdQuerySchema = Type.Object({ user_driver_id: Type.Integer({ minimum: 1 }) });

export const GetUserDriversQuerySchema = Type.Object({ ...PageQuery });

/**
 * The Driver record. `device_id` is absent once the driver's device is gone (the spec
 * allows absent fields, not null); `device_port` is always null: nothing sets it.
 */
export const DriverSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  device_id: Type.Optional(Type.Integer()),
  device_port: Type.Null(),
  name: Type.String(),
  rfid: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  description: Type.String(),
  created_at: Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" }),
  updated_at: Type.String({ description: "YYYY-MM-DD HH:MM:SS in the user's timezone" }),
});
export type DriverRecord = Static<typeof DriverSchema>;

/** Device id → device name, the user's devices a driver can be given. */
export const DriverDevicesSchema = Type.Record(Type.String(), Type.String());

export const GetUserDriversResponseSchema = Type.Object({ items: Type.Object({ drivers: Paginated(DriverSchema) }), status: StatusOk });

export const AddUserDriverDataResponseSchema = Type.Object({ devices: DriverDevicesSchema, status: StatusOk });

export const AddUserDriverResponseSchema = Type.Object({
  status: StatusOk,
  item: Type.Object({ name: Type.String(), user_id: Type.Integer(), updated_at: Type.String(), created_at: Type.String(), id: Type.Integer() }),
});

export const EditUserDriverDataResponseSchema = Type.Object({ item: DriverSchema, devices: DriverDevicesSchema, status: StatusOk });

/** edit_user_driver and destroy_user_driver: the spec shows no body, so `{status: 1}` as the vendor's `success`. */
export const DriverChangedResponseSchema = Type.Object({ status: StatusOk });

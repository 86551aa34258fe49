import { Type, type Static } from "@sinclair/typebox";
import { FormBoolean, StatusOk } from "./common.js";
import { MAX_CHANGE_ACTIVE_IDS } from "./device-edit.js";
import { RecordIdSchema } from "./geofences.js";
import { PageQuery, PaginationCompactSchema } from "./pagination.js";
import { TaskDateTimeSchema } from "./tasks.js";

/*
 * The vendor's Sharing: links through which anyone holding a sharing's hash sees some of the
 * user's devices live, without an account (GET /shared_devices?token=<hash>).
 */

/** Shown as the expiry of a sharing that never expires, as the account record shows unset dates. */
export const NO_DATE = "0000-00-00 00:00:00";

/** A sharing as the vendor's `sharing` definition has it, plus the devices it shows. */
export const SharingSchema = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  name: Type.String(),
  hash: Type.String({ description: "the link's credential: GET /shared_devices?token=<hash>" }),
  expiration_date: Type.String({ description: `in the user's timezone; ${NO_DATE} when it never expires` }),
  active: Type.Union([Type.Literal(0), Type.Literal(1)]),
  delete_after_expiration: Type.Union([Type.Literal(0), Type.Literal(1)]),
  devices: Type.Array(Type.Integer(), { description: "the devices it shows, ascending" }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type SharingRecord = Static<typeof SharingSchema>;

const DevicesSchema = Type.Array(RecordIdSchema, { maxItems: MAX_CHANGE_ACTIVE_IDS, description: "the user's devices it shows: the complete list" });

/** The create body; on update every field may be left out, keeping its value. */
export const SharingBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  devices: Type.Optional(DevicesSchema),
  active: Type.Optional(FormBoolean({ description: "on when left out of a new sharing" })),
  enable_expiration_date: Type.Optional(FormBoolean({ description: "whether expiration_date applies; off when left out of a new sharing" })),
  expiration_date: Type.Optional(TaskDateTimeSchema),
  delete_after_expiration: Type.Optional(FormBoolean({ description: "delete the sharing once it expires" })),
});
export type SharingBody = Static<typeof SharingBodySchema>;

export const SharingUpdateBodySchema = Type.Partial(SharingBodySchema);
export type SharingUpdateBody = Static<typeof SharingUpdateBodySchema>;

export const SharingDevicesBodySchema = Type.Object({ devices: DevicesSchema });

export const SharingIdParamsSchema = Type.Object({ id: RecordIdSchema });

export const SharingListQuerySchema = Type.Object(PageQuery);

export const SharingListResponseSchema = Type.Object({ status: StatusOk, data: Type.Array(SharingSchema), pagination: PaginationCompactSchema });

export const SharingResponseSchema = Type.Object({ status: StatusOk, ...SharingSchema.properties });

export const SharedDevicesQuerySchema = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: "the sharing's hash" }),
  lang: Type.Optional(Type.String({ maxLength: 8 })),
});

/** A shared device as the link shows it: where it is and how it moves, in the sharer's units and clock; nothing of its record. */
export const SharedDeviceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  online: Type.String(),
  time: Type.String(),
  timestamp: Type.Integer(),
  lat: Type.Number(),
  lng: Type.Number(),
  speed: Type.Number(),
  course: Type.String(),
  altitude: Type.Number(),
  stop_duration: Type.String(),
  tail: Type.Array(Type.Object({ lat: Type.String(), lng: Type.String() })),
  distance_unit_hour: Type.String(),
  unit_of_altitude: Type.String(),
  icon_color: Type.String(),
});

export const SharedDevicesResponseSchema = Type.Object({
  status: StatusOk,
  name: Type.String(),
  expiration_date: Type.String(),
  items: Type.Array(SharedDeviceSchema),
});

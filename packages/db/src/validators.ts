import { Type, type Static } from "@sinclair/typebox";
import { createInsertSchema, createSelectSchema } from "drizzle-typebox";
import { deviceGroups } from "./schema/device-groups.js";
import { devices, iconColors } from "./schema/devices.js";
import { unregisteredDevices } from "./schema/unregistered-devices.js";
import { userDevices } from "./schema/user-devices.js";
import { UserGroup, users } from "./schema/users.js";

/*
 * TypeBox schemas of the rows, derived from the Drizzle tables by drizzle-typebox (which is
 * built against @sinclair/typebox 0.34, the repo's one TypeBox generation). They validate
 * rows in JavaScript form: timestamps are `Type.Date()`, which `Value.Check` understands
 * but JSON Schema does not, so API contracts (strings on the wire) live in
 * @fleet/contracts, not here.
 */

const IconColorSchema = Type.Union(iconColors.map((c) => Type.Literal(c)));
// drizzle-typebox types a jsonb column as any JSON; this is what icon_colors holds.
const IconColorsSchema = Type.Object({
  moving: IconColorSchema,
  stopped: IconColorSchema,
  offline: IconColorSchema,
  engine: IconColorSchema,
});

// Refinements are functions on purpose: drizzle-typebox uses a schema given directly as it
// is, skipping the Optional/Null wrapping it applies to defaulted and nullable columns.
export const UserRowSchema = createSelectSchema(users, {
  // The column's $type narrows it in TypeScript, which drizzle-typebox cannot see.
  groupId: () => Type.Union([Type.Literal(UserGroup.administrator), Type.Literal(UserGroup.user)]),
});
export const DeviceRowSchema = createSelectSchema(devices, { iconColors: () => IconColorsSchema });
export const DeviceInsertSchema = createInsertSchema(devices, {
  // The explicit Optional fixes the static type only: drizzle-typebox 0.3.3 makes a refined
  // defaulted column optional at run time but its types leave it required.
  iconColors: () => Type.Optional(IconColorsSchema),
  // Lengths the database does not enforce but a device needs to be usable.
  name: (s) => Type.String({ ...s, minLength: 1 }),
  imei: (s) => Type.String({ ...s, minLength: 1, maxLength: 64 }),
});
export const UserDeviceRowSchema = createSelectSchema(userDevices);
export const DeviceGroupRowSchema = createSelectSchema(deviceGroups);
export const UnregisteredDeviceRowSchema = createSelectSchema(unregisteredDevices);

export type DeviceInsert = Static<typeof DeviceInsertSchema>;

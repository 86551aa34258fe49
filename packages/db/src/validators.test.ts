import type { Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Device, NewDevice, UnregisteredDevice, User, UserDevice } from "./schema/index.js";
import { DeviceInsertSchema } from "./validators.js";
import type { DeviceRowSchema, UnregisteredDeviceRowSchema, UserDeviceRowSchema, UserRowSchema } from "./validators.js";

// drizzle-typebox must build schemas for the repo's one TypeBox generation (0.34): these
// checks fail to compile (typecheck) or to validate (vitest) if the two drift apart.
describe("drizzle-typebox schemas", () => {
  it("have static types equal to the Drizzle row types", () => {
    expectTypeOf<Static<typeof UserRowSchema>>().toEqualTypeOf<User>();
    expectTypeOf<Static<typeof DeviceRowSchema>>().toEqualTypeOf<Device>();
    expectTypeOf<Static<typeof UserDeviceRowSchema>>().toEqualTypeOf<UserDevice>();
    expectTypeOf<Static<typeof UnregisteredDeviceRowSchema>>().toEqualTypeOf<UnregisteredDevice>();
    expectTypeOf<Static<typeof DeviceInsertSchema>>().toExtend<NewDevice>();
    expectTypeOf<NewDevice>().toExtend<Static<typeof DeviceInsertSchema>>();
  });

  it("validate with TypeBox 0.34's Value", () => {
    const minimal = { name: "van", imei: "123456789012345" };
    expect(Value.Check(DeviceInsertSchema, minimal)).toBe(true);
    expect(Value.Check(DeviceInsertSchema, { ...minimal, imei: "" })).toBe(false);
    expect(Value.Check(DeviceInsertSchema, { ...minimal, deviceIconsType: "square" })).toBe(false);
    expect(Value.Check(DeviceInsertSchema, { ...minimal, iconColors: { moving: "pink" } })).toBe(false);
    expect(Value.Check(DeviceInsertSchema, { ...minimal, tailLength: 2.5 })).toBe(false);
    expect(Value.Check(DeviceInsertSchema, { ...minimal, expirationDate: null })).toBe(true);
  });
});

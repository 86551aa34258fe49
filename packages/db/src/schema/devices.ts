import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, jsonb, numeric, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { users } from "./users.js";

/** Colours a device icon may take (the `add_device` body's `icon_*` options). */
export const iconColors = ["green", "yellow", "red", "blue", "orange", "black"] as const;
export type IconColor = (typeof iconColors)[number];
export interface IconColors {
  moving: IconColor;
  stopped: IconColor;
  offline: IconColor;
  engine: IconColor;
}
/** The spec's defaults for `icon_moving`, `icon_stopped`, `icon_offline`, `icon_engine`. */
export const defaultIconColors: IconColors = { moving: "green", stopped: "red", offline: "red", engine: "yellow" };

export const deviceIconsTypes = ["arrow", "icon", "rotating"] as const;

export const devices = pgTable(
  "devices",
  {
    id: serial("id").primaryKey(),
    // The user who created the device (the vendor's `device.user_id`); access goes through user_devices.
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    // The tracker's `uniqueId`. Unique among non-deleted devices only (index below), so a
    // deleted device's IMEI can be registered again.
    imei: text("imei").notNull(),
    iconId: integer("icon_id").notNull().default(0),
    fuelMeasurementId: integer("fuel_measurement_id").notNull().default(1),
    // A number of points, hence integer (the vendor's devicePost types it so).
    tailLength: integer("tail_length").notNull().default(5),
    tailColor: text("tail_color").notNull().default("#33cc33"),
    // The spec types these as "number"; km/h and litres respectively.
    minMovingSpeed: doublePrecision("min_moving_speed").notNull().default(6),
    minFuelFillings: doublePrecision("min_fuel_fillings").notNull().default(10),
    minFuelThefts: doublePrecision("min_fuel_thefts").notNull().default(10),
    // Money and consumption are exact decimals; read back as JS numbers.
    fuelQuantity: numeric("fuel_quantity", { precision: 12, scale: 2, mode: "number" }).notNull().default(0),
    fuelPrice: numeric("fuel_price", { precision: 12, scale: 2, mode: "number" }).notNull().default(0),
    fuelPerKm: numeric("fuel_per_km", { precision: 12, scale: 4, mode: "number" }).notNull().default(0),
    deviceIconsType: text("device_icons_type", { enum: deviceIconsTypes }).notNull().default("icon"),
    iconColors: jsonb("icon_colors").$type<IconColors>().notNull().default(defaultIconColors),
    simNumber: text("sim_number").notNull().default(""),
    vin: text("vin").notNull().default(""),
    deviceModel: text("device_model").notNull().default(""),
    plateNumber: text("plate_number").notNull().default(""),
    registrationNumber: text("registration_number").notNull().default(""),
    objectOwner: text("object_owner").notNull().default(""),
    additionalNotes: text("additional_notes").notNull().default(""),
    // null = never expires.
    expirationDate: ts("expiration_date"),
    // Where engine hours and engine state come from: `gps` or a sensor, as the vendor's records show.
    engineHours: text("engine_hours").notNull().default("gps"),
    detectEngine: text("detect_engine").notNull().default("gps"),
    snapToRoad: boolean("snap_to_road").notNull().default(false),
    active: boolean("active").notNull().default(true),
    // Soft delete: the tracker's cache must see the deletion (listDevicesChangedSince).
    deleted: boolean("deleted").notNull().default(false),
    // 0 = follow the user's timezone (the spec's default for add_device).
    timezoneId: integer("timezone_id").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
    // The tracker refreshes its device cache by this column, so a trigger (migration 0001)
    // bumps it on every UPDATE of the row and on every change to the row's user_devices.
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("devices_imei_live_unique").on(t.imei).where(sql`${t.deleted} = false`),
    index("devices_updated_at_idx").on(t.updatedAt),
    check("devices_icons_type_valid", sql`${t.deviceIconsType} in ('arrow', 'icon', 'rotating')`),
  ],
);

export type Device = typeof devices.$inferSelect;
export type NewDevice = typeof devices.$inferInsert;

import { sql } from "drizzle-orm";
import type { SensorTypeName } from "@fleet/contracts";
import { boolean, check, doublePrecision, index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";
import { ts } from "./columns.js";
import { devices } from "./devices.js";
import { users } from "./users.js";

/** The spec's sensor types, declared once in @fleet/contracts (the keys of the sensor types map). */
export type SensorType = SensorTypeName;

/** One point of a fuel tank calibration table: raw tag value → quantity. */
export interface CalibrationPoint {
  key: number;
  value: number;
}

/**
 * A device's sensor: how to read one value out of a position's attributes (by `tag_name`).
 * Which fields a type needs is decided in @fleet/sensors and docs/decisions.md; the row
 * keeps every field of the spec's Sensor record, null where the type does not use it.
 */
export const sensors = pgTable(
  "sensors",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type").$type<SensorType>().notNull(),
    tagName: text("tag_name").notNull().default(""),
    unitOfMeasurement: text("unit_of_measurement").notNull().default(""),
    showInPopup: boolean("show_in_popup").notNull().default(false),
    addToHistory: boolean("add_to_history").notNull().default(false),
    onValue: text("on_value"),
    offValue: text("off_value"),
    shownValueBy: text("shown_value_by"),
    minValue: doublePrecision("min_value"),
    maxValue: doublePrecision("max_value"),
    formula: text("formula"),
    odometerValueBy: text("odometer_value_by"),
    // The reading the user set, in odometerValueUnit.
    odometerValue: doublePrecision("odometer_value"),
    odometerValueUnit: text("odometer_value_unit").notNull().default("km"),
    // The device's GPS distance total (km) when odometerValue was set: a virtual odometer
    // reads odometerValue plus the distance driven since.
    odometerBaselineKm: doublePrecision("odometer_baseline_km"),
    fuelTankName: text("fuel_tank_name"),
    fullTank: doublePrecision("full_tank"),
    fullTankValue: doublePrecision("full_tank_value"),
    calibrations: jsonb("calibrations").$type<CalibrationPoint[]>(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("sensors_device_id_idx").on(t.deviceId),
    index("sensors_user_id_idx").on(t.userId),
    check(
      "sensors_type_valid",
      sql`${t.type} in ('acc','battery','door','engine','engine_hours','fuel_tank','fuel_tank_calibration','gsm','harsh_acceleration','harsh_breaking','ignition','odometer','satellites','tachometer','temperature')`,
    ),
  ],
);

export type Sensor = typeof sensors.$inferSelect;
export type NewSensor = typeof sensors.$inferInsert;

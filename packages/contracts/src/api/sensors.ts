import { Type, type Static } from "@sinclair/typebox";
import { FormBoolean, StatusOk } from "./common.js";
import { PageQuery, Paginated } from "./pagination.js";

/** The sensor types map of `add_sensor_data` / `edit_sensor_data`, labels as the vendor's example has them. */
export const SensorTypeLabels = {
  acc: "ACC ON/OFF",
  battery: "Battery",
  door: "Door Open/Close",
  engine: "Engine ON/OFF",
  engine_hours: "Engine hours",
  fuel_tank: "Fuel tank",
  fuel_tank_calibration: "Fuel tank (with calibration)",
  gsm: "GSM",
  // The vendor's label carries this trailing space; clients matching on labels get it as they know it.
  harsh_acceleration: "Harsh acceleration ",
  harsh_breaking: "Harsh breaking",
  ignition: "Ignition ON/OFF",
  odometer: "Odometer",
  satellites: "Satellites",
  tachometer: "Tachometer",
  temperature: "Temperature",
} as const;
export type SensorTypeName = keyof typeof SensorTypeLabels;

const S = Type.String();
const typeNames = Object.keys(SensorTypeLabels) as SensorTypeName[];

export const SensorTypesMapSchema = Type.Object(Object.fromEntries(typeNames.map((t) => [t, S])) as Record<SensorTypeName, typeof S>);
export const SensorTypeSchema = Type.Union(typeNames.map((t) => Type.Literal(t)));

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
/**
 * A number as forms send it (text) or as JSON does; text first, so an empty form field
 * stays "" (absent) rather than being coerced to 0. The route parses it.
 */
const NumberLike = Type.Union([Type.String({ maxLength: 32 }), Type.Number()]);
const Text = (max: number) => Type.String({ maxLength: max });

/**
 * The vendor's sensorPost, plus the record's fuel fields and odometer_value_unit. Which
 * optional fields a type needs is checked by @fleet/sensors after this schema.
 */
const sensorPostFields = {
  sensor_type: Type.Union(SensorTypeSchema.anyOf, { description: "one of the keys of the sensor types map" }),
  sensor_name: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  unit_of_measurement: Text(32),
  show_in_popup: Type.Optional(FormBoolean()),
  add_to_history: Type.Optional(FormBoolean()),
  tag_name: Type.Optional(Text(64)),
  shown_value_by: Type.Optional(Text(32)),
  min_value: Type.Optional(NumberLike),
  max_value: Type.Optional(NumberLike),
  formula: Type.Optional(Text(255)),
  odometer_value_by: Type.Optional(Text(32)),
  odometer_value: Type.Optional(NumberLike),
  odometer_value_unit: Type.Optional(Type.Union([Type.Literal("km"), Type.Literal("mi")])),
  on_value: Type.Optional(Text(64)),
  off_value: Type.Optional(Text(64)),
  fuel_tank_name: Type.Optional(Text(255)),
  full_tank: Type.Optional(NumberLike),
  full_tank_value: Type.Optional(NumberLike),
  calibrations: Type.Optional(
    Type.Array(Type.Object({ key: NumberLike, value: NumberLike }), { maxItems: 500, description: "fuel_tank_calibration: tag value (key) → quantity (value)" }),
  ),
};

export const AddSensorQuerySchema = Type.Object({ device_id: Type.Optional(Id) });
/** `add_sensor`: device_id in the query, the body, or both (then they must agree). */
export const AddSensorBodySchema = Type.Object({ device_id: Type.Optional(Id), ...sensorPostFields });
export type AddSensorBody = Static<typeof AddSensorBodySchema>;
export const AddSensorResponseSchema = Type.Object({ status: StatusOk, id: Type.Integer() });

export const SensorIdQuerySchema = Type.Object({ sensor_id: Id });
export const SensorDeviceQuerySchema = Type.Object({ device_id: Id });
export const GetSensorsQuerySchema = Type.Object({ device_id: Id, ...PageQuery });

/** `edit_sensor`: the whole sensor again; device_id, when sent, must be the sensor's own. */
export const EditSensorBodySchema = Type.Object({ device_id: Type.Optional(Id), ...sensorPostFields });
export type EditSensorBody = Static<typeof EditSensorBodySchema>;

const NullOrString = Type.Union([Type.Null(), S]);

/** The spec's Sensor record. `value` is the current reading as the lists show it. */
export const SensorRecordSchema = Type.Object({
  id: S,
  user_id: S,
  device_id: S,
  name: S,
  type: S,
  tag_name: S,
  add_to_history: S,
  on_value: S,
  off_value: S,
  shown_value_by: NullOrString,
  fuel_tank_name: NullOrString,
  full_tank: NullOrString,
  full_tank_value: NullOrString,
  min_value: NullOrString,
  max_value: NullOrString,
  formula: NullOrString,
  odometer_value_by: NullOrString,
  odometer_value: NullOrString,
  odometer_value_unit: S,
  temperature_max: NullOrString,
  temperature_max_value: NullOrString,
  temperature_min: NullOrString,
  temperature_min_value: NullOrString,
  value: S,
  value_formula: S,
  show_in_popup: S,
  unit_of_measurement: S,
  on_tag_value: NullOrString,
  off_tag_value: NullOrString,
  on_type: NullOrString,
  off_type: NullOrString,
  calibrations: Type.Union([Type.Null(), Type.Array(Type.Object({ key: Type.Number(), value: Type.Number() }))]),
});
export type SensorRecord = Static<typeof SensorRecordSchema>;

/** A `get_sensors` row: the record plus its type's label, as the vendor lists them. */
export const SensorListItemSchema = Type.Object({ ...SensorRecordSchema.properties, type_title: S });

export const AddSensorDataResponseSchema = Type.Object({
  sensors: SensorTypesMapSchema,
  device_id: Type.Integer(),
  route: S,
  status: StatusOk,
});

export const EditSensorDataResponseSchema = Type.Object({
  sensors: SensorTypesMapSchema,
  device_id: Type.Integer(),
  item: SensorRecordSchema,
  route: S,
  status: StatusOk,
});

/** `get_sensors`: the vendor puts the pagination wrapper's fields at the top level, next to status. */
export const GetSensorsResponseSchema = Type.Object({ ...Paginated(SensorListItemSchema).properties, status: StatusOk });

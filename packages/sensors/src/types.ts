import { SensorTypeLabels, type SensorTypeName } from "@fleet/contracts";

/** The 15 sensor types of the spec: the keys of the sensor types map the API serves. */
export const SENSOR_TYPES = Object.keys(SensorTypeLabels) as readonly SensorTypeName[];
export type SensorType = SensorTypeName;

/** Types whose reading is on or off, compared with on_value / off_value. */
export const ON_OFF_TYPES = ["acc", "door", "engine", "harsh_acceleration", "harsh_breaking", "ignition"] as const satisfies readonly SensorType[];
export type OnOffType = (typeof ON_OFF_TYPES)[number];

/** Types whose reading is a number from the tag, through formula and min/max. */
export const NUMERIC_TYPES = ["battery", "fuel_tank", "gsm", "satellites", "tachometer", "temperature"] as const satisfies readonly SensorType[];
export type NumericType = (typeof NUMERIC_TYPES)[number];

/** The sensor types a device's `detect_engine` can name; "gps" means motion. */
export type DetectEngine = "gps" | "ignition" | "acc" | "engine";

export type ShownValueBy = "tag_value" | "min_max_values" | "formula";
export type OdometerValueBy = "connected_odometer" | "virtual_odometer";

export interface CalibrationPoint {
  key: number;
  value: number;
}

/**
 * A sensor as the calculations need it: the record's fields in camelCase, whatever store
 * it came from. Mirrors the `sensors` table of @fleet/db without depending on it, so the
 * tracker and the API compute the same values from the same definitions.
 */
export interface SensorDefinition {
  id: number;
  name: string;
  type: SensorType;
  tagName: string;
  unitOfMeasurement: string;
  showInPopup: boolean;
  onValue: string | null;
  offValue: string | null;
  shownValueBy: string | null;
  minValue: number | null;
  maxValue: number | null;
  formula: string | null;
  odometerValueBy: string | null;
  odometerValue: number | null;
  odometerValueUnit: string;
  odometerBaselineKm: number | null;
  fullTank: number | null;
  fullTankValue: number | null;
  calibrations: CalibrationPoint[] | null;
}

/** What engine detection needs of a sensor; the tracker caches only this much. */
export type OnOffSensor = Pick<SensorDefinition, "type" | "tagName" | "onValue" | "offValue">;

/** What engine detection needs of a device. */
export interface EngineDevice {
  /** The device's `detect_engine`: "gps" or the sensor type that tells. */
  detectEngine: string;
  /** km/h at or above which the device counts as moving. */
  minMovingSpeed: number;
}

/** What a device's readings are computed from: its latest live state, as far as they need it. */
export interface SensorInput {
  attributes: Record<string, string | number | boolean>;
  speedKmh: number;
  /** The tracker's running GPS distance total, km. */
  odometerKm: number;
  /** The tracker's running engine-on time, seconds. */
  engineSeconds: number;
}

export function isSensorType(v: string): v is SensorType {
  return (SENSOR_TYPES as readonly string[]).includes(v);
}

export function isOnOffType(t: SensorType): t is OnOffType {
  return (ON_OFF_TYPES as readonly string[]).includes(t);
}

export function isNumericType(t: SensorType): t is NumericType {
  return (NUMERIC_TYPES as readonly string[]).includes(t);
}

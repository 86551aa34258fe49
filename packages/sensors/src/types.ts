/**
 * A sensor as the calculations need it: the record's fields in camelCase, whatever store
 * it came from. Mirrors the `sensors` table of @fleet/db without depending on it, so the
 * tracker and the API compute the same values from the same definitions.
 */
export interface SensorDefinition {
  id: number;
  name: string;
  type:
    | "acc"
    | "battery"
    | "door"
    | "engine"
    | "engine_hours"
    | "fuel_tank"
    | "fuel_tank_calibration"
    | "gsm"
    | "harsh_acceleration"
    | "harsh_breaking"
    | "ignition"
    | "odometer"
    | "satellites"
    | "tachometer"
    | "temperature";
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
  calibrations: { key: number; value: number }[] | null;
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

import { applyFormula } from "./formula.js";
import { isNumericType, isOnOffType, type CalibrationPoint, type OnOffSensor, type SensorDefinition, type SensorInput } from "./types.js";
import { sameValue, tagValue, readingNumber, type RawValue } from "./values.js";

/** A sensor's current reading: on/off, a number in the sensor's unit, or null when unknown. */
export interface SensorReading {
  value: boolean | number | null;
  /** What the lists show: `12.5 V`, `On`, `-` when unknown. */
  text: string;
}

/** km in a mile (service-state.ts has its own; the two modules stay independent). */
const KM_PER_MILE = 1.609344;
const UNKNOWN: SensorReading = { value: null, text: "-" };

/** Numbers as the lists show them: at most two decimals, no trailing zeros. */
export function formatNumber(n: number): string {
  const r = Math.round(n * 100) / 100;
  return String(Object.is(r, -0) ? 0 : r);
}

function withUnit(n: number, unit: string): SensorReading {
  const u = unit.trim();
  return { value: n, text: u === "" ? formatNumber(n) : `${formatNumber(n)} ${u}` };
}

/**
 * On (true), off (false) or unknown (null) for a raw value. on_value wins when both
 * match. A harsh acceleration/braking sensor without off_value is off for anything but
 * its on_value (those tags usually report only the event); the others need an explicit
 * off_value, so an unexpected value reads as unknown rather than as a false "Off".
 */
export function onOffValue(sensor: OnOffSensor, raw: RawValue | undefined): boolean | null {
  if (raw === undefined) return null;
  if (sensor.onValue !== null && sameValue(raw, sensor.onValue)) return true;
  if (sensor.offValue !== null && sameValue(raw, sensor.offValue)) return false;
  const offImplied = (sensor.type === "harsh_acceleration" || sensor.type === "harsh_breaking") && (sensor.offValue ?? "").trim() === "";
  return offImplied ? false : null;
}

/**
 * The quantity for `x` in a calibration table, interpolated linearly between the two
 * nearest keys. Outside the table the nearest end's quantity holds: a tank cannot hold
 * less than empty or more than full, and extending the end segments would invent that.
 */
export function interpolate(table: readonly CalibrationPoint[], x: number): number | null {
  const points = table.filter((p) => Number.isFinite(p.key) && Number.isFinite(p.value)).sort((a, b) => a.key - b.key);
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return null;
  if (x <= first.key) return first.value;
  if (x >= last.key) return last.value;
  for (let i = 1; i < points.length; i++) {
    const hi = points[i]!;
    if (x > hi.key) continue;
    const lo = points[i - 1]!;
    // Equal keys (kept out by validation) would divide by zero; the upper point's value stands.
    return hi.key === lo.key ? hi.value : lo.value + ((x - lo.key) * (hi.value - lo.value)) / (hi.key - lo.key);
  }
  return last.value;
}

/**
 * A numeric sensor: the tag's number, through the formula (unless shown_value_by is
 * `tag_value`), then a fuel tank's full_tank/full_tank_value scale, then, with
 * `min_max_values`, its place between min and max as a percentage clamped to 0–100.
 */
function numericValue(def: SensorDefinition, raw: RawValue | undefined): number | null {
  const n = readingNumber(raw);
  if (n === null) return null;
  let x = def.shownValueBy === "tag_value" ? n : applyFormula(def.formula, n);
  if (x === null) return null;
  if (def.type === "fuel_tank" && def.fullTank !== null && def.fullTankValue) x = (x / def.fullTankValue) * def.fullTank;
  if (def.shownValueBy === "min_max_values" && def.minValue !== null && def.maxValue !== null && def.maxValue !== def.minValue) {
    x = Math.min(100, Math.max(0, ((x - def.minValue) / (def.maxValue - def.minValue)) * 100));
  }
  return x;
}

/** The tag's number through the formula. */
function formulaValue(def: SensorDefinition, raw: RawValue | undefined): number | null {
  const n = readingNumber(raw);
  return n === null ? null : applyFormula(def.formula, n);
}

/**
 * A virtual odometer: the reading the user set plus the GPS distance driven since
 * (never negative: a live store that lost its totals restarts them at zero). A row
 * without a baseline counts from the tracker's first fix.
 */
function virtualOdometer(def: SensorDefinition, input: SensorInput): number {
  const drivenKm = Math.max(0, input.odometerKm - (def.odometerBaselineKm ?? 0));
  return (def.odometerValue ?? 0) + (def.odometerValueUnit === "mi" ? drivenKm / KM_PER_MILE : drivenKm);
}

function odometerValue(def: SensorDefinition, input: SensorInput): number | null {
  if (def.odometerValueBy === "virtual_odometer") return virtualOdometer(def, input);
  return formulaValue(def, tagValue(input.attributes, def.tagName));
}

/** A numeric sensor's number, or null. */
function numberOf(def: SensorDefinition, input: SensorInput): number | null {
  if (isNumericType(def.type)) return numericValue(def, tagValue(input.attributes, def.tagName));
  if (def.type === "fuel_tank_calibration") {
    const x = formulaValue(def, tagValue(input.attributes, def.tagName));
    return x === null ? null : interpolate(def.calibrations ?? [], x);
  }
  if (def.type === "odometer") return odometerValue(def, input);
  return formulaValue(def, tagValue(input.attributes, def.tagName));
}

/** The unit a numeric sensor's number is shown in. */
function unitOf(def: SensorDefinition): string {
  if (isNumericType(def.type) || def.type === "fuel_tank_calibration") return def.unitOfMeasurement;
  if (def.type === "odometer") return def.odometerValueUnit;
  return def.unitOfMeasurement.trim() === "" ? "h" : def.unitOfMeasurement;
}

/**
 * A sensor's value alone (on/off, a number in the sensor's unit, or null when unknown), for
 * callers that read it at every position and show no text: the rules service.
 */
export function sensorValue(def: SensorDefinition, input: SensorInput | undefined): boolean | number | null {
  if (!input) return null;
  if (isOnOffType(def.type)) return onOffValue(def, tagValue(input.attributes, def.tagName));
  return numberOf(def, input);
}

/** A sensor's reading from the device's latest state; unknown when it never reported. */
export function readSensor(def: SensorDefinition, input: SensorInput | undefined): SensorReading {
  const value = sensorValue(def, input);
  if (value === null) return UNKNOWN;
  if (typeof value === "boolean") return { value, text: value ? "On" : "Off" };
  return withUnit(value, unitOf(def));
}

/** A reading of an odometer sensor, in km whatever unit it shows. */
export function odometerReadingKm(def: SensorDefinition, reading: SensorReading): number | null {
  if (typeof reading.value !== "number") return null;
  return def.odometerValueUnit === "mi" ? reading.value * KM_PER_MILE : reading.value;
}

/**
 * A fuel sensor's tank volume in its own unit, for a share of the tank: full_tank, or for a
 * calibration table its fullest value (the table maps the probe to the tank's contents, so
 * its top is a full tank); null when neither says, or the readings are percent already.
 */
export function tankVolume(def: Pick<SensorDefinition, "type" | "fullTank" | "calibrations" | "unitOfMeasurement">): number | null {
  if (def.fullTank) return def.fullTank;
  if (def.type !== "fuel_tank_calibration" || !def.calibrations?.length || def.unitOfMeasurement.trim() === "%") return null;
  const top = Math.max(...def.calibrations.map((p) => p.value));
  return top > 0 ? top : null;
}

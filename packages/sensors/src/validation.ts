import { parseFormula } from "./formula.js";
import { isSensorType, type CalibrationPoint, type SensorDefinition, type SensorType } from "./types.js";
import { sameValue, toNumber } from "./values.js";

type NumberLike = string | number;

/** A sensor as a client sends it (the vendor's sensorPost plus the record's fuel fields), before any check. */
export interface SensorForm {
  sensor_type: string;
  sensor_name: string;
  unit_of_measurement: string;
  show_in_popup?: boolean;
  add_to_history?: boolean;
  tag_name?: string | null;
  shown_value_by?: string | null;
  min_value?: NumberLike | null;
  max_value?: NumberLike | null;
  formula?: string | null;
  odometer_value_by?: string | null;
  odometer_value?: NumberLike | null;
  odometer_value_unit?: string | null;
  on_value?: string | null;
  off_value?: string | null;
  fuel_tank_name?: string | null;
  full_tank?: NumberLike | null;
  full_tank_value?: NumberLike | null;
  calibrations?: readonly { key?: NumberLike | null; value?: NumberLike | null }[] | null;
}

/**
 * A checked sensor, as a row stores it: fields its type does not use are null. A definition
 * without the row's id and the tracker's odometer baseline, plus what only the form sets.
 * `odometerValue` is null when the form did not set it: the caller decides whether the
 * stored reading stays.
 */
export interface SensorFields extends Omit<SensorDefinition, "id" | "odometerBaselineKm"> {
  addToHistory: boolean;
  fuelTankName: string | null;
}

export type SensorCheck = { ok: true; fields: SensorFields } | { ok: false; errors: Record<string, string> };

type Field =
  | "tag_name"
  | "on_value"
  | "off_value"
  | "formula"
  | "shown_value_by"
  | "min_value"
  | "max_value"
  | "fuel_tank_name"
  | "full_tank"
  | "full_tank_value"
  | "calibrations"
  | "odometer_value_by"
  | "odometer_value"
  | "odometer_value_unit";

interface TypeRule {
  required: readonly Field[];
  /** Optional fields the type reads; any other field is ignored and stored as null. */
  optional: readonly Field[];
}

const ON_OFF: TypeRule = { required: ["tag_name", "on_value", "off_value"], optional: [] };
const HARSH: TypeRule = { required: ["tag_name", "on_value"], optional: ["off_value"] };
const NUMERIC: TypeRule = { required: ["tag_name"], optional: ["formula", "shown_value_by", "min_value", "max_value"] };

/**
 * Which fields each type needs (the spec leaves it open; docs in the decisions log).
 * Conditional ones are checked after: min/max with `min_max_values`, a formula with
 * `formula`, tag_name for a connected odometer, full_tank with full_tank_value.
 */
export const SENSOR_TYPE_RULES: Readonly<Record<SensorType, TypeRule>> = {
  acc: ON_OFF,
  door: ON_OFF,
  engine: ON_OFF,
  ignition: ON_OFF,
  harsh_acceleration: HARSH,
  harsh_breaking: HARSH,
  battery: NUMERIC,
  gsm: NUMERIC,
  satellites: NUMERIC,
  tachometer: NUMERIC,
  temperature: NUMERIC,
  fuel_tank: { required: ["tag_name"], optional: [...NUMERIC.optional, "fuel_tank_name", "full_tank", "full_tank_value"] },
  fuel_tank_calibration: { required: ["tag_name", "calibrations"], optional: ["formula", "fuel_tank_name"] },
  odometer: { required: ["odometer_value_by"], optional: ["tag_name", "formula", "odometer_value", "odometer_value_unit"] },
  engine_hours: { required: ["tag_name"], optional: ["formula"] },
};

export const SHOWN_VALUE_BY = ["tag_value", "min_max_values", "formula"] as const;
export const ODOMETER_VALUE_BY = ["connected_odometer", "virtual_odometer"] as const;
export const ODOMETER_UNITS = ["km", "mi"] as const;
/** Most calibration points a table may have. */
export const MAX_CALIBRATIONS = 500;

const label = (f: string) => f.replaceAll("_", " ");
const required = (f: string) => `The ${label(f)} field is required.`;

/** Trimmed text, null when absent or blank. */
function text(v: string | null | undefined): string | null {
  const s = v?.trim();
  return s ? s : null;
}

function blank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === "string" && v.trim() === "") || (Array.isArray(v) && v.length === 0);
}

/** Collects the fields one type uses, recording an error per bad field. */
class Checker {
  readonly errors: Record<string, string> = {};
  constructor(
    private readonly form: SensorForm,
    private readonly uses: ReadonlySet<Field>,
  ) {}

  fail(field: string, message: string): null {
    this.errors[field] ??= message;
    return null;
  }

  text(f: Field & keyof SensorForm): string | null {
    return this.uses.has(f) ? text(this.form[f] as string | null | undefined) : null;
  }

  number(f: Field & keyof SensorForm, opts: { positive?: boolean; nonNegative?: boolean } = {}): number | null {
    const v = this.form[f] as NumberLike | null | undefined;
    if (!this.uses.has(f) || blank(v)) return null;
    const n = toNumber(v as NumberLike);
    if (n === null || Math.abs(n) > 1e12) return this.fail(f, `The ${label(f)} must be a number.`);
    if (opts.positive && n <= 0) return this.fail(f, `The ${label(f)} must be greater than 0.`);
    if (opts.nonNegative && n < 0) return this.fail(f, `The ${label(f)} must be at least 0.`);
    return n;
  }

  oneOf<T extends string>(f: Field & keyof SensorForm, allowed: readonly T[]): T | null {
    const v = this.text(f);
    if (v === null) return null;
    return (allowed as readonly string[]).includes(v) ? (v as T) : this.fail(f, `The selected ${label(f)} is invalid.`);
  }

  formula(): string | null {
    const f = this.text("formula");
    if (f === null) return null;
    const parsed = parseFormula(f);
    return parsed.ok ? f : this.fail("formula", `The formula is invalid: ${parsed.error} Use numbers, [value], + - * / and parentheses.`);
  }

  calibrations(): CalibrationPoint[] | null {
    const rows = this.uses.has("calibrations") ? this.form.calibrations : undefined;
    if (!rows || rows.length === 0) return null;
    if (rows.length < 2) return this.fail("calibrations", "The calibrations must have at least 2 points.");
    if (rows.length > MAX_CALIBRATIONS) return this.fail("calibrations", `The calibrations may not have more than ${MAX_CALIBRATIONS} points.`);
    const out: CalibrationPoint[] = [];
    const seen = new Set<number>();
    rows.forEach((row, i) => {
      const key = blank(row.key) ? null : toNumber(row.key as NumberLike);
      const value = blank(row.value) ? null : toNumber(row.value as NumberLike);
      if (key === null) return this.fail(`calibrations.${i}.key`, "Each calibration key must be a number.");
      if (value === null) return this.fail(`calibrations.${i}.value`, "Each calibration value must be a number.");
      if (seen.has(key)) return this.fail(`calibrations.${i}.key`, "The calibration keys must be distinct.");
      seen.add(key);
      out.push({ key, value });
    });
    return out.sort((a, b) => a.key - b.key);
  }
}

function checkConditions(c: Checker, f: SensorFields): void {
  if (f.shownValueBy === "min_max_values") {
    if (f.minValue === null) c.fail("min_value", required("min_value"));
    if (f.maxValue === null) c.fail("max_value", required("max_value"));
    if (f.minValue !== null && f.maxValue !== null && f.minValue >= f.maxValue) c.fail("max_value", "The max value must be greater than the min value.");
  }
  if (f.shownValueBy === "formula" && f.formula === null) c.fail("formula", required("formula"));
  if ((f.fullTank === null) !== (f.fullTankValue === null)) c.fail(f.fullTank === null ? "full_tank" : "full_tank_value", "The full tank and full tank value go together.");
  // As readings are matched (sameValue): `1` and `1.0`, or `1` and `true`, name the same readings, and on_value would always win.
  if (f.onValue !== null && f.offValue !== null && sameValue(f.onValue, f.offValue)) c.fail("off_value", "The off value must differ from the on value.");
  if (f.odometerValueBy === "connected_odometer" && f.tagName === "") c.fail("tag_name", required("tag_name"));
}

/**
 * Checks a sensor form against its type's rules and returns the row's fields, or errors
 * by field (snake_case, as the client named them; calibration rows as `calibrations.N.key`).
 */
export function checkSensorForm(form: SensorForm): SensorCheck {
  if (!isSensorType(form.sensor_type)) return { ok: false, errors: { sensor_type: "The selected sensor type is invalid." } };
  const type = form.sensor_type;
  const rule = SENSOR_TYPE_RULES[type];
  const c = new Checker(form, new Set([...rule.required, ...rule.optional]));
  const name = text(form.sensor_name);
  if (name === null) c.fail("sensor_name", required("sensor_name"));
  for (const f of rule.required) if (blank(form[f])) c.fail(f, required(f));

  const odometerValueBy = c.oneOf("odometer_value_by", ODOMETER_VALUE_BY);
  const virtual = odometerValueBy === "virtual_odometer";
  const fields: SensorFields = {
    name: name ?? "",
    type,
    // A virtual odometer reads no tag.
    tagName: virtual ? "" : (c.text("tag_name") ?? ""),
    unitOfMeasurement: form.unit_of_measurement.trim(),
    showInPopup: form.show_in_popup ?? false,
    addToHistory: form.add_to_history ?? false,
    onValue: c.text("on_value"),
    offValue: c.text("off_value"),
    shownValueBy: c.oneOf("shown_value_by", SHOWN_VALUE_BY),
    minValue: c.number("min_value"),
    maxValue: c.number("max_value"),
    formula: virtual ? null : c.formula(),
    odometerValueBy,
    odometerValue: virtual ? c.number("odometer_value", { nonNegative: true }) : null,
    odometerValueUnit: c.oneOf("odometer_value_unit", ODOMETER_UNITS) ?? "km",
    fuelTankName: c.text("fuel_tank_name"),
    fullTank: c.number("full_tank", { positive: true }),
    fullTankValue: c.number("full_tank_value", { positive: true }),
    calibrations: c.calibrations(),
  };
  checkConditions(c, fields);
  return Object.keys(c.errors).length > 0 ? { ok: false, errors: c.errors } : { ok: true, fields };
}

import { describe, expect, it } from "vitest";
import { SENSOR_TYPES, type SensorType } from "./types.js";
import { SENSOR_TYPE_RULES, checkSensorForm, type SensorForm } from "./validation.js";

const base = (sensor_type: string, rest: Partial<SensorForm> = {}): SensorForm => ({ sensor_type, sensor_name: "S", unit_of_measurement: "", ...rest });

/** A complete valid form per type. */
const VALID: Record<SensorType, Partial<SensorForm>> = {
  acc: { tag_name: "io1", on_value: "1", off_value: "0" },
  door: { tag_name: "door", on_value: "open", off_value: "closed" },
  engine: { tag_name: "io2", on_value: "1", off_value: "0" },
  ignition: { tag_name: "ignition", on_value: "true", off_value: "false" },
  harsh_acceleration: { tag_name: "alarm", on_value: "hardAcceleration" },
  harsh_breaking: { tag_name: "alarm", on_value: "hardBraking" },
  battery: { tag_name: "power", formula: "[value]/1000" },
  gsm: { tag_name: "rssi", shown_value_by: "min_max_values", min_value: "0", max_value: "31" },
  satellites: { tag_name: "sat" },
  tachometer: { tag_name: "rpm" },
  temperature: { tag_name: "temp1" },
  fuel_tank: { tag_name: "fuel", full_tank: "80", full_tank_value: 4000 },
  fuel_tank_calibration: { tag_name: "adc1", calibrations: [{ key: "0", value: "0" }, { key: 100, value: 50 }] },
  odometer: { odometer_value_by: "virtual_odometer", odometer_value: "1000" },
  engine_hours: { tag_name: "hours" },
};

describe("checkSensorForm", () => {
  it.each(SENSOR_TYPES)("accepts a complete %s", (type) => {
    const out = checkSensorForm(base(type, VALID[type]));
    expect(out.ok, JSON.stringify(out)).toBe(true);
  });

  it.each(SENSOR_TYPES)("refuses a %s without each of its required fields", (type) => {
    for (const field of SENSOR_TYPE_RULES[type].required) {
      const out = checkSensorForm(base(type, { ...VALID[type], [field]: "" }));
      expect(out.ok ? {} : out.errors, `${type} without ${field}`).toHaveProperty(field);
    }
  });

  it("stores the fields a type does not use as null", () => {
    const out = checkSensorForm(base("ignition", { ...VALID.ignition, formula: "[value]*2", min_value: "x", calibrations: [{ key: 1 }] }));
    expect(out).toMatchObject({ ok: true, fields: { formula: null, minValue: null, calibrations: null, tagName: "ignition", onValue: "true" } });
  });

  it("refuses an unknown type and a blank name", () => {
    expect(checkSensorForm(base("flux_capacitor"))).toEqual({ ok: false, errors: { sensor_type: "The selected sensor type is invalid." } });
    expect(checkSensorForm({ ...base("satellites", VALID.satellites), sensor_name: "  " })).toMatchObject({ ok: false, errors: { sensor_name: expect.any(String) } });
  });

  it("refuses a formula that does not parse", () => {
    const out = checkSensorForm(base("battery", { tag_name: "power", formula: "process.exit()" }));
    expect(out.ok ? {} : out.errors).toHaveProperty("formula");
  });

  it("needs min and max, min below max, for min_max_values, and a formula for formula", () => {
    expect(checkSensorForm(base("gsm", { tag_name: "rssi", shown_value_by: "min_max_values" }))).toMatchObject({ ok: false, errors: { min_value: expect.any(String), max_value: expect.any(String) } });
    expect(checkSensorForm(base("gsm", { tag_name: "rssi", shown_value_by: "min_max_values", min_value: 5, max_value: "5" }))).toMatchObject({ ok: false, errors: { max_value: expect.any(String) } });
    expect(checkSensorForm(base("gsm", { tag_name: "rssi", shown_value_by: "formula" }))).toMatchObject({ ok: false, errors: { formula: expect.any(String) } });
    expect(checkSensorForm(base("gsm", { tag_name: "rssi", shown_value_by: "bogus" }))).toMatchObject({ ok: false, errors: { shown_value_by: expect.any(String) } });
    expect(checkSensorForm(base("gsm", { tag_name: "rssi", min_value: "12abc" }))).toMatchObject({ ok: false, errors: { min_value: expect.any(String) } });
  });

  it("needs at least two calibration points with distinct numeric keys, and sorts them", () => {
    const cal = (calibrations: SensorForm["calibrations"]) => checkSensorForm(base("fuel_tank_calibration", { tag_name: "adc1", calibrations }));
    expect(cal([{ key: 1, value: 1 }])).toMatchObject({ ok: false, errors: { calibrations: expect.any(String) } });
    expect(cal([{ key: 1, value: 1 }, { key: "1.0", value: 2 }])).toMatchObject({ ok: false, errors: { "calibrations.1.key": expect.any(String) } });
    expect(cal([{ key: "x", value: 1 }, { key: 2, value: 2 }])).toMatchObject({ ok: false, errors: { "calibrations.0.key": expect.any(String) } });
    expect(cal([{ key: 1, value: "" }, { key: 2, value: 2 }])).toMatchObject({ ok: false, errors: { "calibrations.0.value": expect.any(String) } });
    expect(cal([{ key: 9, value: 90 }, { key: "3", value: "30" }])).toMatchObject({ ok: true, fields: { calibrations: [{ key: 3, value: 30 }, { key: 9, value: 90 }] } });
  });

  it("needs a tag for a connected odometer but none for a virtual one", () => {
    expect(checkSensorForm(base("odometer", { odometer_value_by: "connected_odometer" }))).toMatchObject({ ok: false, errors: { tag_name: expect.any(String) } });
    expect(checkSensorForm(base("odometer", { odometer_value_by: "virtual_odometer", tag_name: "odo", formula: "[value]*2" }))).toMatchObject({ ok: true, fields: { tagName: "", formula: null, odometerValue: null } });
    expect(checkSensorForm(base("odometer", { odometer_value_by: "virtual_odometer", odometer_value: "-5" }))).toMatchObject({ ok: false, errors: { odometer_value: expect.any(String) } });
    expect(checkSensorForm(base("odometer", { odometer_value_by: "gps" }))).toMatchObject({ ok: false, errors: { odometer_value_by: expect.any(String) } });
    expect(checkSensorForm(base("odometer", { odometer_value_by: "virtual_odometer", odometer_value_unit: "furlong" }))).toMatchObject({ ok: false, errors: { odometer_value_unit: expect.any(String) } });
  });

  it("needs full_tank and full_tank_value together, and on and off values that differ", () => {
    expect(checkSensorForm(base("fuel_tank", { tag_name: "fuel", full_tank: 80 }))).toMatchObject({ ok: false, errors: { full_tank_value: expect.any(String) } });
    expect(checkSensorForm(base("fuel_tank", { tag_name: "fuel", full_tank: 80, full_tank_value: 0 }))).toMatchObject({ ok: false, errors: { full_tank_value: expect.any(String) } });
    expect(checkSensorForm(base("door", { tag_name: "d", on_value: "1", off_value: " 1" }))).toMatchObject({ ok: false, errors: { off_value: expect.any(String) } });
    // Readings match them numerically and as yes/no: these pairs name the same readings.
    for (const [on, off] of [["1", "1.0"], ["Open", "open"], ["true", "1"]]) {
      expect(checkSensorForm(base("door", { tag_name: "d", on_value: on, off_value: off })), `${on}/${off}`).toMatchObject({ ok: false, errors: { off_value: "The off value must differ from the on value." } });
    }
    expect(checkSensorForm(base("door", { tag_name: "d", on_value: "1", off_value: "10" })).ok).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { interpolate, readSensor } from "./readings.js";
import { sensorDef, sensorIn } from "./test-helpers.js";
import { ON_OFF_TYPES } from "./types.js";

const text = (...args: Parameters<typeof readSensor>) => readSensor(...args).text;

describe("readSensor", () => {
  it("is unknown for a device that never reported, or a tag the position lacks", () => {
    const battery = sensorDef({ type: "battery", tagName: "power", unitOfMeasurement: "V" });
    expect(readSensor(battery, undefined)).toEqual({ value: null, text: "-" });
    expect(readSensor(battery, sensorIn({ other: 1 }))).toEqual({ value: null, text: "-" });
    expect(readSensor(battery, sensorIn({ power: "n/a" }))).toEqual({ value: null, text: "-" });
  });

  it("reads a text value that carries its unit after the number, as the vendor does", () => {
    const battery = sensorDef({ type: "battery", tagName: "power", unitOfMeasurement: "V" });
    expect(text(battery, sensorIn({ power: "12.5V" }))).toBe(text(battery, sensorIn({ power: 12.5 })));
    expect(readSensor(battery, sensorIn({ power: "12.5V" })).value).toBe(12.5);
    const temperature = sensorDef({ type: "temperature", tagName: "temp1" });
    for (const [raw, value] of [["23.4°C", 23.4], ["-4 °C", -4], ["85 %", 85], ["1500rpm", 1500], ["12 mV", 12]] as const) expect(readSensor(temperature, sensorIn({ temp1: raw })).value, raw).toBe(value);
    // Not a unit: an id or hex text is no reading.
    for (const raw of ["12AB", "0x1F", "12 volts please", "V12"]) expect(readSensor(temperature, sensorIn({ temp1: raw })).value, raw).toBeNull();
  });

  describe("on/off types", () => {
    it.each(ON_OFF_TYPES)("%s reads On/Off by on_value and off_value", (type) => {
      const s = sensorDef({ type, tagName: "io1", onValue: "1", offValue: "0" });
      expect(readSensor(s, sensorIn({ io1: 1 }))).toEqual({ value: true, text: "On" });
      expect(readSensor(s, sensorIn({ io1: "0" }))).toEqual({ value: false, text: "Off" });
      expect(readSensor(s, sensorIn({ io1: true }))).toEqual({ value: true, text: "On" });
    });

    it("reads a value that is neither as unknown", () => {
      const door = sensorDef({ type: "door", tagName: "door", onValue: "open", offValue: "closed" });
      expect(text(door, sensorIn({ door: "OPEN" }))).toBe("On");
      expect(text(door, sensorIn({ door: "ajar" }))).toBe("-");
    });

    it("reads a harsh event sensor without off_value as off for any other value", () => {
      const harsh = sensorDef({ type: "harsh_breaking", tagName: "alarm", onValue: "hardBraking" });
      expect(text(harsh, sensorIn({ alarm: "hardbraking" }))).toBe("On");
      expect(text(harsh, sensorIn({ alarm: "overspeed" }))).toBe("Off");
      expect(text(harsh, sensorIn({}))).toBe("-");
    });
  });

  describe("numeric types", () => {
    it.each(["battery", "gsm", "satellites", "tachometer", "temperature", "fuel_tank"] as const)("%s shows the tag's number with its unit", (type) => {
      const s = sensorDef({ type, tagName: "v", unitOfMeasurement: "u" });
      expect(readSensor(s, sensorIn({ v: "12.5" }))).toEqual({ value: 12.5, text: "12.5 u" });
    });

    it("applies the formula, and rounds what it shows to two decimals", () => {
      const temp = sensorDef({ type: "temperature", tagName: "temp1", unitOfMeasurement: "°C", formula: "[value]*0.1-40" });
      expect(readSensor(temp, sensorIn({ temp1: 612 }))).toEqual({ value: expect.closeTo(21.2, 9), text: "21.2 °C" });
      const rpm = sensorDef({ type: "tachometer", tagName: "rpm", formula: "[value]/3" });
      expect(text(rpm, sensorIn({ rpm: 1000 }))).toBe("333.33");
    });

    it("ignores the formula when shown by tag value", () => {
      const s = sensorDef({ type: "battery", tagName: "power", formula: "[value]*2", shownValueBy: "tag_value", unitOfMeasurement: "V" });
      expect(text(s, sensorIn({ power: 12 }))).toBe("12 V");
    });

    it("shows min/max values as the percentage of the range, clamped", () => {
      const gsm = sensorDef({ type: "gsm", tagName: "rssi", shownValueBy: "min_max_values", minValue: 0, maxValue: 31, unitOfMeasurement: "%" });
      expect(text(gsm, sensorIn({ rssi: 31 }))).toBe("100 %");
      expect(text(gsm, sensorIn({ rssi: 15.5 }))).toBe("50 %");
      expect(text(gsm, sensorIn({ rssi: 99 }))).toBe("100 %");
      expect(text(gsm, sensorIn({ rssi: -5 }))).toBe("0 %");
    });

    it("scales a fuel tank by full_tank over full_tank_value", () => {
      const tank = sensorDef({ type: "fuel_tank", tagName: "fuel", fullTank: 80, fullTankValue: 4000, unitOfMeasurement: "l" });
      expect(text(tank, sensorIn({ fuel: 1000 }))).toBe("20 l");
      const withFormula = { ...tank, formula: "[value]*2" };
      expect(text(withFormula, sensorIn({ fuel: 1000 }))).toBe("40 l");
    });

    it("is unknown when the formula divides by zero", () => {
      const s = sensorDef({ type: "battery", tagName: "v", formula: "1/[value]" });
      expect(text(s, sensorIn({ v: 0 }))).toBe("-");
    });
  });

  describe("fuel_tank_calibration", () => {
    const table = [
      { key: 100, value: 0 },
      { key: 500, value: 40 },
      { key: 300, value: 25 },
    ];
    it("interpolates linearly over the table, sorted by key", () => {
      const s = sensorDef({ type: "fuel_tank_calibration", tagName: "adc1", calibrations: table, unitOfMeasurement: "l" });
      expect(text(s, sensorIn({ adc1: 200 }))).toBe("12.5 l");
      expect(text(s, sensorIn({ adc1: 300 }))).toBe("25 l");
      expect(text(s, sensorIn({ adc1: 400 }))).toBe("32.5 l");
    });

    it("holds the end values outside the table", () => {
      expect(interpolate(table, 50)).toBe(0);
      expect(interpolate(table, 900)).toBe(40);
      expect(interpolate([], 1)).toBeNull();
      expect(interpolate([{ key: 1, value: 7 }], 5)).toBe(7);
    });

    it("applies the formula before the table", () => {
      const s = sensorDef({ type: "fuel_tank_calibration", tagName: "adc1", calibrations: table, formula: "[value]*1000", unitOfMeasurement: "l" });
      expect(text(s, sensorIn({ adc1: "0.2" }))).toBe("12.5 l");
    });
  });

  describe("odometer", () => {
    it("reads a connected odometer from its tag through the formula", () => {
      const s = sensorDef({ type: "odometer", odometerValueBy: "connected_odometer", tagName: "odometer", formula: "[value]/1000" });
      expect(readSensor(s, sensorIn({ odometer: 123456 }))).toEqual({ value: 123.456, text: "123.46 km" });
    });

    it("counts a virtual odometer from the value set plus the GPS distance driven since", () => {
      const s = sensorDef({ type: "odometer", odometerValueBy: "virtual_odometer", odometerValue: 1000, odometerBaselineKm: 250 });
      expect(text(s, sensorIn({}, { odometerKm: 300 }))).toBe("1050 km");
      // A live store that restarted its totals: never below the value set.
      expect(text(s, sensorIn({}, { odometerKm: 10 }))).toBe("1000 km");
    });

    it("counts a virtual odometer in miles in miles", () => {
      const s = sensorDef({ type: "odometer", odometerValueBy: "virtual_odometer", odometerValue: 100, odometerBaselineKm: 0, odometerValueUnit: "mi" });
      expect(text(s, sensorIn({}, { odometerKm: 16.09344 }))).toBe("110 mi");
    });
  });

  it("reads engine hours from the tag, in hours", () => {
    const s = sensorDef({ type: "engine_hours", tagName: "hours", formula: "[value]/3600000" });
    expect(text(s, sensorIn({ hours: 36_000_000 }))).toBe("10 h");
    expect(text({ ...s, unitOfMeasurement: "hrs" }, sensorIn({ hours: 36_000_000 }))).toBe("10 hrs");
  });
});

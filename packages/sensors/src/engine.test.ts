import { describe, expect, it } from "vitest";
import { deviceEngineHours, deviceOdometerKm } from "./counters.js";
import { engineOn, engineSensorOf } from "./engine.js";
import { sensorDef, sensorIn } from "./test-helpers.js";

const ignition = sensorDef({ type: "ignition", tagName: "ignition", onValue: "true", offValue: "false" });
const acc = sensorDef({ id: 2, type: "acc", tagName: "io1", onValue: "1", offValue: "0" });

describe("engineOn", () => {
  const device = (detectEngine: string) => ({ detectEngine, minMovingSpeed: 6 });

  it("goes by motion for gps", () => {
    expect(engineOn(device("gps"), [ignition], sensorIn({ ignition: true }, { speedKmh: 0 }))).toBe(false);
    expect(engineOn(device("gps"), [ignition], sensorIn({ ignition: false }, { speedKmh: 6 }))).toBe(true);
  });

  it("goes by the first sensor of the detect_engine type", () => {
    expect(engineOn(device("ignition"), [acc, ignition], sensorIn({ ignition: true, io1: 0 }))).toBe(true);
    expect(engineOn(device("acc"), [acc, ignition], sensorIn({ ignition: true, io1: 0 }, { speedKmh: 50 }))).toBe(false);
    const second = { ...acc, id: 3, tagName: "io2" };
    expect(engineOn(device("acc"), [acc, second], sensorIn({ io1: 1, io2: 0 }))).toBe(true);
  });

  it("falls back to motion without such a sensor or without its value", () => {
    expect(engineOn(device("engine"), [ignition], sensorIn({ ignition: true }, { speedKmh: 10 }))).toBe(true);
    expect(engineOn(device("ignition"), [ignition], sensorIn({}, { speedKmh: 2 }))).toBe(false);
    expect(engineOn(device("ignition"), [ignition], sensorIn({ ignition: "unknown" }, { speedKmh: 20 }))).toBe(true);
  });

  it("keeps the state held before when the sensor reads nothing, but not without the sensor", () => {
    expect(engineOn(device("ignition"), [ignition], sensorIn({}, { speedKmh: 0 }), true)).toBe(true);
    expect(engineOn(device("ignition"), [ignition], sensorIn({}, { speedKmh: 50 }), false)).toBe(false);
    expect(engineOn(device("ignition"), [ignition], sensorIn({ ignition: false }, { speedKmh: 0 }), true)).toBe(false);
    expect(engineOn(device("engine"), [ignition], sensorIn({}, { speedKmh: 0 }), true)).toBe(false);
    expect(engineOn(device("gps"), [ignition], sensorIn({}, { speedKmh: 0 }), true)).toBe(false);
  });

  it("picks the sensor engine detection reads", () => {
    expect(engineSensorOf("acc", [ignition, acc])).toBe(acc);
    expect(engineSensorOf("gps", [ignition, acc])).toBeUndefined();
  });
});

describe("device counters", () => {
  const odometer = sensorDef({ type: "odometer", odometerValueBy: "connected_odometer", tagName: "odometer", formula: "[value]/1000" });
  const hours = sensorDef({ type: "engine_hours", tagName: "hours" });

  it("takes the odometer from the odometer sensor when it has a value, in km", () => {
    expect(deviceOdometerKm([odometer], sensorIn({ odometer: 5000 }, { odometerKm: 1 }))).toBe(5);
    expect(deviceOdometerKm([odometer], sensorIn({}, { odometerKm: 1 }))).toBe(1);
    expect(deviceOdometerKm([], sensorIn({}, { odometerKm: 7 }))).toBe(7);
    const miles = sensorDef({ type: "odometer", odometerValueBy: "virtual_odometer", odometerValue: 10, odometerBaselineKm: 0, odometerValueUnit: "mi" });
    expect(deviceOdometerKm([miles], sensorIn({}, { odometerKm: 0 }))).toBeCloseTo(16.09344);
  });

  it("takes engine hours from the sensor only when the device counts them from a tag", () => {
    const input = sensorIn({ hours: 120 }, { engineSeconds: 7200 });
    expect(deviceEngineHours({ engineHours: "engine_hours" }, [hours], input)).toBe(120);
    expect(deviceEngineHours({ engineHours: "gps" }, [hours], input)).toBe(2);
    expect(deviceEngineHours({ engineHours: "engine_hours" }, [hours], sensorIn({}, { engineSeconds: 3600 }))).toBe(1);
    expect(deviceEngineHours({ engineHours: "engine_hours" }, [], input)).toBe(2);
  });
});

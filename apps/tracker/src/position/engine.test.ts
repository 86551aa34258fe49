import { describe, expect, it } from "vitest";
import type { LiveState, RawPosition } from "@fleet/contracts";
import type { DeviceInfo } from "../handlers/device-directory.js";
import { positionContext } from "./context.js";
import { engine } from "./engine.js";

const byGps: DeviceInfo = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const withIgnition: DeviceInfo = { ...byGps, detectEngine: "ignition", engineSensor: { type: "ignition", tagName: "ignition", onValue: "true", offValue: "false" } };
const raw = (fixTime: number, attributes: RawPosition["attributes"] = {}): RawPosition => ({ id: 2, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 0, course: 0, speed: 0, fixTime, serverTime: fixTime, attributes });
/** The engine ran at the latest fix, t=10 s, with 100 s counted so far. */
const running = { deviceId: 7, positionId: 1, fixTime: 10_000, engineOn: true, engineSeconds: 100 } as LiveState;

function engineAt(device: DeviceInfo, p: RawPosition, current: LiveState | undefined, fields: { speedKmh: number; newest: boolean }) {
  const ctx = Object.assign(positionContext(p, device, current, undefined), fields);
  engine(ctx);
  return { engineOn: ctx.engineOn, engineSeconds: ctx.engineSeconds };
}

describe("engine state", () => {
  it("goes by motion, at or above the moving speed, without an engine sensor", () => {
    expect(engineAt(byGps, raw(1000, { ignition: false }), undefined, { speedKmh: 6, newest: true }).engineOn).toBe(true);
    expect(engineAt(byGps, raw(1000), undefined, { speedKmh: 5.99, newest: true }).engineOn).toBe(false);
  });

  it("goes by the sensor, and by motion when its tag is missing", () => {
    expect(engineAt(withIgnition, raw(1000, { ignition: false }), undefined, { speedKmh: 50, newest: true }).engineOn).toBe(false);
    expect(engineAt(withIgnition, raw(1000, { ignition: true }), undefined, { speedKmh: 0, newest: true }).engineOn).toBe(true);
    expect(engineAt(withIgnition, raw(1000), undefined, { speedKmh: 50, newest: true }).engineOn).toBe(true);
  });
});

describe("engine time", () => {
  it("adds the time since the latest fix when the engine ran at both", () => {
    expect(engineAt(withIgnition, raw(25_000, { ignition: true }), running, { speedKmh: 0, newest: true })).toEqual({ engineOn: true, engineSeconds: 115 });
    expect(engineAt(withIgnition, raw(25_000, { ignition: false }), running, { speedKmh: 0, newest: true })).toEqual({ engineOn: false, engineSeconds: 100 });
    expect(engineAt(withIgnition, raw(25_000, { ignition: true }), { ...running, engineOn: false }, { speedKmh: 0, newest: true }).engineSeconds).toBe(100);
  });

  it("adds nothing for more than an hour without data, though the engine ran at both ends", () => {
    expect(engineAt(withIgnition, raw(10_000 + 3_600_000, { ignition: true }), running, { speedKmh: 0, newest: true }).engineSeconds).toBe(3700);
    expect(engineAt(withIgnition, raw(10_000 + 3_600_001, { ignition: true }), running, { speedKmh: 0, newest: true }).engineSeconds).toBe(100);
  });

  it("is not moved by a fix older than the latest", () => {
    expect(engineAt(withIgnition, raw(5_000, { ignition: true }), running, { speedKmh: 0, newest: false }).engineSeconds).toBe(100);
  });

  it("starts from zero for a device's first fix and for a state written before engine time was counted", () => {
    expect(engineAt(withIgnition, raw(1000, { ignition: true }), undefined, { speedKmh: 0, newest: true }).engineSeconds).toBe(0);
    const { engineOn: _on, engineSeconds: _s, ...old } = running;
    expect(engineAt(withIgnition, raw(25_000, { ignition: true }), old as LiveState, { speedKmh: 0, newest: true }).engineSeconds).toBe(0);
  });
});

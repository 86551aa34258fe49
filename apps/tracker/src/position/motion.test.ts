import { expect, it } from "vitest";
import type { LiveState, RawPosition } from "@fleet/contracts";
import type { DeviceInfo } from "../handlers/device-directory.js";
import { positionContext } from "./context.js";
import { motion } from "./motion.js";

const byGps: DeviceInfo = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const withIgnition: DeviceInfo = { ...byGps, detectEngine: "ignition", engineSensor: { type: "ignition", tagName: "ignition", onValue: "true", offValue: "false" } };
const raw: RawPosition = { id: 2, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 0, course: 0, speed: 0, fixTime: 50_000, serverTime: 50_000, attributes: {} };
const current = { deviceId: 7, positionId: 1, fixTime: 10_000, movedAt: 7_000 } as LiveState;

function motionOf(device: DeviceInfo, state: LiveState | undefined, fields: { speedKmh: number; engineOn: boolean; newest: boolean }) {
  const ctx = Object.assign(positionContext(raw, device, state, undefined), fields);
  motion(ctx);
  return { moving: ctx.moving, movedAt: ctx.movedAt };
}

it("counts a fix as moving above the moving speed, with the engine on where a sensor tells", () => {
  expect(motionOf(byGps, current, { speedKmh: 6.01, engineOn: true, newest: true }).moving).toBe(true);
  expect(motionOf(byGps, current, { speedKmh: 6, engineOn: true, newest: true }).moving).toBe(false);
  expect(motionOf(withIgnition, current, { speedKmh: 50, engineOn: false, newest: true }).moving).toBe(false);
  expect(motionOf(withIgnition, current, { speedKmh: 50, engineOn: true, newest: true }).moving).toBe(true);
});

it("moves movedAt with the newest fix at or above the moving speed, by speed alone", () => {
  expect(motionOf(withIgnition, current, { speedKmh: 6, engineOn: false, newest: true }).movedAt).toBe(50_000);
  expect(motionOf(byGps, current, { speedKmh: 5, engineOn: false, newest: true }).movedAt).toBe(7_000);
  expect(motionOf(byGps, undefined, { speedKmh: 0, engineOn: false, newest: true }).movedAt).toBe(50_000);
  expect(motionOf(byGps, current, { speedKmh: 50, engineOn: true, newest: false }).movedAt).toBe(7_000);
});

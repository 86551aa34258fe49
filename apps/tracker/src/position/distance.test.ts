import { expect, it } from "vitest";
import type { LiveState, RawPosition } from "@fleet/contracts";
import { positionContext } from "./context.js";
import { distance } from "./distance.js";

const device = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const raw = (latitude: number): RawPosition => ({ id: 2, uniqueId: "123", protocol: "osmand", latitude, longitude: 25, altitude: 0, course: 0, speed: 0, fixTime: 2000, serverTime: 2000, attributes: {} });
const current = { deviceId: 7, positionId: 1, odometerKm: 100 } as LiveState;
const prev = { id: 1, fixTime: 1000, latitude: 54, longitude: 25 };

function measured(p: RawPosition, state: LiveState | undefined, before: typeof prev | undefined, newest: boolean) {
  const ctx = Object.assign(positionContext(p, device, state, before), { newest });
  distance(ctx);
  return ctx;
}

it("measures from the fix before in time, to 1e-6 km, and adds it to the odometer of a newest fix", () => {
  const ctx = measured(raw(54.01), current, prev, true);
  // 0.01° of latitude is about 1.112 km.
  expect(ctx.distanceKm).toBeCloseTo(1.112, 2);
  expect(ctx.distanceKm).toBe(Math.round(ctx.distanceKm * 1e6) / 1e6);
  expect(ctx.odometerKm).toBe(100 + ctx.distanceKm);
});

it("starts a device with nothing before it at zero", () => {
  expect(measured(raw(54.01), undefined, undefined, true)).toMatchObject({ distanceKm: 0, odometerKm: 0 });
});

it("still measures an older fix, for history, but leaves the odometer alone", () => {
  const ctx = measured(raw(54.01), current, prev, false);
  expect(ctx.distanceKm).toBeGreaterThan(1);
  expect(ctx.odometerKm).toBe(100);
});

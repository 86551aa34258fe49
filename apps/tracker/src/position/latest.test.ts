import { expect, it } from "vitest";
import type { LiveState, RawPosition } from "@fleet/contracts";
import { positionContext } from "./context.js";
import { latest } from "./latest.js";

const device = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const raw = (id: number, fixTime: number): RawPosition => ({ id, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 0, course: 0, speed: 0, fixTime, serverTime: fixTime, attributes: {} });
/** A device whose latest fix is position 10 at t=5000. */
const current = { deviceId: 7, positionId: 10, fixTime: 5000 } as LiveState;

function standing(p: RawPosition, state: LiveState | undefined) {
  const ctx = positionContext(p, device, state, undefined);
  latest(ctx);
  return { newest: ctx.newest, latest: ctx.latest };
}

it("makes a device's first fix and every later one its newest", () => {
  expect(standing(raw(1, 1000), undefined)).toEqual({ newest: true, latest: true });
  expect(standing(raw(11, 6000), current)).toEqual({ newest: true, latest: true });
});

it("leaves an older fix out of the live state", () => {
  expect(standing(raw(9, 4000), current)).toEqual({ newest: false, latest: false });
});

it("orders fixes at the same time by id", () => {
  expect(standing(raw(9, 5000), current)).toEqual({ newest: false, latest: false });
  expect(standing(raw(11, 5000), current)).toEqual({ newest: true, latest: true });
});

it("keeps the latest fix handled again (a replay) the latest, without moving anything", () => {
  expect(standing(raw(10, 5000), current)).toEqual({ newest: false, latest: true });
});

import { expect, it } from "vitest";
import type { LiveState, RawPosition } from "@fleet/contracts";
import { positionContext } from "./context.js";
import { latest } from "./latest.js";

const device = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const raw = (id: number, fixTime: number): RawPosition => ({ id, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 0, course: 0, speed: 0, fixTime, serverTime: fixTime, attributes: {} });
/** A device whose latest fix is position 10 at t=5000, which reached the server at once. */
const current = { deviceId: 7, positionId: 10, fixTime: 5000, serverTime: 5000 } as LiveState;

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

it("keeps the first fix of an instant, as history does", () => {
  expect(standing(raw(9, 5000), current)).toEqual({ newest: false, latest: false });
  expect(standing(raw(11, 5000), current)).toEqual({ newest: false, latest: false });
});

it("lets true fixes pass a latest fix whose clock ran ahead, a minute after it arrived, but not a backlog or a replay of it", () => {
  const T = 1_800_000_000_000;
  // A day ahead of the server when it came at T.
  const ahead = { ...current, positionId: 20, fixTime: T + 86_400_000, serverTime: T };
  expect(standing({ ...raw(21, T + 61_000), serverTime: T + 61_000 }, ahead)).toEqual({ newest: true, latest: true });
  expect(standing({ ...raw(21, T + 30_000), serverTime: T + 30_000 }, ahead)).toEqual({ newest: false, latest: false });
  expect(standing({ ...raw(19, T - 600_000), serverTime: T + 90_000 }, ahead)).toEqual({ newest: false, latest: false });
  expect(standing({ ...raw(20, T + 86_400_000), serverTime: T + 95_000 }, ahead)).toEqual({ newest: false, latest: true });
  // Older fixes arriving since moved its last contact, not its arrival: the hold still ends a minute after it.
  const contacted = { ...ahead, serverTime: T + 60_000, arrivedAt: T };
  expect(standing({ ...raw(22, T + 70_000), serverTime: T + 70_000 }, contacted)).toEqual({ newest: true, latest: true });
  // A clock steadily two hours ahead moves on as usual.
  const steady = { ...current, positionId: 30, fixTime: T + 7_200_000, serverTime: T };
  expect(standing({ ...raw(31, T + 7_210_000), serverTime: T + 10_000 }, steady)).toEqual({ newest: true, latest: true });
});

it("keeps the latest fix handled again (a replay) the latest, without moving anything", () => {
  expect(standing(raw(10, 5000), current)).toEqual({ newest: false, latest: true });
});

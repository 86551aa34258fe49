import { expect, it } from "vitest";
import type { RawPosition } from "@fleet/contracts";
import { positionContext } from "./context.js";
import { speed } from "./speed.js";

const device = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const raw = (knots: number): RawPosition => ({ id: 1, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 0, course: 0, speed: knots, fixTime: 1000, serverTime: 1500, attributes: {} });

it("turns knots into km/h to 0.01", () => {
  const kmh = [0, 10, 1.2345, 869].map((knots) => {
    const ctx = positionContext(raw(knots), device, undefined, undefined);
    speed(ctx);
    return ctx.speedKmh;
  });
  expect(kmh).toEqual([0, 18.52, 2.29, 1609.39]);
});

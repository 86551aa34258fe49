import { expect, it } from "vitest";
import type { RawPosition } from "@fleet/contracts";
import { positionContext } from "./context.js";
import { historyRow } from "./history-row.js";

const device = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const raw = (attributes: RawPosition["attributes"]): RawPosition => ({ id: 2, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 1, course: 2, speed: 10, fixTime: 1000, serverTime: 1500, attributes });

function rowOf(attributes: RawPosition["attributes"]) {
  const ctx = Object.assign(positionContext(raw(attributes), device, undefined, undefined), { speedKmh: 18.52, distanceKm: 0.5, engineOn: true });
  historyRow(ctx);
  return ctx.history!;
}

it("keeps the fix with its device, speed in km/h, distance and engine state", () => {
  expect(rowOf({ sat: 7 })).toEqual({ id: 2, deviceId: 7, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 1, course: 2, speedKmh: 18.52, fixTime: 1000, serverTime: 1500, attributes: { sat: 7 }, distanceKm: 0.5, valid: true, engineOn: true });
});

it("marks a fix invalid only when its attributes say false", () => {
  const cases: RawPosition["attributes"][] = [{ valid: false }, { valid: "false" }, { valid: true }, {}];
  expect(cases.map((a) => rowOf(a).valid)).toEqual([false, false, true, true]);
});

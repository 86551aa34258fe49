import { expect, it } from "vitest";
import type { RawPosition } from "@fleet/contracts";
import { positionContext } from "./context.js";
import { enrichedMessage } from "./enriched-message.js";

const device = { id: 7, imei: "123", userIds: [1, 2], minMovingSpeed: 6 };
const raw: RawPosition = { id: 2, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 1, course: 2, speed: 10, fixTime: 1000, serverTime: 1500, attributes: { ignition: true } };

it("carries the fix with its users and what the handlers decided about it", () => {
  const ctx = Object.assign(positionContext(raw, device, undefined, undefined), { speedKmh: 18.52, distanceKm: 0.5, latest: false, engineOn: true, moving: true });
  enrichedMessage(ctx);
  expect(ctx.enriched).toEqual({ id: 2, deviceId: 7, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 1, course: 2, speedKmh: 18.52, fixTime: 1000, serverTime: 1500, attributes: { ignition: true }, distanceKm: 0.5, userIds: [1, 2], latest: false, engineOn: true, moving: true });
});

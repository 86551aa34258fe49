import { expect, it } from "vitest";
import type { RawPosition } from "@fleet/contracts";
import { runHandlers, type PositionHandler } from "./context.js";
import { enrichedMessage } from "./enriched-message.js";
import { historyRow } from "./history-row.js";
import { liveState } from "./live-state.js";

const device = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const raw: RawPosition = { id: 2, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 1, course: 2, speed: 10, fixTime: 1000, serverTime: 1500, attributes: {} };

it("runs the handlers in the order given, each seeing what the ones before set", () => {
  const seen: number[] = [];
  const setSpeed: PositionHandler = (ctx) => void (ctx.speedKmh = 42);
  const readSpeed: PositionHandler = (ctx) => void seen.push(ctx.speedKmh);
  runHandlers([readSpeed, setSpeed, readSpeed, liveState, historyRow, enrichedMessage], raw, device, undefined, undefined);
  expect(seen).toEqual([0, 42]);
});

it("refuses a list that leaves a position without its live state, history row or enriched message", () => {
  expect(() => runHandlers([liveState, historyRow], raw, device, undefined, undefined)).toThrow(/no live state, history row or enriched message/);
});

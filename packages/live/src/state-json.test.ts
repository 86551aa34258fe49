import { describe, expect, it } from "vitest";
import type { LiveState, TailPoint } from "@fleet/contracts";
import { stateJson } from "./state-json.js";

const point = (i: number): TailPoint => ({ id: 100 + i, fixTime: 1_763_900_000_000 + i * 1000, latitude: 54.123456 + i * 1e-4, longitude: 25.654321 });

const state = (tail: TailPoint[], extra: Partial<LiveState> = {}): LiveState => ({
  deviceId: 7,
  positionId: 129,
  uniqueId: "860000000000007",
  protocol: "osmand",
  latitude: 54.2,
  longitude: 25.6,
  altitude: 112,
  course: 181,
  speedKmh: 50.01,
  fixTime: 1_763_900_029_000,
  serverTime: 1_763_900_029_123,
  attributes: { sat: 10, ignition: true, power: 12.77, note: 'quote " and \\ and ü' },
  movedAt: 1_763_900_029_000,
  odometerKm: 123.456789,
  engineOn: true,
  engineSeconds: 1234.5,
  tail,
  ...extra,
});

describe("a live state's JSON", () => {
  it("is what JSON.stringify writes, for an empty tail, a full one, and the next state sharing its points", () => {
    const tail = Array.from({ length: 30 }, (_, i) => point(i));
    for (const s of [state([]), state(tail), state([...tail.slice(1), point(30)], { positionId: 130 }), state(tail, { engineOn: undefined })]) {
      expect(stateJson(s)).toBe(JSON.stringify(s));
      expect(JSON.parse(stateJson(s))).toEqual(JSON.parse(JSON.stringify(s)));
    }
  });
});

import { describe, expect, it } from "vitest";
import type { LiveState, RawPosition } from "@fleet/contracts";
import { distanceKm } from "@fleet/geo";
import { positionContext } from "./context.js";
import { distance } from "./distance.js";

const device = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const raw = (latitude: number): RawPosition => ({ id: 2, uniqueId: "123", protocol: "osmand", latitude, longitude: 25, altitude: 0, course: 0, speed: 0, fixTime: 2000, serverTime: 2000, attributes: {} });
const current = { deviceId: 7, positionId: 1, odometerKm: 100, tail: [] } as unknown as LiveState;
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

it("still measures an older fix, for history, but leaves the odometer alone when its neighbours are not both in the tail", () => {
  const ctx = measured(raw(54.01), current, prev, false);
  expect(ctx.distanceKm).toBeGreaterThan(1);
  expect(ctx.odometerKm).toBe(100);
});

describe("a late fix between two the odometer counted", () => {
  // A straight road north, then a fix sent late from 1 km east of the middle of a step.
  const a = { id: 1, fixTime: 10_000, latitude: 54, longitude: 25 };
  const c = { id: 3, fixTime: 30_000, latitude: 54.01, longitude: 25 };
  const late = (id: number, latitude: number, longitude: number): RawPosition => ({ ...raw(latitude), id, longitude, fixTime: 20_000 });
  const at = (p: { latitude: number; longitude: number }) => ({ lat: p.latitude, lng: p.longitude });
  const state = (tail: (typeof a)[]) => ({ ...current, tail });

  it("adds the detour it shows, so the odometer is the track's length in time order", () => {
    const b = late(2, 54.005, 25.015);
    const ctx = measured(b, state([a, c]), a, false);
    const detour = distanceKm(at(a), at(b)) + distanceKm(at(b), at(c)) - distanceKm(at(a), at(c));
    expect(detour).toBeGreaterThan(0.5);
    expect(ctx.odometerKm).toBeCloseTo(100 + detour, 6);
  });

  it("adds nothing on the road between them, for a replay, nor for a spike reached and left too fast", () => {
    expect(measured(late(2, 54.005, 25), state([a, c]), a, false).odometerKm).toBeCloseTo(100, 6);
    const b = late(2, 54.005, 25.015);
    expect(measured(b, state([a, { ...b }, c]), a, false).odometerKm).toBe(100);
    expect(measured(late(2, 54.3, 25), state([a, c]), a, false).odometerKm).toBe(100);
  });

  it("adds nothing when the fix before it came from history, older than the tail", () => {
    expect(measured(late(2, 54.005, 25.015), state([c]), a, false).odometerKm).toBe(100);
  });
});

describe("a GPS spike", () => {
  // Heading north a fix every 10 s at about 40 km/h, one fix 33 km off the road.
  const at = (id: number, latitude: number) => ({ id, fixTime: id * 10_000, latitude, longitude: 25 });
  const km = (a: { latitude: number }, b: { latitude: number }) => distanceKm({ lat: a.latitude, lng: 25 }, { lat: b.latitude, lng: 25 });
  const next = (id: number, latitude: number): RawPosition => ({ ...raw(latitude), id, fixTime: id * 10_000 });
  const after = (tail: ReturnType<typeof at>[], p: RawPosition) => measured(p, { ...current, tail }, tail.at(-1), true);

  it("comes off the odometer once the fix after it comes back: the odometer measures across it", () => {
    const [a, b, spike] = [at(1, 54), at(2, 54.001), at(3, 54.3)];
    const ctx = after([a, b, spike], next(4, 54.002));
    // The stored step is the step as measured; the odometer (100 km with the spike counted) goes from b.
    expect(ctx.distanceKm).toBeCloseTo(km(spike, { latitude: 54.002 }), 6);
    expect(ctx.odometerKm).toBeCloseTo(100 - km(b, spike) + km(b, { latitude: 54.002 }), 6);
  });

  it("stays on the odometer when the fix before it was reached as fast, or the fix after it is as far off", () => {
    const [a, b, spike] = [at(1, 54), at(2, 54.001), at(3, 54.3)];
    const jumpedTo = after([at(1, 53.7), b, spike], next(4, 54.002));
    expect(jumpedTo.odometerKm).toBeCloseTo(100 + jumpedTo.distanceKm, 6);
    const stillAway = after([a, b, spike], next(4, 54.301));
    expect(stillAway.odometerKm).toBeCloseTo(100 + stillAway.distanceKm, 6);
  });
});

import { describe, expect, it } from "vitest";
import { TAIL_MAX, type LiveState, type RawPosition, type TailPoint } from "@fleet/contracts";
import { positionContext } from "./context.js";
import { liveState, withPoint } from "./live-state.js";

const device = { id: 7, imei: "123", userIds: [1], minMovingSpeed: 6 };
const point = (id: number): TailPoint => ({ id, fixTime: id * 1000, latitude: 54, longitude: 25 });
const raw = (id: number): RawPosition => ({ id, uniqueId: "123", protocol: "osmand", latitude: 55, longitude: 26, altitude: 3, course: 4, speed: 10, fixTime: id * 1000, serverTime: id * 1000 + 5, attributes: { sat: 9 } });

describe("a tail with one more point", () => {
  it("appends a newer point and keeps at most TAIL_MAX, the kept points the same objects", () => {
    const full = Array.from({ length: TAIL_MAX }, (_, i) => point(i + 1));
    const next = withPoint(full, point(TAIL_MAX + 1));
    expect(next.map((t) => t.id)).toEqual(Array.from({ length: TAIL_MAX }, (_, i) => i + 2));
    expect(next[0]).toBe(full[1]);
    expect(next).not.toBe(full);
  });

  it("puts a late point in its place, and a point it holds already nowhere new", () => {
    const tail = [point(1), point(3)];
    expect(withPoint(tail, point(2)).map((t) => t.id)).toEqual([1, 2, 3]);
    const again = withPoint(tail, point(1));
    expect(again).toEqual(tail);
    expect(again).not.toBe(tail);
  });
});

describe("the live state after a position", () => {
  const current: LiveState = { deviceId: 7, positionId: 5, uniqueId: "123", protocol: "osmand", latitude: 54, longitude: 25, altitude: 0, course: 0, speedKmh: 0, fixTime: 5000, serverTime: 5000, attributes: {}, movedAt: 1000, odometerKm: 10, tail: [point(3), point(5)] };

  it("is the newest fix with the running values the handlers before worked out", () => {
    const ctx = Object.assign(positionContext(raw(6), device, current, undefined), { newest: true, speedKmh: 18.52, movedAt: 6000, odometerKm: 11, engineOn: true, engineSeconds: 1 });
    liveState(ctx);
    expect(ctx.state).toEqual({ deviceId: 7, positionId: 6, uniqueId: "123", protocol: "osmand", latitude: 55, longitude: 26, altitude: 3, course: 4, speedKmh: 18.52, fixTime: 6000, serverTime: 6005, attributes: { sat: 9 }, movedAt: 6000, odometerKm: 11, engineOn: true, engineSeconds: 1, arrivedAt: 6005, tail: [point(3), point(5), { id: 6, fixTime: 6000, latitude: 55, longitude: 26 }] });
  });

  it("is the current state with the point in its tail and the odometer the distance handler left, for an older fix", () => {
    const ctx = Object.assign(positionContext(raw(4), device, current, undefined), { newest: false, speedKmh: 18.52, odometerKm: 10.5 });
    liveState(ctx);
    // It reached the server (4005) before the latest did (5000): the last contact stays.
    expect(ctx.state).toEqual({ ...current, odometerKm: 10.5, tail: [point(3), { id: 4, fixTime: 4000, latitude: 55, longitude: 26 }, point(5)] });
    // A late fix arriving now is the device's last contact.
    const now = Object.assign(positionContext({ ...raw(4), serverTime: 9000 }, device, current, undefined), { newest: false, odometerKm: 10 });
    liveState(now);
    expect(now.state).toMatchObject({ positionId: 5, fixTime: 5000, serverTime: 9000 });
  });

  it("keeps the readings a newer fix leaves out, but not its alarm or event", () => {
    const before: LiveState = { ...current, attributes: { fuel: 80, hours: 2000, ignition: true, alarm: "sos", event: 12 } };
    const heartbeat = Object.assign(positionContext({ ...raw(6), attributes: { ignition: false, sat: 7 } }, device, before, undefined), { newest: true });
    liveState(heartbeat);
    expect(heartbeat.state!.attributes).toEqual({ fuel: 80, hours: 2000, ignition: false, sat: 7 });
  });
});

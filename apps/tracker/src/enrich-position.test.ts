import { describe, expect, it } from "vitest";
import type { LiveState, RawPosition } from "@fleet/contracts";
import { TAIL_MAX } from "@fleet/contracts";
import type { DeviceInfo } from "./handlers/device-directory.js";
import { previousPoint } from "./handlers/previous.js";
import { enrichPosition } from "./pipeline.js";

const device: DeviceInfo = { id: 7, imei: "123", userIds: [1, 2], minMovingSpeed: 6 };
let seq = 100;
function raw(p: Partial<RawPosition>): RawPosition {
  return { id: seq++, uniqueId: "123", protocol: "osmand", latitude: 54.0, longitude: 25.0, altitude: 100, course: 90, speed: 10, fixTime: 1_700_000_000_000, serverTime: 1_700_000_000_500, attributes: {}, ...p };
}

/**
 * Feeds positions in order, threading the live state, as the pipeline does within one
 * batch; `history` stands for what the history store holds when the pipeline asks it.
 */
function run(positions: RawPosition[], start?: LiveState, history: RawPosition[] = [], dev: DeviceInfo = device) {
  let state = start;
  let last: RawPosition | undefined;
  return positions.map((p) => {
    const found = state ? previousPoint(state.tail, last, p) : { prev: undefined, known: true };
    const older = history.filter((h) => h.fixTime < p.fixTime || (h.fixTime === p.fixTime && h.id < p.id));
    const prev = found.known ? found.prev : older.at(-1);
    const out = enrichPosition(p, dev, state, prev);
    state = out.state;
    last = p;
    return out;
  });
}

/** The position handlers in the pipeline's order (POSITION_HANDLERS), on positions threaded as a batch threads them. */
describe("enrichPosition", () => {
  it("converts knots to km/h and starts a device at zero distance", () => {
    const [out] = run([raw({ speed: 10 })]);
    expect(out!.history.speedKmh).toBe(18.52);
    expect(out!.history.distanceKm).toBe(0);
    expect(out!.enriched).toMatchObject({ deviceId: 7, userIds: [1, 2], latest: true });
    expect(out!.state.movedAt).toBe(1_700_000_000_000);
  });

  it("measures distance from the previous fix and sums the odometer", () => {
    const outs = run([raw({ latitude: 54.0 }), raw({ latitude: 54.01, fixTime: 1_700_000_010_000 }), raw({ latitude: 54.02, fixTime: 1_700_000_020_000 })]);
    // 0.01° of latitude is about 1.112 km.
    expect(outs[1]!.history.distanceKm).toBeCloseTo(1.112, 2);
    expect(outs[2]!.history.distanceKm).toBeCloseTo(1.112, 2);
    expect(outs[2]!.state.odometerKm).toBeCloseTo(2.224, 2);
  });

  it("keeps the live state when a fix is older than the latest, but still writes its history", () => {
    const [a, b, c] = run([raw({ fixTime: 2_000, latitude: 1 }), raw({ fixTime: 3_000, latitude: 2 }), raw({ fixTime: 2_500, latitude: 1.5 })]);
    expect(c!.state.positionId).toBe(b!.state.positionId);
    expect(c!.state.latitude).toBe(2);
    expect(c!.enriched.latest).toBe(false);
    expect(c!.history.latitude).toBe(1.5);
    // Its distance is measured from the fix before it in time.
    expect(c!.history.distanceKm).toBeCloseTo(55.6, 0);
    expect(c!.state.tail.map((t) => t.fixTime)).toEqual([2_000, 2_500, 3_000]);
    expect(a!.state.odometerKm).toBe(0);
  });

  it("gives a replayed message the same history row as the first time", () => {
    const positions = [raw({ fixTime: 1_000, latitude: 10 }), raw({ fixTime: 2_000, latitude: 10.1 }), raw({ fixTime: 3_000, latitude: 10.2 })];
    const first = run(positions);
    // A crash after the live state was written but before the offsets were committed:
    // the same messages come again, on top of the state they already produced.
    const replay = run(positions, first[2]!.state);
    expect(replay.map((r) => r.history)).toEqual(first.map((r) => r.history));
    expect(replay[2]!.state.odometerKm).toBe(first[2]!.state.odometerKm);
  });

  it("gives a long replay the same rows: the first from history, the rest from the batch, where the tail no longer reaches", () => {
    const positions = Array.from({ length: TAIL_MAX * 3 }, (_, i) => raw({ fixTime: 10_000 + i * 1000, latitude: 10 + i * 0.01 }));
    const first = run(positions);
    // The crash came after 2 × TAIL_MAX fixes were written; the rest is replayed on top of a state that saw them all.
    const committed = TAIL_MAX * 2;
    const replay = run(positions.slice(committed), first.at(-1)!.state, positions);
    expect(replay.map((r) => r.history)).toEqual(first.slice(committed).map((r) => r.history));
    expect(replay.every((r) => r.history.distanceKm > 1)).toBe(true);
  });

  it("says when only history can tell a fix's predecessor", () => {
    const positions = Array.from({ length: TAIL_MAX + 5 }, (_, i) => raw({ fixTime: 10_000 + i * 1000 }));
    const state = run(positions).at(-1)!.state;
    // The third fix is older than the whole (full) tail now.
    expect(previousPoint(state.tail, undefined, positions[2]!).known).toBe(false);
    // A fix inside the tail's span is answered from the tail.
    expect(previousPoint(state.tail, undefined, positions[20]!)).toMatchObject({ known: true, prev: { id: positions[19]!.id } });
    // A device whose tail is not full has nothing older.
    const young = run(positions.slice(0, 3)).at(-1)!.state;
    expect(previousPoint(young.tail, undefined, { fixTime: 1, id: 1 })).toEqual({ prev: undefined, known: true });
  });

  it("moves movedAt only while at or above the device's moving speed", () => {
    const [, slow] = run([raw({ fixTime: 1_000, speed: 10 }), raw({ fixTime: 2_000, speed: 1 })]);
    expect(slow!.state.movedAt).toBe(1_000);
  });

  it("marks a fix invalid when its attributes say so", () => {
    const [out] = run([raw({ attributes: { valid: false } })]);
    expect(out!.history.valid).toBe(false);
  });

  describe("engine state and engine time", () => {
    const withIgnition: DeviceInfo = { ...device, detectEngine: "ignition", engineSensor: { type: "ignition", tagName: "ignition", onValue: "true", offValue: "false" } };
    const at = (fixTime: number, ignition: boolean | undefined, speed = 0) => raw({ fixTime, speed, attributes: ignition === undefined ? {} : { ignition } });

    it("goes by motion for a device that detects the engine by gps", () => {
      const outs = run([raw({ fixTime: 1_000, speed: 10, attributes: { ignition: false } }), raw({ fixTime: 61_000, speed: 10 }), raw({ fixTime: 91_000, speed: 0 })]);
      expect(outs.map((o) => o.state.engineOn)).toEqual([true, true, false]);
      expect(outs.map((o) => o.state.engineSeconds)).toEqual([0, 60, 60]);
    });

    it("goes by the engine sensor, adding the time between fixes with the engine on at both", () => {
      const outs = run([at(1_000, true), at(11_000, true), at(31_000, false), at(41_000, true), at(46_000, true)], undefined, [], withIgnition);
      expect(outs.map((o) => o.state.engineOn)).toEqual([true, true, false, true, true]);
      expect(outs.map((o) => o.state.engineSeconds)).toEqual([0, 10, 10, 10, 15]);
    });

    it("tells the rules service whether each fix has the engine on and counts as moving, by the rule history uses", () => {
      // Above the moving speed with the ignition off is not moving; at exactly the moving speed neither.
      const outs = run([at(1_000, true, 20), at(11_000, false, 20), at(21_000, true, 0), at(31_000, true, device.minMovingSpeed / 1.852)], undefined, [], withIgnition);
      expect(outs.map((o) => [o.enriched.engineOn, o.enriched.moving])).toEqual([
        [true, true],
        [false, false],
        [true, false],
        [true, false],
      ]);
      const byGps = run([raw({ fixTime: 1_000, speed: 20 }), raw({ fixTime: 2_000, speed: 0 })]);
      expect(byGps.map((o) => [o.enriched.engineOn, o.enriched.moving])).toEqual([
        [true, true],
        [false, false],
      ]);
    });

    it("keeps the engine state of the fix before when the sensor's tag is missing, and goes by motion without one", () => {
      // A heartbeat without the tag while standing with the engine running: still running, still counting.
      const [, b] = run([at(1_000, true), at(5_000, undefined, 0)], undefined, [], withIgnition);
      expect(b!.state).toMatchObject({ engineOn: true, engineSeconds: 4 });
      expect(b!.enriched.engineOn).toBe(true);
      // Moving without the tag after the ignition went off: still off.
      const [, off] = run([at(1_000, false), at(5_000, undefined, 20)], undefined, [], withIgnition);
      expect(off!.enriched.engineOn).toBe(false);
      // Nothing known before: motion.
      expect(run([at(1_000, undefined, 20)], undefined, [], withIgnition)[0]!.enriched.engineOn).toBe(true);
      expect(run([at(1_000, undefined, 0)], undefined, [], withIgnition)[0]!.enriched.engineOn).toBe(false);
    });

    it("leaves engine state and time alone for a late, older fix", () => {
      const outs = run([at(1_000, true), at(21_000, true), at(11_000, false)], undefined, [], withIgnition);
      expect(outs[2]!.state).toMatchObject({ engineOn: true, engineSeconds: 20 });
      expect(outs[2]!.enriched.latest).toBe(false);
    });

    it("counts a replay once", () => {
      const positions = [at(1_000, true), at(11_000, true), at(21_000, true)];
      const first = run(positions, undefined, [], withIgnition);
      const replay = run(positions, first[2]!.state, [], withIgnition);
      expect(replay[2]!.state.engineSeconds).toBe(20);
      // The same latest fix once more changes nothing either.
      expect(run([positions[2]!], replay[2]!.state, [], withIgnition)[0]!.state.engineSeconds).toBe(20);
    });

    it("starts counting on a state written before engine time existed", () => {
      const first = run([at(1_000, true)], undefined, [], withIgnition)[0]!.state;
      const { engineOn: _on, engineSeconds: _s, ...old } = first;
      const [next] = run([at(6_000, true)], old, [], withIgnition);
      expect(next!.state).toMatchObject({ engineOn: true, engineSeconds: 0 });
      expect(run([at(9_000, true)], next!.state, [], withIgnition)[0]!.state.engineSeconds).toBe(3);
    });
  });
});

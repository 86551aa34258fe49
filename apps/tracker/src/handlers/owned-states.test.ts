import { describe, expect, it } from "vitest";
import type { LiveState } from "@fleet/contracts";
import { follows, OwnedStates } from "./owned-states.js";

const state = (deviceId: number, positionId = 1): LiveState => ({
  deviceId,
  positionId,
  uniqueId: `d${deviceId}`,
  protocol: "osmand",
  latitude: 54,
  longitude: 25,
  altitude: 0,
  course: 0,
  speedKmh: 0,
  fixTime: 0,
  serverTime: 0,
  attributes: {},
  movedAt: 0,
  odometerKm: 0,
  tail: [],
});

describe("bus offsets that follow each other", () => {
  it("knows plain and packed neighbours, and nothing else", () => {
    expect(follows("41", "42")).toBe(true);
    expect(follows("41", "43")).toBe(false);
    expect(follows("42", "42")).toBe(false);
    expect(follows("7:2", "7:3")).toBe(true);
    expect(follows("7:2", "8:0")).toBe(true);
    expect(follows("7:2", "8")).toBe(true);
    expect(follows("7:2", "8:1")).toBe(false);
    expect(follows("7", "7:1")).toBe(false);
    expect(follows("9007199254740993", "9007199254740994")).toBe(true);
    expect(follows("x", "1")).toBe(false);
  });
});

describe("the states a tracker kept", () => {
  it("are given back for the partition's next batch, and only for devices of that partition", () => {
    const kept = new OwnedStates(10);
    kept.begin(0, "0");
    kept.finish(0, "4", [state(1), state(2)]);
    kept.begin(0, "5");
    expect([...kept.get(0, [1, 2, 3]).keys()]).toEqual([1, 2]);
    expect(kept.get(1, [1, 2]).size).toBe(0);
  });

  it("are dropped when the partition's next batch does not start right after the last one handled", () => {
    const kept = new OwnedStates(10);
    kept.begin(3, "10");
    kept.finish(3, "19", [state(1)]);
    kept.begin(3, "25"); // another member handled 20..24
    expect(kept.get(3, [1]).size).toBe(0);
    kept.finish(3, "30", [state(2)]);
    kept.begin(3, "31");
    expect([...kept.get(3, [1, 2]).keys()]).toEqual([2]);
  });

  it("are dropped for a partition whose batch failed, and kept for the others", () => {
    const kept = new OwnedStates(10);
    kept.begin(0, "0");
    kept.finish(0, "0", [state(1)]);
    kept.begin(1, "0");
    kept.finish(1, "0", [state(2)]);
    kept.begin(0, "1");
    kept.forget(0);
    kept.begin(0, "1"); // the same batch again
    kept.begin(1, "1");
    expect(kept.get(0, [1]).size).toBe(0);
    expect(kept.get(1, [2]).size).toBe(1);
  });

  it("hold at most the configured number of devices, the least recently written going first", () => {
    const kept = new OwnedStates(2);
    kept.begin(0, "0");
    kept.finish(0, "0", [state(1), state(2)]);
    kept.begin(0, "1");
    kept.finish(0, "1", [state(1, 2), state(3)]);
    kept.begin(0, "2");
    const got = kept.get(0, [1, 2, 3]);
    expect([...got.keys()].sort()).toEqual([1, 3]);
    expect(got.get(1)!.positionId).toBe(2);
  });
});

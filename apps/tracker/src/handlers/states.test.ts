import { expect, it } from "vitest";
import type { LiveState } from "@fleet/contracts";
import type { DeviceInfo } from "./device-directory.js";
import { OwnedStates } from "./owned-states.js";
import { loadStates } from "./states.js";

const device = (id: number): DeviceInfo => ({ id, imei: `d${id}`, userIds: [1], minMovingSpeed: id });
const state = (deviceId: number, odometerKm: number) => ({ deviceId, odometerKm }) as LiveState;

it("takes kept states first, reads the others from the live store, and restores the rest from history", async () => {
  const owned = new OwnedStates(10);
  owned.begin(0, "0");
  owned.finish(0, "0", [state(1, 1)]);
  owned.begin(0, "1");
  const asked: { live: number[][]; history: { id: number; minMovingSpeed: number }[][] } = { live: [], history: [] };
  const live = { getStates: async (ids: readonly number[]) => (asked.live.push([...ids]), new Map(ids.filter((id) => id === 2).map((id) => [id, state(id, 2)]))) };
  const history = { lastStates: async (ds: readonly { id: number; minMovingSpeed: number }[]) => (asked.history.push([...ds]), new Map(ds.filter((d) => d.id === 3).map((d) => [d.id, state(d.id, 3)]))) };

  const { states, restored } = await loadStates({ owned, live, history }, 0, [device(1), device(2), device(3), device(4), device(2)]);
  expect(asked).toEqual({ live: [[2, 3, 4]], history: [[{ id: 3, minMovingSpeed: 3 }, { id: 4, minMovingSpeed: 4 }]] });
  expect([...states].map(([id, s]) => [id, s.odometerKm])).toEqual([
    [1, 1],
    [2, 2],
    [3, 3],
  ]);
  expect(restored).toBe(1);
});

it("asks neither store when every state was kept", async () => {
  const owned = new OwnedStates(10);
  owned.begin(0, "0");
  owned.finish(0, "0", [state(1, 1)]);
  owned.begin(0, "1");
  const fail = async () => Promise.reject(new Error("not asked"));
  const { states, restored } = await loadStates({ owned, live: { getStates: fail }, history: { lastStates: fail } }, 0, [device(1)]);
  expect(states.get(1)?.odometerKm).toBe(1);
  expect(restored).toBe(0);
});

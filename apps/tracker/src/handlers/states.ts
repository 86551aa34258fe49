import type { LiveState } from "@fleet/contracts";
import type { HistoryStore } from "@fleet/history";
import type { LiveStore } from "@fleet/live";
import type { DeviceInfo } from "./device-directory.js";
import type { OwnedStates } from "./owned-states.js";

export interface StateSources {
  owned: OwnedStates;
  live: Pick<LiveStore, "getStates">;
  history: Pick<HistoryStore, "lastStates">;
}

/**
 * The live states of a batch's devices: the ones this tracker kept, the rest from the live
 * store, and those the store has none of restored from history. `restored` counts the last.
 *
 * A device without a live state is new, or its state was lost (a flushed Redis, a lost
 * live.json): its state is restored before its position is handled, so the odometer and
 * engine time continue rather than restart from zero.
 */
export async function loadStates(from: StateSources, partition: number, devices: Iterable<DeviceInfo>): Promise<{ states: Map<number, LiveState>; restored: number }> {
  const byId = new Map<number, DeviceInfo>();
  for (const d of devices) byId.set(d.id, d);
  const states = from.owned.get(partition, [...byId.keys()]);
  const unkept = [...byId.keys()].filter((id) => !states.has(id));
  if (unkept.length > 0) for (const [id, state] of await from.live.getStates(unkept)) states.set(id, state);

  const missing = [...byId.values()].filter((d) => !states.has(d.id));
  if (missing.length === 0) return { states, restored: 0 };
  const restored = await from.history.lastStates(missing.map((d) => ({ id: d.id, minMovingSpeed: d.minMovingSpeed })));
  for (const [id, state] of restored) states.set(id, state);
  return { states, restored: restored.size };
}

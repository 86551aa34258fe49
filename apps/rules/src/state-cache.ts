import type { LiveStore, RuleState } from "@fleet/live";
import { FIX_KEY } from "./evaluate.js";

export interface StateCacheOptions {
  live: Pick<LiveStore, "getRuleStates" | "getRuleStateMember">;
  /** Most devices kept; the longest unused go first. Default 200,000. */
  maxDevices?: number;
}

/**
 * The devices' rule states as this instance last stored or read them, so a batch reads one
 * small member per device (the latest fix) instead of the whole state, and parses nothing when
 * the copy is current. A copy is current when the store's fix is the one it holds: every run
 * that moves a state moves its fix, so another instance that ran the device since (after a
 * rebalance) or a deleted device shows as a different fix, and the state is read again whole.
 */
export class StateCache {
  private readonly states = new Map<number, RuleState>();
  private readonly max: number;

  constructor(private readonly opts: StateCacheOptions) {
    this.max = opts.maxDevices ?? 200_000;
  }

  /** The stored states of these devices (undefined for those without one). */
  async load(deviceIds: readonly number[]): Promise<Map<number, RuleState | undefined>> {
    const fixes = await this.opts.live.getRuleStateMember(deviceIds, FIX_KEY);
    const out = new Map<number, RuleState | undefined>();
    const stale: number[] = [];
    for (const id of deviceIds) {
      const fix = fixes.get(id);
      const kept = this.states.get(id);
      if (kept !== undefined && kept[FIX_KEY] === fix) out.set(id, kept);
      // A state is stored with the first fix it runs: none stored is no state.
      else if (fix === undefined) out.set(id, undefined);
      else stale.push(id);
    }
    if (stale.length > 0) {
      const read = await this.opts.live.getRuleStates(stale);
      for (const id of stale) out.set(id, read.get(id));
    }
    return out;
  }

  /** Keeps a device's state as now stored. */
  remember(deviceId: number, state: RuleState): void {
    this.states.delete(deviceId);
    this.states.set(deviceId, state);
    if (this.states.size > this.max) this.states.delete(this.states.keys().next().value!);
  }
}

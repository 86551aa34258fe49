import { listDevicesWatchedBy, ownersOf, type Db } from "@fleet/db";
import type { LiveStore } from "@fleet/live";
import type { Found } from "./evaluate.js";
import { startLeasedTimer } from "./leased-timer.js";
import type { DeviceRules } from "./model.js";
import type { RuleBook } from "./rule-book.js";
import { SWEPT_TYPES, sweepDevice } from "./sweep.js";

export interface SweeperOptions {
  db: Db;
  live: Pick<LiveStore, "getStates" | "getRuleStates" | "claim">;
  book: RuleBook;
  /** Records what a sweep found (each once, by its episode's key); resolves with how many were new. */
  record(found: readonly Found[], rules: ReadonlyMap<number, DeviceRules>): Promise<number>;
  everyMs: number;
  now?: () => number;
  logger: { warn(obj: object, msg?: string): void };
}

export interface Sweeper {
  /** One sweep now, lease or not (an operator's or a test's); resolves with the events it recorded. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

/** The live store's lease the instances' timers take, so one of them sweeps in each period. */
export const SWEEP_LEASE = "rules:sweep";

/**
 * Sweeps, every `everyMs`, the devices an offline_duration or stop_duration alert watches
 * (sweep.ts), on one instance at a time (leased-timer.ts): the events' keys record each
 * once, whoever finds it, and the next period's sweep finds what a dead instance missed.
 */
export function startSweeper(opts: SweeperOptions): Sweeper {
  const now = opts.now ?? Date.now;

  async function sweepOnce(): Promise<number> {
    const ids = await listDevicesWatchedBy(opts.db, SWEPT_TYPES);
    if (ids.length === 0) return 0;
    const owners = await ownersOf(opts.db, ids);
    const [rules, states, memories] = await Promise.all([opts.book.of(owners), opts.live.getStates(ids), opts.live.getRuleStates(ids)]);
    const at = now();
    const found = [...rules].flatMap(([id, r]) => sweepDevice(r, states.get(id), memories.get(id), at));
    return found.length === 0 ? 0 : opts.record(found, rules);
  }

  const timer = startLeasedTimer({ live: opts.live, lease: SWEEP_LEASE, everyMs: opts.everyMs, logger: opts.logger, what: "sweep for silent devices" }, sweepOnce);
  return { sweep: timer.run, close: timer.close };
}

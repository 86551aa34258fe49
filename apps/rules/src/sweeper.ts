import { listDevicesWatchedBy, ownersOf, type Db } from "@fleet/db";
import type { LiveStore } from "@fleet/live";
import type { Found } from "./evaluate.js";
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
 * (sweep.ts). Each tick first takes the live store's lease for most of a period, so with
 * several instances one sweeps each period rather than all of them reading every watched
 * device's state. The lease is not released: an instance that dies mid-sweep leaves it to
 * end, and the next period's sweep finds what it missed (the events' keys record each once,
 * whoever finds it). A sweep that fails is logged and tried again at the next tick.
 */
export function startSweeper(opts: SweeperOptions): Sweeper {
  const now = opts.now ?? Date.now;
  let running: Promise<number> | undefined;

  async function sweepOnce(): Promise<number> {
    const ids = await listDevicesWatchedBy(opts.db, SWEPT_TYPES);
    if (ids.length === 0) return 0;
    const owners = await ownersOf(opts.db, ids);
    const [rules, states, memories] = await Promise.all([opts.book.of(owners), opts.live.getStates(ids), opts.live.getRuleStates(ids)]);
    const at = now();
    const found = [...rules].flatMap(([id, r]) => sweepDevice(r, states.get(id), memories.get(id), at));
    return found.length === 0 ? 0 : opts.record(found, rules);
  }

  const sweep = () => (running ??= sweepOnce().finally(() => (running = undefined)));
  // A little under a period, so the instance whose tick comes first in the next one takes it.
  const leaseMs = Math.max(1, Math.floor(opts.everyMs * 0.9));
  let closed = false;
  const tick = async () => ((await opts.live.claim(SWEEP_LEASE, leaseMs)) && !closed ? sweep() : 0);
  const timer = setInterval(() => {
    tick().catch((err: unknown) => opts.logger.warn({ err }, "sweep for silent devices failed; trying again next time"));
  }, opts.everyMs);
  timer.unref();

  return {
    sweep,
    async close() {
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

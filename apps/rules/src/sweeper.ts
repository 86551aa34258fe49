import { listDevicesWatchedBy, ownersOf, type Db } from "@fleet/db";
import type { LiveStore } from "@fleet/live";
import type { Found } from "./evaluate.js";
import type { DeviceRules } from "./model.js";
import type { RuleBook } from "./rule-book.js";
import { SWEPT_TYPES, sweepDevice } from "./sweep.js";

export interface SweeperOptions {
  db: Db;
  live: Pick<LiveStore, "getStates" | "getRuleStates">;
  book: RuleBook;
  /** Records what a sweep found (each once, by its episode's key); resolves with how many were new. */
  record(found: readonly Found[], rules: ReadonlyMap<number, DeviceRules>): Promise<number>;
  everyMs: number;
  now?: () => number;
  logger: { warn(obj: object, msg?: string): void };
}

export interface Sweeper {
  /** One sweep now; resolves with the events it recorded. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Sweeps, every `everyMs`, the devices an offline_duration or stop_duration alert watches
 * (sweep.ts). Every instance sweeps every such device: the events' keys make the sweeps of
 * several instances record each event once, and a sweep that fails is logged and tried again
 * at the next tick.
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
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => opts.logger.warn({ err }, "sweep for silent devices failed; trying again next time"));
  }, opts.everyMs);
  timer.unref();

  return {
    sweep,
    async close() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

import type { LiveStore } from "@fleet/live";

export interface LeasedTimerOptions {
  live: Pick<LiveStore, "claim">;
  /** The live store's lease the instances' timers take, so one of them runs in each period. */
  lease: string;
  everyMs: number;
  logger: { warn(obj: object, msg?: string): void };
  /** What failed, for the log line ("sweep for silent devices"). */
  what: string;
}

export interface LeasedTimer {
  /** One run now, lease or not (an operator's or a test's); resolves with what the run counted. */
  run(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Runs `work` every `everyMs` on one instance of many: each tick first takes the live store's
 * lease for most of a period. The lease is not released: an instance that dies mid-run
 * leaves it to end, and the next period's run finds what it missed, so `work` must be safe
 * to repeat. A run that fails is logged and tried again at the next tick; runs never overlap.
 */
export function startLeasedTimer(opts: LeasedTimerOptions, work: () => Promise<number>): LeasedTimer {
  let running: Promise<number> | undefined;
  const run = () => (running ??= work().finally(() => (running = undefined)));
  // A little under a period, so the instance whose tick comes first in the next one takes it.
  const leaseMs = Math.max(1, Math.floor(opts.everyMs * 0.9));
  let closed = false;
  const tick = async () => ((await opts.live.claim(opts.lease, leaseMs)) && !closed ? run() : 0);
  const timer = setInterval(() => {
    tick().catch((err: unknown) => opts.logger.warn({ err }, `${opts.what} failed; trying again next time`));
  }, opts.everyMs);
  timer.unref();
  return {
    run,
    async close() {
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

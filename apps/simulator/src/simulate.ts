import { setTimeout as sleep } from "node:timers/promises";
import type { TrackPosition } from "@fleet/tracks";
import type { DeviceFeed } from "./feeds.js";
import { Sender, type Counters, type Endpoint } from "./sender.js";

export interface SimulateOptions {
  url: string;
  endpoint: Endpoint;
  feeds: readonly DeviceFeed[];
  /** Stop after this many seconds; unset, run until stopped (or until every replay has ended). */
  durationS?: number;
  /** Seconds between progress lines. */
  progressS: number;
  /** Positions waiting for the server beyond which due ones are skipped. */
  maxQueued: number;
  signal: AbortSignal;
  out(line: string): void;
}

export interface SimulateSummary extends Counters {
  seconds: number;
  /** Why it stopped. */
  reason: "stopped" | "duration" | "replays ended";
  notes: string[];
}

const TICK_MS = 50;
const DRAIN_MS = 10_000;

const fmt = (n: number, digits = 0) => n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const counts = (c: Counters) => `sent ${fmt(c.sent)}, accepted ${fmt(c.accepted)}, rejected ${fmt(c.rejected)}, failed ${fmt(c.failed)}, skipped ${fmt(c.skipped)}`;

/**
 * Sends each feed's positions when they fall due on the wall clock, checking every 50 ms,
 * with a progress line every `progressS`. Stops on the signal (Ctrl-C), after `durationS`, or
 * once every feed has ended; then waits (up to 10 s) for the requests still out.
 */
export async function simulate(o: SimulateOptions): Promise<SimulateSummary> {
  const sender = new Sender(o.url, o.endpoint, o.maxQueued);
  const started = Date.now();
  let lastProgress = { t: started, accepted: 0 };
  let reason: SimulateSummary["reason"] = "stopped";
  const elapsedS = () => (Date.now() - started) / 1000;

  while (!o.signal.aborted) {
    const now = Date.now();
    if (o.durationS !== undefined && now - started >= o.durationS * 1000) {
      reason = "duration";
      break;
    }
    const due: TrackPosition[] = [];
    let live = 0;
    for (const feed of o.feeds) {
      while (feed.due() <= now) due.push(feed.take());
      if (feed.due() !== Infinity) live++;
    }
    if (due.length > 0) sender.push(due);
    if (live === 0) {
      reason = "replays ended";
      break;
    }
    if (now - lastProgress.t >= o.progressS * 1000) {
      const rate = ((sender.counters.accepted - lastProgress.accepted) * 1000) / (now - lastProgress.t);
      o.out(`[simulate ${fmt(elapsedS(), 0)}s] ${counts(sender.counters)}; ${fmt(rate, 1)} accepted/s`);
      lastProgress = { t: now, accepted: sender.counters.accepted };
    }
    await sleep(TICK_MS, undefined, { signal: o.signal }).catch(() => undefined);
  }
  await sender.drain(DRAIN_MS);
  return { ...sender.counters, seconds: elapsedS(), reason, notes: sender.notes };
}

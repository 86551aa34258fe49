import { performance } from "node:perf_hooks";
import { jsonOf, type Client } from "./http.js";
import { batchJson, type Traffic } from "./positions.js";

export interface GeneratorCounters {
  /** Positions in the requests sent. */
  sent: number;
  /** Positions the server answered as accepted. */
  accepted: number;
  /** Positions not sent because `maxInFlight` requests were still unanswered. */
  skipped: number;
  failedRequests: number;
  requests: number;
}

/**
 * The platform's ingest load: `rate` positions a second through POST /insert, one batch
 * every `tickMs` paced by the clock (each batch is what the clock says is due, so a late
 * tick sends more), rising linearly over `rampS`. When `maxInFlight` batches are still
 * unanswered a due batch is skipped, not queued: what the server accepted is the rate
 * it kept up with.
 */
export class InsertGenerator {
  readonly counters: GeneratorCounters = { sent: 0, accepted: 0, skipped: 0, failedRequests: 0, requests: 0 };
  firstFailure?: string;
  private t0 = 0;
  private due = 0;
  private ticks = 0;
  private inFlight = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly client: Client,
    private readonly traffic: Traffic,
    private readonly opts: { rate: number; tickMs: number; rampS: number; maxInFlight: number; batchMax: number },
  ) {}

  /** Positions due `t` seconds after the start. */
  private target(t: number): number {
    const { rate, rampS } = this.opts;
    if (t <= 0) return 0;
    if (t < rampS) return (rate * t * t) / (2 * rampS);
    return (rate * rampS) / 2 + rate * (t - rampS);
  }

  start(): void {
    this.t0 = performance.now();
    this.tick();
  }

  private tick = () => {
    if (this.stopped) return;
    const now = performance.now();
    const due = Math.floor(this.target((now - this.t0) / 1000));
    let n = due - this.due;
    this.due = due;
    while (n > 0) {
      const size = Math.min(n, this.opts.batchMax);
      n -= size;
      if (this.inFlight.size >= this.opts.maxInFlight) this.counters.skipped += size;
      else this.send(size);
    }
    this.ticks++;
    this.timer = setTimeout(this.tick, Math.max(0, this.t0 + this.ticks * this.opts.tickMs - performance.now()));
  };

  private send(size: number): void {
    const body = batchJson(this.traffic.take(size));
    this.counters.sent += size;
    this.counters.requests++;
    const p = this.client
      .postJson("/insert", body)
      .then((reply) => {
        const answer = jsonOf<{ accepted?: number }>(reply, "POST /insert");
        this.counters.accepted += answer.accepted ?? 0;
        if (answer.accepted !== size) throw new Error(`POST /insert took ${answer.accepted} of ${size}`);
      })
      .catch((err: unknown) => {
        // Requests cut off by stop() are not the server's failures.
        if (this.stopped) return;
        this.counters.failedRequests++;
        this.firstFailure ??= String(err instanceof Error ? err.message : err).slice(0, 300);
      })
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** Stops sending and cuts off the requests still unanswered (closes the client). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.client.close();
    await Promise.all([...this.inFlight]);
  }
}

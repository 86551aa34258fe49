import { latestPath, timeOf } from "./api.js";
import { sleep } from "./harness.js";
import { Client } from "./http.js";
import type { Account } from "./seed.js";

/**
 * The platform's other users: one client per account, each on a keep-alive connection of
 * its own, polling get_devices_latest every `everyMs` with the `time` its previous answer
 * gave (the first poll has none, as a client's first load), starts spread evenly over one
 * period. A poll that takes longer than the period delays the next, as in a browser.
 * Latencies are kept while `measuring` is on.
 */
export class Pollers {
  measuring = false;
  readonly latencies: number[] = [];
  polls = 0;
  errors = 0;
  firstError?: string;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly clients: Client[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly accounts: readonly Account[],
    private readonly everyMs: number,
  ) {}

  start(): void {
    this.accounts.forEach((a, i) => this.loops.push(this.loop(a, (i * this.everyMs) / this.accounts.length)));
  }

  private async loop(account: Account, offsetMs: number): Promise<void> {
    const client = new Client(this.baseUrl, { maxSockets: 1, timeoutMs: 30_000 });
    this.clients.push(client);
    let time: number | undefined;
    let next = Date.now() + offsetMs;
    while (!this.stopped) {
      await sleep(Math.max(0, next - Date.now()));
      if (this.stopped) break;
      next = Math.max(next + this.everyMs, Date.now());
      const measured = this.measuring;
      try {
        const reply = await client.get(latestPath(account.apiHash, time), true);
        this.polls++;
        const t = timeOf(reply);
        if (reply.status !== 200 || t === undefined) throw new Error(`HTTP ${reply.status}: ${reply.body?.toString("utf8").slice(0, 200)}`);
        time = t;
        if (measured) this.latencies.push(reply.ms);
      } catch (err) {
        // Polls cut off by stop() are not the server's failures.
        if (this.stopped) break;
        this.errors++;
        this.firstError ??= String(err instanceof Error ? err.message : err);
      }
    }
  }

  /** Stops polling and cuts off the polls still unanswered. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const c of this.clients) c.close();
    await Promise.all(this.loops);
  }
}

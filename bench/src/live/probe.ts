import { performance } from "node:perf_hooks";
import { insertBatch, latestOf, latestPath, mustTime, timeOf } from "./api.js";
import { sleep } from "./harness.js";
import type { Client } from "./http.js";
import { batchJson, homeOf, type FixClock } from "./positions.js";
import type { Account } from "./seed.js";

/**
 * Insert → visible: every `everyMs` a new position for the next of the measured account's
 * devices (a one-position POST /insert, at a latitude no earlier fix had), then a poll of
 * get_devices_latest as that account every `pollMs`, each with the `time` the previous
 * answer gave, until the device shows that latitude. The delay runs from sending the
 * insert to the end of the answer that shows it. A probe that is not visible after
 * `timeoutMs` counts as a timeout, at the time it was given up (a lower bound). One probe at a time: a slow one
 * delays the next rather than overlapping it.
 */
export class Probe {
  measuring = false;
  readonly delays: number[] = [];
  timeouts = 0;
  errors = 0;
  firstError?: string;
  private stopped = false;
  private done?: Promise<void>;

  constructor(
    private readonly client: Client,
    private readonly account: Account,
    private readonly clock: FixClock,
    private readonly opts: { everyMs: number; pollMs: number; timeoutMs: number },
  ) {}

  start(): void {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    const a = this.account;
    let time: number = mustTime(await this.client.get(latestPath(a.apiHash, Math.floor(Date.now() / 1000)), true));
    let next = Date.now();
    for (let k = 0; !this.stopped; k++) {
      await sleep(Math.max(0, next - Date.now()));
      if (this.stopped) break;
      next = Math.max(next + this.opts.everyMs, Date.now());
      const d = k % a.deviceIds.length;
      const id = a.deviceIds[d]!;
      const imei = a.imeis[d]!;
      const home = homeOf(d);
      const lat = Math.round((home.lat + 0.5 + (k % 100_000) * 1e-5) * 1e6) / 1e6;
      const measured = this.measuring;
      const sent = performance.now();
      try {
        await insertBatch(this.client, batchJson([{ imei, lat, lng: home.lng, fixTime: this.clock.next(imei), speed: 40 }]), 1);
        for (;;) {
          const reply = await this.client.get(latestPath(a.apiHash, time), true);
          const answer = latestOf(reply);
          time = timeOf(reply) ?? time;
          if (answer.items.some((i) => i.id === id && Math.abs(i.lat - lat) < 5e-7)) {
            if (measured) this.delays.push(performance.now() - sent);
            break;
          }
          const waited = performance.now() - sent;
          if (waited > this.opts.timeoutMs) {
            if (measured) {
              this.timeouts++;
              this.delays.push(waited);
            }
            break;
          }
          await sleep(this.opts.pollMs);
        }
      } catch (err) {
        if (this.stopped) break;
        this.errors++;
        this.firstError ??= String(err instanceof Error ? err.message : err).slice(0, 300);
        await sleep(this.opts.pollMs);
      }
    }
  }

  /** Stops probing and cuts off a probe under way (closes the client). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.client.close();
    await this.done;
  }
}

import { performance } from "node:perf_hooks";
import { sleep } from "./harness.js";
import { Client } from "./http.js";
import { InsertGenerator } from "./load-gen.js";
import { Pollers } from "./pollers.js";
import { Traffic, type FixClock } from "./positions.js";
import { Probe } from "./probe.js";
import { loadNote, ownCpuMs, type ServiceCpu } from "./proc.js";
import type { Population } from "./seed.js";
import { fmt, percentile, summarize, type Summary } from "./stats.js";

export interface LoadOptions {
  rate: number;
  tickMs: number;
  rampS: number;
  loadS: number;
  pollMs: number;
  probeMs: number;
  probePollMs: number;
  probeTimeoutMs: number;
}

export interface LoadResult {
  windowS: number;
  /** Positions the server accepted per second over the measured window. */
  positionsPerS: number;
  sentPerS: number;
  skipped: number;
  failedInserts: number;
  insertFailure?: string;
  polls: Summary;
  pollErrors: number;
  pollError?: string;
  insertToVisible: Summary;
  probeTimeouts: number;
  probeErrors: number;
  probeError?: string;
  /** The app's CPU per second of load, ms (1000 = one full core). */
  serverCpuMsPerS: number;
  /** The bench process's (generator, pollers, probe) likewise. */
  benchCpuMsPerS: number;
  /** Postgres's and Redis's, where the app uses them. */
  serviceCpuMsPerS?: ServiceCpu;
}

/**
 * The load phase: the platform ingests `rate` positions/s for the clients' devices while
 * every client polls, and the probe measures insert → visible on the measured account.
 * Unmeasured ramp first, then the measured window; progress every 10 s.
 */
export async function loadPhase(app: { url: string; cpuMs(): number; serviceCpuMs?: () => ServiceCpu }, population: Population, clock: FixClock, o: LoadOptions, log: (line: string) => void): Promise<LoadResult> {
  const maxInFlight = 8;
  const genClient = new Client(app.url, { maxSockets: maxInFlight, timeoutMs: 30_000 });
  const probeClient = new Client(app.url, { maxSockets: 1, timeoutMs: 30_000 });
  const clientImeis = population.clients.flatMap((c) => c.imeis);
  const generator = new InsertGenerator(genClient, new Traffic(clientImeis, clock, 100_000), { rate: o.rate, tickMs: o.tickMs, rampS: o.rampS, maxInFlight, batchMax: 10_000 });
  const pollers = new Pollers(app.url, population.clients, o.pollMs);
  const probe = new Probe(probeClient, population.measured, clock, { everyMs: o.probeMs, pollMs: o.probePollMs, timeoutMs: o.probeTimeoutMs });

  log(`  load: ${fmt(o.rate)} positions/s over ${fmt(clientImeis.length)} devices in batches every ${o.tickMs} ms, ${population.clients.length} clients polling every ${fmt(o.pollMs / 1000, 1)} s, a probe every ${o.probeMs} ms; ${o.rampS} s ramp, then ${o.loadS} s measured ${loadNote()}`);
  pollers.start();
  probe.start();
  generator.start();
  try {
    let last = { t: performance.now(), accepted: 0, cpu: app.cpuMs(), services: app.serviceCpuMs?.() };
    const progress = (label: string) => {
      const now = { t: performance.now(), accepted: generator.counters.accepted, cpu: app.cpuMs(), services: app.serviceCpuMs?.() };
      const s = (now.t - last.t) / 1000;
      const share = (ms: number) => `${fmt((ms / 1000 / s) * 100)}%`;
      const services = now.services && last.services ? ` (Postgres ${share(now.services.postgres - last.services.postgres)}, Redis ${share(now.services.redis - last.services.redis)})` : "";
      const d = probe.delays;
      log(
        `  ${label}: ${fmt((now.accepted - last.accepted) / s)} positions/s accepted, ${fmt(generator.counters.skipped)} skipped, ` +
          `server CPU ${share(now.cpu - last.cpu)} of a core${services}; polls ${fmt(pollers.polls)} (${pollers.errors} errors); ` +
          `probes ${d.length}${d.length > 0 ? `, p99 ${fmt(percentile(d, 99))} ms` : ""}${probe.timeouts > 0 ? `, ${probe.timeouts} timed out` : ""}`,
      );
      last = now;
    };
    for (let t = 0; t < o.rampS; t += 10) {
      await sleep(Math.min(10, o.rampS - t) * 1000);
      progress(`ramp ${Math.min(t + 10, o.rampS)}/${o.rampS} s`);
    }

    const start = { t: performance.now(), counters: { ...generator.counters }, cpu: app.cpuMs(), own: ownCpuMs(), services: app.serviceCpuMs?.() };
    pollers.measuring = true;
    probe.measuring = true;
    for (let t = 0; t < o.loadS; t += 10) {
      await sleep(Math.min(10, o.loadS - t) * 1000);
      progress(`load ${Math.min(t + 10, o.loadS)}/${o.loadS} s`);
    }
    pollers.measuring = false;
    probe.measuring = false;
    const end = { t: performance.now(), counters: { ...generator.counters }, cpu: app.cpuMs(), own: ownCpuMs(), services: app.serviceCpuMs?.() };
    const windowS = (end.t - start.t) / 1000;
    await Promise.all([generator.stop(), pollers.stop(), probe.stop()]);
    return {
      windowS,
      positionsPerS: (end.counters.accepted - start.counters.accepted) / windowS,
      sentPerS: (end.counters.sent - start.counters.sent) / windowS,
      skipped: end.counters.skipped - start.counters.skipped,
      failedInserts: end.counters.failedRequests - start.counters.failedRequests,
      insertFailure: generator.firstFailure,
      polls: summarize(pollers.latencies),
      pollErrors: pollers.errors,
      pollError: pollers.firstError,
      insertToVisible: summarize(probe.delays),
      probeTimeouts: probe.timeouts,
      probeErrors: probe.errors,
      probeError: probe.firstError,
      serverCpuMsPerS: (end.cpu - start.cpu) / windowS,
      benchCpuMsPerS: (end.own - start.own) / windowS,
      serviceCpuMsPerS:
        start.services && end.services ? { postgres: (end.services.postgres - start.services.postgres) / windowS, redis: (end.services.redis - start.services.redis) / windowS } : undefined,
    };
  } finally {
    await Promise.all([generator.stop(), pollers.stop(), probe.stop()]);
  }
}

import os from "node:os";
import { runLoad, type LoadResult, type LoadShape, type LoadSpec } from "./load.js";
import { brokerCpuClock } from "./broker-cpu.js";
import type { Running } from "./servers.js";

export const fmt = (n: number, digits = 0) => n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Other work on the machine skews every figure; the load average is printed with each phase. */
export const loadNote = () => `(load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, ${os.cpus().length} cores)`;

export const describeLoad = (r: LoadResult) =>
  `${fmt(r.rps)} req/s, server CPU ${fmt(r.serverCpuUsPerReq ?? NaN, 1)} µs/req (${fmt((r.serverCpuShare ?? NaN) * 100)}% of a core, load generator ${fmt(r.loadCpuShare * 100)}%), broker CPU ${fmt(r.brokerCpuUsPerReq ?? NaN, 1)} µs/req,${r.messagesPerSend ? ` ${fmt(r.messagesPerSend, 1)} msgs/Kafka send taking ${fmt(r.sendMsAvg ?? NaN, 2)} ms,` : ""} latency avg ${fmt(r.latencyAvgMs, 1)} ms, p50 ${fmt(r.latencyP50Ms)} ms, p99 ${fmt(r.latencyP99Ms)} ms, max ${fmt(r.latencyMaxMs)} ms` +
  (r.non2xx + r.errors + r.timeouts > 0
    ? `; non-2xx ${r.non2xx} ${JSON.stringify(r.statusCodes)}, errors ${r.errors}, timeouts ${r.timeouts}; first failure: ${r.firstFailure ?? "-"}`
    : "");

export interface MeasureOptions {
  durationS: number;
  warmupS: number;
  log(line: string): void;
}

/**
 * Load in windows of `windowS` for `seconds`, logging the broker's CPU per request in each.
 * A freshly started broker runs its produce path interpreted: measured cold it costs two to
 * three times the CPU per request it settles at after about a minute (8.3 → 5.0 µs/req in
 * two runs back to back), and on a 2-core machine that CPU comes out of the server's share.
 * Production brokers are long-running, so the bench measures against a warm one.
 */
export async function warmBroker(server: Running, spec: LoadShape, seconds: number, log: (line: string) => void, windowS = 5): Promise<void> {
  const broker = brokerCpuClock();
  log(`warming the broker for ${seconds} s (its JIT), ${windowS} s at a time ${loadNote()}`);
  for (let done = 0; done < seconds; done += windowS) {
    const durationS = Math.min(windowS, seconds - done);
    const broker0 = broker?.();
    const r = await runLoad({ ...spec, url: server.url, durationS } as LoadSpec);
    const perReq = broker && broker0 !== undefined && r.ok > 0 ? (broker() - broker0) / r.ok : NaN;
    log(`  broker warm-up ${done + durationS}/${seconds} s: ${fmt(r.rps)} req/s, broker CPU ${fmt(perReq, 1)} µs/req`);
  }
}

/** A warm-up run (JIT, connections, producer metadata), then the measured one. */
export async function measure(label: string, server: Running, spec: LoadShape, opts: MeasureOptions): Promise<LoadResult> {
  if (opts.warmupS > 0) {
    opts.log(`${label}: warming up for ${opts.warmupS} s`);
    await runLoad({ ...spec, url: server.url, durationS: opts.warmupS } as LoadSpec);
  }
  opts.log(`${label}: ${spec.connections} connections for ${opts.durationS} s ${loadNote()}`);
  // The server runs in this process and the load in a child, so this process's CPU time is the server's.
  const broker = brokerCpuClock();
  const cpu0 = process.cpuUsage();
  const broker0 = broker?.();
  const sent0 = server.sent ? { ...server.sent } : undefined;
  const r = await runLoad({ ...spec, url: server.url, durationS: opts.durationS } as LoadSpec);
  const cpu = process.cpuUsage(cpu0);
  r.serverCpuUsPerReq = r.ok > 0 ? (cpu.user + cpu.system) / r.ok : NaN;
  r.serverCpuShare = (cpu.user + cpu.system) / 1e6 / r.durationS;
  if (server.sent && sent0 && server.sent.sends > sent0.sends) {
    r.messagesPerSend = (server.sent.messages - sent0.messages) / (server.sent.sends - sent0.sends);
    r.sendMsAvg = (server.sent.sendMs - sent0.sendMs) / (server.sent.sends - sent0.sends);
  }
  if (broker && broker0 !== undefined && r.ok > 0) r.brokerCpuUsPerReq = (broker() - broker0) / r.ok;
  opts.log(`${label}: ${describeLoad(r)}`);
  return r;
}

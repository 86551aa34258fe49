import { performance } from "node:perf_hooks";
import { describe, fmt, median, summarize, type Summary } from "../live/stats.js";

/**
 * One thing measured: a request or query run sequentially, each time taken from its start to
 * its last byte, and the CPU that whoever answers it spent (this process for a raw query, the
 * app's process for an endpoint).
 */
export interface Measure {
  name: string;
  /** Runs one; returns the answer's size in bytes (and throws on a failure). */
  run(): Promise<number>;
  cpuMs(): number;
}

export interface Series {
  summary: Summary;
  cpuMsPerOp: number;
  bytes: number;
}

export interface SeriesOptions {
  samples: number;
  warmups: number;
  maxS: number;
}

async function series(m: Measure, opts: SeriesOptions, log: (line: string) => void): Promise<Series> {
  for (let i = 0; i < opts.warmups; i++) await m.run();
  const times: number[] = [];
  let bytes = 0;
  const deadline = Date.now() + opts.maxS * 1000;
  const cpu0 = m.cpuMs();
  while (times.length < opts.samples && (times.length === 0 || Date.now() < deadline)) {
    const t0 = performance.now();
    bytes = await m.run();
    times.push(performance.now() - t0);
  }
  const s: Series = { summary: summarize(times), cpuMsPerOp: (m.cpuMs() - cpu0) / times.length, bytes };
  const capped = times.length < opts.samples ? ` (stopped at ${opts.maxS} s)` : "";
  log(`    ${m.name.padEnd(34)} ${describe(s.summary)}${capped}, ${fmt(bytes / 1024, 1)} KB, CPU ${fmt(s.cpuMsPerOp, 2)} ms/op`);
  return s;
}

/** Each measure's figures: the median over the rounds of its p50, p99 and CPU per operation. */
export interface Figures {
  name: string;
  p50: number;
  p99: number;
  cpuMsPerOp: number;
  bytes: number;
  rounds: Series[];
}

/**
 * Runs the measures in `rounds` rounds, all of them in each round one after the other, so a
 * slow spell of the shared machine falls on every measure alike rather than on one.
 */
export async function measureRounds(measures: readonly Measure[], rounds: number, opts: SeriesOptions, log: (line: string) => void): Promise<Figures[]> {
  const all: Series[][] = measures.map(() => []);
  for (let r = 1; r <= rounds; r++) {
    log(`  round ${r}/${rounds}`);
    for (const [i, m] of measures.entries()) all[i]!.push(await series(m, opts, log));
  }
  return measures.map((m, i) => {
    const rs = all[i]!;
    return {
      name: m.name,
      p50: median(rs.map((s) => s.summary.p50)),
      p99: median(rs.map((s) => s.summary.p99)),
      cpuMsPerOp: median(rs.map((s) => s.cpuMsPerOp)),
      bytes: rs.at(-1)?.bytes ?? NaN,
      rounds: rs,
    };
  });
}

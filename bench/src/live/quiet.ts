import { fullListCount, fullListPath, insertBatch, latestOf, latestPath, mustTime } from "./api.js";
import type { Bare } from "./bare.js";
import { sleep } from "./harness.js";
import type { Client, Reply } from "./http.js";
import { batchJson, type Traffic } from "./positions.js";
import type { Account } from "./seed.js";
import type { ServiceCpu } from "./proc.js";
import { describe, fmt, summarize, type Summary } from "./stats.js";

/** One sequential measure: latencies, the server's CPU per request, and what went wrong. */
export interface Series {
  summary: Summary;
  cpuMsPerOp: number;
  /** Postgres's and Redis's CPU per request, where the app uses them. */
  serviceCpuMsPerOp?: ServiceCpu;
  bytes: number;
  failures: number;
  /** Answers that were not what the measure asks for (a "0 changed" poll listing devices). */
  unexpected: number;
  note?: string;
}

interface SeriesSpec {
  label: string;
  samples: number;
  warmups: number;
  maxS: number;
  cpuMs(): number;
  serviceCpuMs?: () => ServiceCpu;
  run(): Promise<Reply>;
  /** A problem with an answer, checked after its time is taken. */
  check?(reply: Reply): string | undefined;
}

async function series(spec: SeriesSpec, log: (line: string) => void): Promise<Series> {
  for (let i = 0; i < spec.warmups; i++) await spec.run();
  const times: number[] = [];
  let failures = 0;
  let unexpected = 0;
  let bytes = 0;
  let note: string | undefined;
  const deadline = Date.now() + spec.maxS * 1000;
  const cpu0 = spec.cpuMs();
  const services0 = spec.serviceCpuMs?.();
  while (times.length + failures < spec.samples && (times.length === 0 || Date.now() < deadline)) {
    const reply = await spec.run();
    if (reply.status !== 200) {
      failures++;
      note ??= `HTTP ${reply.status}`;
      if (failures >= 5 && times.length === 0) break;
      continue;
    }
    times.push(reply.ms);
    bytes = reply.bytes;
    const problem = spec.check?.(reply);
    if (problem) {
      unexpected++;
      note ??= problem;
    }
  }
  const ops = Math.max(1, times.length + failures);
  const cpuMsPerOp = (spec.cpuMs() - cpu0) / ops;
  const services1 = spec.serviceCpuMs?.();
  const serviceCpuMsPerOp = services0 && services1 ? { postgres: (services1.postgres - services0.postgres) / ops, redis: (services1.redis - services0.redis) / ops } : undefined;
  const s: Series = { summary: summarize(times), cpuMsPerOp, serviceCpuMsPerOp, bytes, failures, unexpected, note };
  const capped = times.length + failures < spec.samples ? ` (stopped at ${spec.maxS} s)` : "";
  const problems = failures + unexpected > 0 ? `; ${failures} failed, ${unexpected} unexpected: ${note}` : "";
  log(`    ${spec.label.padEnd(34)} ${describe(s.summary)}${capped}, ${fmt(bytes / 1024, 1)} KB, server CPU ${fmt(cpuMsPerOp, 2)} ms/req${serviceCpuMsPerOp ? ` (Postgres ${fmt(serviceCpuMsPerOp.postgres, 2)}, Redis ${fmt(serviceCpuMsPerOp.redis, 2)})` : ""}${problems}`);
  return s;
}

export interface QuietRound {
  empty: Series;
  changed: Series;
  full: Series;
  bareEmpty: Series;
  bareChanged: Series;
  bareFull: Series;
  changedItems: number;
  fullItems: number;
  /** From the push of the changed positions until a poll showed all of them, ms. */
  changedVisibleMs: number;
}

export interface QuietContext {
  app: { client: Client; cpuMs(): number };
  /** Postgres's and Redis's CPU so far, when the app uses them. */
  serviceCpuMs?: () => ServiceCpu;
  bare: Bare;
  bareClient: Client;
  measured: Account;
  /** The measured account's devices, for the changed positions. */
  traffic: Traffic;
  changed: number;
  samples: { empty: number; changed: number; full: number; maxS: number };
  log(line: string): void;
}

/** Waits into the next whole second, so a poll's `time` is later than every change so far. */
async function nextSecond(): Promise<void> {
  await sleep(1000 - (Date.now() % 1000) + 20);
}

/**
 * One round of the quiet measures on the measured account, each paired with the bare
 * server answering a body of the same size, back to back:
 *   1. get_devices_latest with nothing changed since the `time` it is given;
 *   2. the same after `changed` of its devices got a new position (polled from before the push);
 *   3. the full get_devices.
 */
export async function quietRound(ctx: QuietContext): Promise<QuietRound> {
  const { app, bare, bareClient, measured, log } = ctx;
  const hash = measured.apiHash;
  const appSeries = (label: string, samples: number, warmups: number, run: () => Promise<Reply>, check?: SeriesSpec["check"]) =>
    series({ label, samples, warmups, maxS: ctx.samples.maxS, cpuMs: app.cpuMs, serviceCpuMs: ctx.serviceCpuMs, run, check }, log);
  const bareSeries = (label: string, samples: number, warmups: number, name: string) =>
    series({ label, samples, warmups, maxS: ctx.samples.maxS, cpuMs: bare.cpuMs, run: () => bareClient.get(`/${name}`) }, log);

  // 1. Nothing changed since `t`.
  await nextSecond();
  const t = mustTime(await app.client.get(latestPath(hash, Math.floor(Date.now() / 1000)), true));
  const emptyBody = (await app.client.get(latestPath(hash, t), true)).body!;
  const notEmpty = (r: Reply) => {
    const n = latestOf(r).items.length;
    return n > 0 ? `a poll with nothing changed listed ${n} devices` : undefined;
  };
  const empty = await appSeries("get_devices_latest, 0 changed", ctx.samples.empty, 5, () => app.client.get(latestPath(hash, t), true), notEmpty);

  // 2. `changed` devices got a new position since t0.
  const t0 = mustTime(await app.client.get(latestPath(hash, t), true));
  const pushed = Date.now();
  await insertBatch(app.client, batchJson(ctx.traffic.take(ctx.changed)), ctx.changed);
  let changedReply: Reply;
  for (;;) {
    changedReply = await app.client.get(latestPath(hash, t0), true);
    if (latestOf(changedReply).items.length >= ctx.changed) break;
    if (Date.now() - pushed > 120_000) throw new Error(`${ctx.changed} changed devices did not show within 120 s`);
    await sleep(20);
  }
  const changedVisibleMs = Date.now() - pushed;
  const changedItems = latestOf(changedReply).items.length;
  const changed = await appSeries(`get_devices_latest, ${fmt(ctx.changed)} changed`, ctx.samples.changed, 3, () => app.client.get(latestPath(hash, t0)));

  // 3. The whole list; one answer is parsed to count its devices.
  const fullReply = await app.client.get(fullListPath(hash), true);
  const fullItems = fullListCount(fullReply);
  const full = await appSeries(`get_devices, ${fmt(fullItems)} devices`, ctx.samples.full, 1, () => app.client.get(fullListPath(hash)));

  // The baseline: the same bodies, prebuilt.
  await bare.setBodies({ empty: emptyBody, changed: changedReply.body!, full: fullReply.body! });
  const bareEmpty = await bareSeries("bare node:http, 0-changed body", ctx.samples.empty, 5, "empty");
  const bareChanged = await bareSeries("bare node:http, changed body", ctx.samples.changed, 3, "changed");
  const bareFull = await bareSeries("bare node:http, full-list body", ctx.samples.full, 2, "full");

  return { empty, changed, full, bareEmpty, bareChanged, bareFull, changedItems, fullItems, changedVisibleMs };
}

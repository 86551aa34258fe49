/**
 * CPU cost per request of ingest's own steps for one Traccar GET (thread CPU time):
 *
 *   pnpm --filter @fleet/bench experiment src/experiments/ingest-steps.ts
 */
import { randomUUID } from "node:crypto";
import { parsePosition } from "@fleet/ingest";
import { traccarPaths } from "../fixtures.js";

const N = 200_000;
const queries = traccarPaths(1000, Date.now() - 60_000).map((p) => p.slice(p.indexOf("?") + 1));

function cpuUs(label: string, fn: (i: number) => unknown) {
  let best = Infinity;
  for (let r = 0; r < 3; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) fn(i);
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / N);
  }
  console.log(`${label.padEnd(52)} ${best.toFixed(2).padStart(6)} µs/request`);
}

const fields = queries.map((q) => Object.fromEntries(new URLSearchParams(q)));
cpuUs("URLSearchParams → object (fastify uses fast-querystring)", (i) => Object.fromEntries(new URLSearchParams(queries[i % 1000]!)));
cpuUs("parsePosition (Traccar fields, JSON attributes)", (i) => parsePosition(fields[i % 1000]!));
const parsed = fields.map((f) => {
  const r = parsePosition(f);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.position;
});
let id = 1;
cpuUs("RawPosition: spread + JSON.stringify + Buffer.from", (i) => Buffer.from(JSON.stringify({ id: id++, ...parsed[i % 1000]!, serverTime: Date.now() })));
cpuUs("per-request deadline (setTimeout + race + clear)", () => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), 5000);
  });
  void Promise.race([Promise.resolve(), deadline]).finally(() => clearTimeout(timer));
});
cpuUs("genReqId randomUUID()", () => randomUUID());

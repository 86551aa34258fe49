/**
 * The load generator's process: `runLoad` forks this file with a LoadSpec as argv[2],
 * and it sends one LoadResult back over IPC.
 */
import autocannon, { type AutocannonOptions, type AutocannonRequest } from "autocannon";
import { batchBody, traccarPaths } from "./fixtures.js";
import type { LoadResult, LoadSpec } from "./load.js";

const spec = JSON.parse(process.argv[2] ?? "") as LoadSpec;

let firstFailure: string | undefined;
const onResponse = (status: number, body: string) => {
  if ((status < 200 || status > 299) && firstFailure === undefined) firstFailure = `${status} ${body.slice(0, 300)}`;
};

function options(): AutocannonOptions {
  const base = { url: spec.url, connections: spec.connections, duration: spec.durationS, timeout: 10 };
  if (spec.kind === "traccar-get") {
    // A different device on every request, ~`devices` of them, as a real Traccar forward sends.
    const paths = traccarPaths(spec.devices, spec.fixTime);
    let next = 0;
    const request: AutocannonRequest = {
      method: "GET",
      onResponse,
      setupRequest: (req) => {
        const path = paths[next]!;
        next = next + 1 === paths.length ? 0 : next + 1;
        return { ...req, path };
      },
    };
    return { ...base, requests: [request] };
  }
  const request: AutocannonRequest = {
    method: "POST",
    path: "/insert",
    headers: { "content-type": "application/json" },
    body: batchBody(spec.batchSize, spec.devices, spec.fixTime),
    onResponse,
  };
  return { ...base, requests: [request] };
}

const cpu0 = process.cpuUsage();
const r = await autocannon(options());
const cpu = process.cpuUsage(cpu0);
const result: LoadResult = {
  rps: r["2xx"] / r.duration,
  ok: r["2xx"],
  non2xx: r.non2xx,
  errors: r.errors,
  timeouts: r.timeouts,
  latencyAvgMs: r.latency.average,
  latencyP50Ms: r.latency.p50,
  latencyP99Ms: r.latency.p99,
  latencyMaxMs: r.latency.max,
  durationS: r.duration,
  loadCpuShare: (cpu.user + cpu.system) / 1e6 / r.duration,
  statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, { count }]) => [code, count])),
  firstFailure,
};
process.send?.(result, () => process.exit(0));

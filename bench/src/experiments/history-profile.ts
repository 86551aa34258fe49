/**
 * Times get_history for the bench's device-day (or a get_history_messages page, WHICH=page1|deep) on a kept BENCH_HISTORY_DATA_DIR, N times in this process,
 * for a CPU profile (`node --cpu-prof ...`): p50, p99 and CPU per request, nothing else.
 */
import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { Client } from "../live/http.js";
import { endpointPaths, checkedGet, startAppOn } from "../history/endpoints.js";
import { layoutOf } from "../history/layout.js";
import { loadHistorySettings } from "../history/settings.js";

const dir = process.env.BENCH_HISTORY_DATA_DIR!;
const n = Number(process.env.N ?? 100);
/** Which request: day (get_history), page1 or deep (get_history_messages). */
const which = (process.env.WHICH ?? "day") as "day" | "page1" | "deep";
const marker = JSON.parse(await readFile(`${dir}/bench-history.json`, "utf8"));
const layout = layoutOf(loadHistorySettings(), marker.end);
const app = await startAppOn(dir);
const client = new Client(app.url, { maxSockets: 1, timeoutMs: 120_000 });
const paths = endpointPaths({ apiHash: marker.owner.apiHash, deviceId: marker.owner.deviceIds[0], layout, pageSize: 50, deepOffset: 231850 });
for (let i = 0; i < 5; i++) await checkedGet(client, paths[which]);
const times: number[] = [];
const c0 = process.cpuUsage();
for (let i = 0; i < n; i++) {
  const t = performance.now();
  await checkedGet(client, paths[which]);
  times.push(performance.now() - t);
}
const c = process.cpuUsage(c0);
times.sort((a, b) => a - b);
console.log(`p50=${times[Math.floor(n / 2)]!.toFixed(1)} p99=${times[Math.floor(n * 0.99)]!.toFixed(1)} cpu/op=${((c.user + c.system) / 1000 / n).toFixed(1)}`);
await app.close();
process.exit(0);

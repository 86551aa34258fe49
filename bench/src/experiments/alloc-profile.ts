/**
 * Where the ingest server allocates under the GET load of the benchmark: V8's sampling heap
 * profiler, counting objects young GCs already freed, prints the heaviest allocation sites in
 * bytes per request. Allocation volume is what the young GC and the caches pay for.
 *   pnpm --filter @fleet/bench experiment src/experiments/alloc-profile.ts
 */
import { Session } from "node:inspector/promises";
import { createKafkaBus } from "@fleet/bus";
import { IngestEnvSchema, loadConfig } from "@fleet/config";
import { kafkaTest, serviceUrls } from "@fleet/testkit";
import { runLoad } from "../load.js";
import { startIngestServer } from "../servers.js";

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

const names = kafkaTest("alloc");
const topic = names.topic("raw");
const bus = createKafkaBus({ brokers: serviceUrls.kafka.split(","), clientId: "alloc" });
await bus.ensureTopics([topic], 12);
const server = await startIngestServer(await bus.producer(), loadConfig(IngestEnvSchema, process.env), topic);
const session = new Session();
session.connect();
try {
  const spec = { kind: "traccar-get", url: server.url, connections: 100, devices: 1000, fixTime: Date.now() } as const;
  await runLoad({ ...spec, durationS: 3 });
  await session.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  const r = await runLoad({ ...spec, durationS: 10 });
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: Node } };
  const sites = new Map<string, number>();
  let total = 0;
  const walk = (n: Node, stack: string[]) => {
    const here = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/.*node_modules\/\.pnpm\/([^/@]+)[^ ]*\/([^/]+)$/, "$1/$2").replace(/.*\/work\/main\//, "")}:${n.callFrame.lineNumber + 1}`;
    const s = [here, ...stack].slice(0, 3);
    if (n.selfSize > 0) {
      sites.set(s.join(" <- "), (sites.get(s.join(" <- ")) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) walk(c, s);
  };
  walk(profile.head, []);
  console.log(`${Math.round(r.rps)} req/s; sampled allocation ${(total / r.ok / 1024).toFixed(1)} KB per request`);
  for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(bytes / r.ok).toFixed(0).padStart(6)} B/req  ${site}`);
} finally {
  session.disconnect();
  await server.close();
  await bus.close();
  await names.cleanup();
}

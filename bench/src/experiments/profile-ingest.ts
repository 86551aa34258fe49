/**
 * CPU profile of the ingest server under the GET load of the benchmark: writes a
 * .cpuprofile (open it in Chrome DevTools) and prints the heaviest functions by self time.
 * Run: pnpm --filter @fleet/bench experiment --cpu-prof --cpu-prof-dir=/tmp/prof src/experiments/profile-ingest.ts
 */
import { createKafkaBus } from "@fleet/bus";
import { IngestEnvSchema, loadConfig } from "@fleet/config";
import { kafkaTest, serviceUrls } from "@fleet/testkit";
import { runLoad } from "../load.js";
import { startIngestServer } from "../servers.js";

const names = kafkaTest("profile");
const topic = names.topic("raw");
const bus = createKafkaBus({ brokers: serviceUrls.kafka.split(","), clientId: "profile" });
await bus.ensureTopics([topic], 12);
const server = await startIngestServer(await bus.producer(), loadConfig(IngestEnvSchema, process.env), topic);
try {
  const r = await runLoad({ kind: "traccar-get", url: server.url, connections: 100, durationS: 10, devices: 1000, fixTime: Date.now() });
  console.log(`ingest GET: ${Math.round(r.rps)} req/s, p99 ${r.latencyP99Ms} ms`);
} finally {
  await server.close();
  await bus.close();
  await names.cleanup();
}

/**
 * What fastify costs on the hot GET: the same parsePosition and publisher behind a bare
 * node:http handler, against the real ingest app, same load, same run.
 * Run: pnpm --filter @fleet/bench experiment src/experiments/ingest-without-fastify.ts
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createKafkaBus } from "@fleet/bus";
import { IngestEnvSchema, loadConfig } from "@fleet/config";
import { createPublisher, parsePosition } from "@fleet/ingest";
import { kafkaTest, serviceUrls } from "@fleet/testkit";
import { runLoad } from "../load.js";
import { startIngestServer } from "../servers.js";

const names = kafkaTest("nofastify");
const topic = names.topic("raw");
const bus = createKafkaBus({ brokers: serviceUrls.kafka.split(","), clientId: "nofastify" });
await bus.ensureTopics([topic], 12);
const config = loadConfig(IngestEnvSchema, process.env);
const OK = '{"status":1}';

async function rawServer() {
  const publisher = createPublisher({ producer: await bus.producer(), topic, batchMax: config.INGEST_BATCH_MAX, lingerMs: config.INGEST_LINGER_MS, sendTimeoutMs: config.INGEST_SEND_TIMEOUT_MS });
  const server = http.createServer((req, res) => {
    const q = req.url!.indexOf("?");
    const fields = Object.fromEntries(new URLSearchParams(q < 0 ? "" : req.url!.slice(q + 1)));
    const parsed = parsePosition(fields);
    if (!parsed.ok) {
      res.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ status: 0, errors: parsed.errors }));
      return;
    }
    publisher.publish([parsed.position]).then(
      () => res.writeHead(200, { "content-type": "application/json", "content-length": OK.length }).end(OK),
      () => res.writeHead(503).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: async () => { server.closeAllConnections(); server.close(); await publisher.close(); } };
}

try {
  const servers = { fastify: async () => startIngestServer(await bus.producer(), config, topic), "node:http": rawServer };
  for (const [name, start] of Object.entries(servers)) {
    const server = await start();
    const r = await runLoad({ kind: "traccar-get", url: server.url, connections: 100, durationS: 10, devices: 1000, fixTime: Date.now() });
    console.log(`${name}: ${Math.round(r.rps)} req/s, p99 ${r.latencyP99Ms} ms`);
    await server.close();
  }
} finally {
  await bus.close();
  await names.cleanup();
}

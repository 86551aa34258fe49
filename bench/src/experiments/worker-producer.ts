/**
 * What-if: the Kafka producer (kafkajs encoding, CRC, envelope) in a worker thread, so the
 * ingest server's event loop keeps only HTTP, parsing and JSON. Same GET load against the
 * stock ingest and against ingest over the worker producer, in one run.
 * Run: pnpm --filter @fleet/bench experiment src/experiments/worker-producer.ts
 */
import { Worker } from "node:worker_threads";
import { createKafkaBus, type BusProducer } from "@fleet/bus";
import { IngestEnvSchema, loadConfig } from "@fleet/config";
import { kafkaTest, serviceUrls } from "@fleet/testkit";
import { runLoad } from "../load.js";
import { startIngestServer } from "../servers.js";

const names = kafkaTest("worker");
const topic = names.topic("raw");
const brokers = serviceUrls.kafka.split(",");
const bus = createKafkaBus({ brokers, clientId: "worker-exp" });
await bus.ensureTopics([topic], 12);
const config = loadConfig(IngestEnvSchema, process.env);

async function workerProducer(): Promise<BusProducer> {
  // A worker does not inherit tsx's loader: register it, then load the TypeScript entry.
  const entry = new URL("./producer-worker.ts", import.meta.url).href;
  const boot = `import("tsx/esm/api").then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  const worker = new Worker(boot, { eval: true, workerData: { brokers, topic }, execArgv: ["--conditions=@fleet/source"] });
  const pending = new Map<number, { resolve(): void; reject(e: Error): void }>();
  let next = 0;
  let closed: (() => void) | undefined;
  await new Promise<void>((resolve) => worker.once("message", () => resolve()));
  worker.on("message", (m: { id: number; error?: string } | "closed") => {
    if (m === "closed") return closed?.();
    const p = pending.get(m.id)!;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error));
    else p.resolve();
  });
  return {
    send: (t, messages, opts) =>
      new Promise<void>((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, topic: t, messages, timeoutMs: opts?.timeoutMs });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        closed = () => void worker.terminate().then(() => resolve());
        worker.postMessage("close");
      }),
  };
}

try {
  for (let round = 0; round < 2; round++) {
    for (const [name, make] of [["stock", () => bus.producer()], ["worker", workerProducer]] as const) {
      const server = await startIngestServer(await make(), config, topic);
      const r = await runLoad({ kind: "traccar-get", url: server.url, connections: 100, durationS: 10, devices: 1000, fixTime: Date.now() });
      console.log(`${name}: ${Math.round(r.rps)} req/s, p99 ${r.latencyP99Ms} ms, server CPU ${r.serverCpuUsPerReq?.toFixed(1) ?? "?"} µs/req`);
      await server.close();
    }
  }
} finally {
  await bus.close();
  await names.cleanup();
}

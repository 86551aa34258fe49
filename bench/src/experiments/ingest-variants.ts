/**
 * Ingest publisher/producer variants under the same load as `pnpm bench:ingest`:
 *
 *   VARIANTS=stock,linger0,sharded4 BENCH_PARTS=get,batch \
 *     pnpm --filter @fleet/bench experiment src/experiments/ingest-variants.ts
 *
 * Each variant runs the real ingest app (routes, parsing) over a different publisher or
 * bus producer; "bare" is the node:http baseline. Rounds repeat the list so that drifts
 * in machine load hit every variant alike.
 */
import { logLevel } from "kafkajs";
import { Type } from "@sinclair/typebox";
import { createKafkaBus, type BusProducer } from "@fleet/bus";
import { IngestEnvSchema, loadConfigOrExit } from "@fleet/config";
import { createPublisher, type Publisher } from "@fleet/ingest";
import { kafkaTest, serviceUrls } from "@fleet/testkit";
import type { LoadResult } from "../load.js";
import { fmt, measure } from "../measure.js";
import { countingProducer, type SendCounter } from "../counting.js";
import { startBareServer, startIngestApp, type Running } from "../servers.js";
import { loadBenchSettings } from "../settings.js";
import { createGroupCommitPublisher } from "./publisher.js";
import { kafkaProducer, packedProducer, shardedProducer } from "./producers.js";

const settings = loadBenchSettings();
const ingest = loadConfigOrExit(IngestEnvSchema);
const env = loadConfigOrExit(Type.Object({ VARIANTS: Type.String({ default: "bare,stock" }), ROUNDS: Type.Integer({ minimum: 1, default: 1 }) }));
const parts = new Set(settings.BENCH_PARTS.split(","));
const t0 = Date.now();
const log = (line: string) => console.log(`[exp ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${line}`);

const brokers = serviceUrls.kafka.split(",");
const names = kafkaTest("bench-exp");
const topic = names.topic("ingest-raw");
const bus = createKafkaBus({ brokers, clientId: "fleet-bench-exp", logLevel: logLevel.WARN });
await bus.ensureTopics([topic], 12);

const publisherOpts = { batchMax: ingest.INGEST_BATCH_MAX, lingerMs: ingest.INGEST_LINGER_MS, sendTimeoutMs: ingest.INGEST_SEND_TIMEOUT_MS };
let sent: SendCounter = { sends: 0, messages: 0, sendMs: 0 };
const counted = (p: BusProducer) => countingProducer(p, sent);
const shards = async (n: number, idempotent = true) => shardedProducer(await Promise.all(Array.from({ length: n }, () => kafkaProducer({ brokers, idempotent, maxInFlight: 1 }))), 12);

/** name → the publisher it runs; every variant keeps acks=all. */
const variants: Record<string, () => Promise<Publisher>> = {
  stock: async () => createPublisher({ topic, producer: counted(await bus.producer()), ...publisherOpts }),
  linger0: async () => createPublisher({ topic, producer: counted(await bus.producer()), ...publisherOpts, lingerMs: 0 }),
  linger1: async () => createPublisher({ topic, producer: counted(await bus.producer()), ...publisherOpts, lingerMs: 1 }),
  batch5000: async () => createPublisher({ topic, producer: counted(await bus.producer()), ...publisherOpts, batchMax: 5000 }),
  /** A size trigger the 100 connections reach: a send leaves as soon as this many wait, before the linger. */
  batch32: async () => createPublisher({ topic, producer: counted(await bus.producer()), ...publisherOpts, batchMax: 32 }),
  batch48: async () => createPublisher({ topic, producer: counted(await bus.producer()), ...publisherOpts, batchMax: 48 }),
  batch64: async () => createPublisher({ topic, producer: counted(await bus.producer()), ...publisherOpts, batchMax: 64 }),
  linger3: async () => createPublisher({ topic, producer: counted(await bus.producer()), ...publisherOpts, lingerMs: 3 }),
  /** Partitions split between two of the platform's (packing) producers: two sends in flight, one per connection. */
  "bus-sharded2": async () => createPublisher({ topic, producer: counted(shardedProducer([await bus.producer(), await bus.producer()], 12)), ...publisherOpts }),
  sharded2: async () => createPublisher({ topic, producer: counted(await shards(2)), ...publisherOpts }),
  sharded4: async () => createPublisher({ topic, producer: counted(await shards(4)), ...publisherOpts }),
  "sharded4-linger0": async () => createPublisher({ topic, producer: counted(await shards(4)), ...publisherOpts, lingerMs: 0 }),
  nonidem5: async () => createPublisher({ topic, producer: counted(await kafkaProducer({ brokers, idempotent: false, maxInFlight: 5 })), ...publisherOpts }),
  gc1: async () => createGroupCommitPublisher({ producer: counted(await bus.producer()), topic, maxItems: 5000, maxInFlight: 1, sendTimeoutMs: 5000, perRequestDeadline: true }),
  "gc1-nodeadline": async () => createGroupCommitPublisher({ producer: counted(await bus.producer()), topic, maxItems: 5000, maxInFlight: 1, sendTimeoutMs: 5000, perRequestDeadline: false }),
  "gc4-sharded4": async () => createGroupCommitPublisher({ producer: counted(await shards(4)), topic, maxItems: 5000, maxInFlight: 4, sendTimeoutMs: 5000, perRequestDeadline: true }),
  "gc2-sharded2": async () => createGroupCommitPublisher({ producer: counted(await shards(2)), topic, maxItems: 5000, maxInFlight: 2, sendTimeoutMs: 5000, perRequestDeadline: true }),
  packed: async () => createPublisher({ topic, producer: counted(await packedProducer(brokers, 12)), ...publisherOpts }),
  "gc1-packed": async () => createGroupCommitPublisher({ producer: counted(await packedProducer(brokers, 12)), topic, maxItems: 5000, maxInFlight: 1, sendTimeoutMs: 5000, perRequestDeadline: false }),
  "gc1-packed-nodeadline": async () => createGroupCommitPublisher({ producer: counted(await packedProducer(brokers, 12)), topic, maxItems: 5000, maxInFlight: 1, sendTimeoutMs: 5000, perRequestDeadline: false }),
  /** The real publisher over a producer that acknowledges every send 1 ms later without sending it: what is not Kafka's. */
  "no-kafka": async () =>
    createPublisher({ topic, producer: counted({ send: () => new Promise<void>((resolve) => setTimeout(resolve, 1)), close: async () => {} }), ...publisherOpts }),
  /** The publisher answers at once: the HTTP + parsing cost of the app alone. */
  "no-bus": async () => ({ publish: async () => {}, close: async () => {} }),
};

const fixTime = Date.now() - 60_000;
const results: { variant: string; part: string; r: LoadResult }[] = [];
const opts = { durationS: settings.BENCH_DURATION_S, warmupS: settings.BENCH_WARMUP_S, log };
try {
  for (let round = 0; round < env.ROUNDS; round++) {
    for (const name of env.VARIANTS.split(",")) {
      let server: Running;
      if (name === "bare") server = await startBareServer();
      else {
        const make = variants[name.replace(/-(eager|fastify)$/, "")];
        if (!make) throw new Error(`unknown variant ${name}; known: bare, ${Object.keys(variants).join(", ")}`);
        sent = { sends: 0, messages: 0, sendMs: 0 };
        // "-eager": the same variant with fastify's own child logger per request instead of the lazy one;
        // "-fastify": with the GET answered by fastify's route instead of the fast path.
        server = { ...(await startIngestApp(await make(), { eagerLoggers: name.endsWith("-eager"), fastifyOnly: name.endsWith("-fastify") })), sent };
      }
      try {
        if (parts.has("get")) {
          const r = await measure(`${name} GET`, server, { kind: "traccar-get", connections: settings.BENCH_CONNECTIONS, devices: settings.BENCH_DEVICES, fixTime }, opts);
          results.push({ variant: name, part: "get", r });
        }
        if (parts.has("batch") && name !== "bare") {
          const spec = { kind: "batch-post", connections: settings.BENCH_BATCH_CONNECTIONS, devices: settings.BENCH_DEVICES, fixTime, batchSize: settings.BENCH_BATCH_SIZE } as const;
          const r = await measure(`${name} POST ×${settings.BENCH_BATCH_SIZE}`, server, spec, opts);
          results.push({ variant: name, part: "batch", r });
        }
      } finally {
        await server.close();
      }
    }
  }
} finally {
  await bus.close();
  await names.cleanup();
}
console.log("\nvariant              part   req/s     pos/s     p50  p99   server µs/req  broker µs/req  msgs/send");
for (const { variant, part, r } of results) {
  const pos = part === "batch" ? r.rps * settings.BENCH_BATCH_SIZE : r.rps;
  console.log(
    `${variant.padEnd(20)} ${part.padEnd(6)} ${fmt(r.rps).padStart(8)} ${fmt(pos).padStart(9)} ${String(r.latencyP50Ms).padStart(4)} ${String(r.latencyP99Ms).padStart(4)} ${fmt(r.serverCpuUsPerReq ?? NaN, 1).padStart(8)} ${fmt(r.brokerCpuUsPerReq ?? NaN, 1).padStart(14)} ${fmt(r.messagesPerSend ?? NaN, 1).padStart(10)}${r.non2xx + r.errors ? ` (non-2xx ${r.non2xx}, errors ${r.errors})` : ""}`,
  );
}
process.exit(0);

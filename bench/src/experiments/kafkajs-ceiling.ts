/**
 * How fast can kafkajs itself produce the bench's raw positions (pre-serialised), by
 * batch size, requests in flight and idempotence? The ceiling for ingest's POST path
 * and for the tracker's enriched output.
 *
 *   pnpm --filter @fleet/bench experiment src/experiments/kafkajs-ceiling.ts
 */
import { Kafka, Partitioners, logLevel } from "kafkajs";
import { partitionForKey } from "@fleet/bus";
import { kafkaTest, serviceUrls } from "@fleet/testkit";
import { rawPosition } from "../fixtures.js";
import { loadNote } from "../measure.js";

const N = Number(process.env.N ?? 200_000);
const brokers = serviceUrls.kafka.split(",");
const names = kafkaTest("bench-ceiling");
const topic = names.topic("raw");
const kafka = new Kafka({ clientId: "fleet-bench-ceiling", brokers, logLevel: logLevel.WARN });
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: [{ topic, numPartitions: 12 }], waitForLeaders: true });
await admin.disconnect();

const messages = Array.from({ length: N }, (_, n) => {
  const p = rawPosition(n, 1000, Date.now() - 3_600_000, 1e12);
  return { key: p.uniqueId, value: Buffer.from(JSON.stringify(p)) };
});
console.log(`${N} messages of ~${messages[0]!.value.length} bytes ${loadNote()}`);

const variants = [
  { idempotent: true, batch: 1000, inFlight: 1 },
  { idempotent: true, batch: 10_000, inFlight: 1 },
  { idempotent: true, batch: 1000, inFlight: 4 },
  { idempotent: false, batch: 1000, inFlight: 4 },
  { idempotent: false, batch: 10_000, inFlight: 4 },
];
try {
  for (const v of variants) {
    const producer = kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: v.idempotent,
      maxInFlightRequests: v.idempotent ? 1 : v.inFlight,
      ...(v.idempotent ? { retry: { retries: Number.MAX_SAFE_INTEGER } } : {}),
    });
    await producer.connect();
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    const inFlight = new Set<Promise<unknown>>();
    for (let i = 0; i < N; i += v.batch) {
      const p = producer.send({ topic, acks: -1, messages: messages.slice(i, i + v.batch) });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      if (inFlight.size >= v.inFlight) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    console.log(
      `idempotent=${String(v.idempotent).padEnd(5)} batch=${String(v.batch).padStart(6)} inFlight=${v.inFlight}: ${Math.round(N / s).toLocaleString("en").padStart(8)} msg/s, ${((c.user + c.system) / N).toFixed(1)} µs CPU/msg`,
    );
    await producer.disconnect();
  }
  // Packed: the positions of one flush that share a partition travel as one Kafka message
  // (a JSON array), sent to that partition explicitly; per-device order is unchanged.
  for (const v of [{ batch: 1000, inFlight: 1 }, { batch: 100, inFlight: 1 }]) {
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, idempotent: true, maxInFlightRequests: 1, retry: { retries: Number.MAX_SAFE_INTEGER } });
    await producer.connect();
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i += v.batch) {
      const byPartition = new Map<number, Buffer[]>();
      for (const m of messages.slice(i, i + v.batch)) {
        const p = partitionForKey(m.key, 12);
        const list = byPartition.get(p) ?? [];
        list.push(m.value);
        byPartition.set(p, list);
      }
      const packed = [...byPartition].map(([partition, values]) => ({ partition, value: Buffer.concat([Buffer.from("["), ...values.flatMap((b, k) => (k === 0 ? [b] : [Buffer.from(","), b])), Buffer.from("]")]) }));
      await producer.send({ topic, acks: -1, messages: packed });
    }
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    console.log(`packed per partition, idempotent, flush=${String(v.batch).padStart(5)}: ${Math.round(N / s).toLocaleString("en").padStart(8)} positions/s, ${((c.user + c.system) / N).toFixed(1)} µs CPU/position`);
    await producer.disconnect();
  }
} finally {
  await names.cleanup();
}

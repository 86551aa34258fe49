/**
 * How fast kafkajs alone drains the tracker's backlog (eachBatch that only resolves
 * offsets, and one that also JSON.parses each value): the ceiling under the tracker.
 *
 *   N=300000 pnpm --filter @fleet/bench experiment src/experiments/consumer-ceiling.ts
 */
import { Kafka, Partitioners, logLevel } from "kafkajs";
import { kafkaTest, serviceUrls } from "@fleet/testkit";
import { rawPosition } from "../fixtures.js";
import { loadNote } from "../measure.js";

const N = Number(process.env.N ?? 300_000);
const brokers = serviceUrls.kafka.split(",");
const names = kafkaTest("bench-consume");
const topic = names.topic("raw");
const kafka = new Kafka({ clientId: "fleet-bench-consume", brokers, logLevel: logLevel.WARN });
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: [{ topic, numPartitions: 12 }], waitForLeaders: true });
await admin.disconnect();
try {
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  for (let i = 0; i < N; i += 10_000) {
    const messages = Array.from({ length: Math.min(10_000, N - i) }, (_, k) => {
      const p = rawPosition(i + k, 1000, Date.now() - 3_600_000, 1e12);
      return { key: p.uniqueId, value: JSON.stringify(p) };
    });
    await producer.send({ topic, acks: -1, messages });
  }
  await producer.disconnect();
  console.log(`${N} messages produced ${loadNote()}`);

  for (const [label, parse, concurrently] of [
    ["resolve only, 1 partition at a time", false, 1],
    ["resolve only, 12 partitions concurrently", false, 12],
    ["JSON.parse each, 12 partitions concurrently", true, 12],
  ] as const) {
    const consumer = kafka.consumer({ groupId: names.groupId(label.replace(/\W+/g, "-")) });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    let seen = 0;
    let done: () => void;
    const finished = new Promise<void>((r) => (done = r));
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    await consumer.run({
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: concurrently,
      eachBatch: async ({ batch, resolveOffset }) => {
        if (parse) for (const m of batch.messages) JSON.parse(m.value!.toString("utf8"));
        const last = batch.messages.at(-1);
        if (last) resolveOffset(last.offset);
        seen += batch.messages.length;
        if (seen >= N) done();
      },
    });
    await finished;
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    console.log(`${label.padEnd(46)} ${Math.round(N / s).toLocaleString("en").padStart(9)} msg/s, ${((c.user + c.system) / N).toFixed(1)} µs CPU/msg`);
    await consumer.disconnect();
  }
} finally {
  await names.cleanup();
}

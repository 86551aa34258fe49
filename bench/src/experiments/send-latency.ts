/**
 * Round-trip time of one acks=all send through @fleet/bus's producer, by messages per
 * send: what a request waits for at least, and what bounds the sends per second of a
 * producer that has one request in flight.
 *
 *   pnpm --filter @fleet/bench experiment src/experiments/send-latency.ts
 */
import { createKafkaBus } from "@fleet/bus";
import { kafkaTest, serviceUrls } from "@fleet/testkit";
import { rawPosition } from "../fixtures.js";
import { loadNote } from "../measure.js";

const names = kafkaTest("bench-rtt");
const topic = names.topic("raw");
const bus = createKafkaBus({ brokers: serviceUrls.kafka.split(","), clientId: "fleet-bench-rtt" });
await bus.ensureTopics([topic], 12);
const producer = await bus.producer();
console.log(loadNote());
try {
  for (const size of [1, 10, 50, 200, 1000]) {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const messages = Array.from({ length: size }, (_, k) => {
        const p = rawPosition(i * size + k, 1000, Date.now() - 60_000, 1e12);
        return { key: p.uniqueId, value: Buffer.from(JSON.stringify(p)) };
      });
      const t0 = process.hrtime.bigint();
      await producer.send(topic, messages);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    times.sort((a, b) => a - b);
    const q = (f: number) => times[Math.floor(f * (times.length - 1))]!.toFixed(2);
    console.log(`${String(size).padStart(5)} msgs/send: p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, p99 ${q(0.99)} ms`);
  }
} finally {
  await producer.close();
  await bus.close();
  await names.cleanup();
}

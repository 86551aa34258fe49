/**
 * Producer variants for experiments: BusProducer implementations built on kafkajs
 * directly, to compare with @fleet/bus's (idempotent, one request in flight per broker).
 */
import { Kafka, Partitioners, logLevel, type Producer } from "kafkajs";
import { partitionForKey, type BusProducer, type OutgoingMessage } from "@fleet/bus";

export interface VariantProducerOptions {
  brokers: string[];
  idempotent: boolean;
  /** kafkajs maxInFlightRequests (per broker connection). */
  maxInFlight: number;
}

export async function kafkaProducer(opts: VariantProducerOptions): Promise<BusProducer> {
  const kafka = new Kafka({ clientId: "fleet-bench-variant", brokers: opts.brokers, logLevel: logLevel.WARN });
  const p: Producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    idempotent: opts.idempotent,
    maxInFlightRequests: opts.maxInFlight,
    ...(opts.idempotent ? { retry: { retries: Number.MAX_SAFE_INTEGER } } : {}),
  });
  await p.connect();
  return {
    async send(topic, messages) {
      if (messages.length === 0) return;
      await p.send({ topic, acks: -1, timeout: 5000, messages: messages.map((m) => ({ key: m.key, value: m.value })) });
    },
    close: () => p.disconnect(),
  };
}

/**
 * N producers, each owning the partitions p with p % N === its index: a key always goes
 * through the same producer, so per-device order holds while N requests are in flight.
 * (kafkajs's idempotent producer holds a per-broker lock for the whole produce round trip.)
 */
export function shardedProducer(shards: BusProducer[], partitions: number): BusProducer {
  return {
    async send(topic, messages, opts) {
      const byShard: OutgoingMessage[][] = shards.map(() => []);
      for (const m of messages) byShard[partitionForKey(m.key, partitions) % shards.length]!.push(m);
      await Promise.all(byShard.map((ms, i) => (ms.length > 0 ? shards[i]!.send(topic, ms, opts) : undefined)));
    },
    close: async () => {
      await Promise.all(shards.map((s) => s.close()));
    },
  };
}

/**
 * One Kafka message per partition per send: the send's messages for a partition travel as
 * one JSON array (keyed by the first key, sent to that partition explicitly), so kafkajs
 * encodes a few large records instead of one per position. A contract change for
 * positions.raw consumers (the value becomes an array); measured here as the upper bound.
 */
export async function packedProducer(brokers: string[], partitions: number, maxBytes = 900_000): Promise<BusProducer> {
  const kafka = new Kafka({ clientId: "fleet-bench-packed", brokers, logLevel: logLevel.WARN });
  const p = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, idempotent: true, maxInFlightRequests: 1, retry: { retries: Number.MAX_SAFE_INTEGER } });
  await p.connect();
  const open = Buffer.from("[");
  const comma = Buffer.from(",");
  const close = Buffer.from("]");
  return {
    async send(topic, messages) {
      if (messages.length === 0) return;
      // Per partition, consecutive messages are packed into arrays of at most maxBytes
      // (Kafka refuses a record batch over max.message.bytes).
      const packs = new Map<number, { key: string; parts: Buffer[]; bytes: number }[]>();
      for (const { key, value } of messages) {
        const m = { key, value: typeof value === "string" ? Buffer.from(value) : value };
        const partition = partitionForKey(m.key, partitions);
        const list = packs.get(partition) ?? [];
        if (list.length === 0) packs.set(partition, list);
        const current = list.at(-1);
        if (current && current.bytes + m.value.length < maxBytes) {
          current.parts.push(comma, m.value);
          current.bytes += m.value.length + 1;
        } else list.push({ key: m.key, parts: [open, m.value], bytes: m.value.length + 2 });
      }
      const byPartition = [...packs].map(([partition, list]) => list.map(({ key, parts }) => ({ partition, key, value: Buffer.concat([...parts, close]) })));
      // One request per round: a partition's second pack goes in the next send, in order.
      for (let round = 0; ; round++) {
        const batch = byPartition.flatMap((list) => (list[round] ? [list[round]!] : []));
        if (batch.length === 0) break;
        await p.send({ topic, acks: -1, timeout: 5000, messages: batch });
      }
    },
    close: () => p.disconnect(),
  };
}

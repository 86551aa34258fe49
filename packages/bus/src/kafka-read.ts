import { randomUUID } from "node:crypto";
import type { Kafka, KafkaMessage, RetryOptions } from "kafkajs";
import type { BusLogger } from "./logger.js";
import type { DeliveredMessage } from "./port.js";

interface Range {
  start: bigint;
  /** The high watermark: the offset after the last record. */
  end: bigint;
}

/**
 * Reads what a topic holds now, from each partition's `end - perPartition` (or its start) to
 * its high watermark at the time of the call. kafkajs has no fetch outside a group, so a
 * throwaway group that never commits does the reading and is deleted afterwards.
 */
export async function readTopic(
  kafka: Kafka,
  retry: RetryOptions,
  logger: BusLogger,
  /** The adapter's: a fetched partition's records as bus messages (packed records opened). */
  unpack: (topic: string, partition: number, records: readonly KafkaMessage[]) => DeliveredMessage[],
  topic: string,
  opts: { perPartition?: number; timeoutMs?: number } = {},
): Promise<DeliveredMessage[]> {
  const ranges = await rangesOf(kafka, topic, opts.perPartition);
  if (ranges.size === 0) return [];

  const groupId = `fleet-read-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId, retry, allowAutoTopicCreation: false });
  const got = new Map<number, DeliveredMessage[]>();
  const pending = new Set(ranges.keys());
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const range = ranges.get(batch.partition);
        if (!range || !pending.has(batch.partition)) return;
        const records = batch.messages.filter((r) => BigInt(r.offset) >= range.start && BigInt(r.offset) < range.end);
        const list = got.get(batch.partition) ?? [];
        list.push(...unpack(topic, batch.partition, records));
        got.set(batch.partition, list);
        const last = batch.messages.at(-1);
        if (last && BigInt(last.offset) + 1n >= range.end) {
          pending.delete(batch.partition);
          if (pending.size === 0) finished();
        }
      },
    });
    for (const [partition, range] of ranges) consumer.seek({ topic, partition, offset: String(range.start) });
    const timeoutMs = opts.timeoutMs ?? 30_000;
    await Promise.race([
      done,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`reading ${topic} did not finish within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await consumer.disconnect().catch(() => undefined);
    await deleteGroup(kafka, groupId, logger);
  }
  return [...got.keys()].sort((a, b) => a - b).flatMap((p) => got.get(p)!);
}

async function rangesOf(kafka: Kafka, topic: string, perPartition: number | undefined): Promise<Map<number, Range>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return new Map();
    const ranges = new Map<number, Range>();
    for (const p of await admin.fetchTopicOffsets(topic)) {
      const end = BigInt(p.high);
      const low = BigInt(p.low);
      const start = perPartition === undefined ? low : end - BigInt(perPartition) > low ? end - BigInt(perPartition) : low;
      if (start < end) ranges.set(p.partition, { start, end });
    }
    return ranges;
  } finally {
    await admin.disconnect();
  }
}

/** Deletes a group its consumer has left (a reader's, an ephemeral one); a failure leaves it for the broker to expire. */
export async function deleteGroup(kafka: Kafka, groupId: string, logger: BusLogger): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.deleteGroups([groupId]);
  } catch (err) {
    // The broker drops an empty group's metadata by itself after offsets.retention.minutes.
    logger.warn({ err, groupId }, "could not delete a consumer group of one reader; the broker expires it");
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

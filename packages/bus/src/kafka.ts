import { Kafka, logLevel, type Admin, type Consumer, type KafkaMessage, type Producer, type RetryOptions, type logCreator } from "kafkajs";
import { decodeEnvelope, ENVELOPE_HEADER, isEnvelopeVersion } from "./envelope.js";
import { kafkaProducerFactory } from "./kafka-producer.js";
import { deleteGroup, readTopic } from "./kafka-read.js";
import { type BusLogger, silentLogger } from "./logger.js";
import type { Bus, BusConsumer, BusMessage, ConsumeOptions, DeliveredMessage } from "./port.js";

export { BusSendTimeoutError } from "./kafka-producer.js";

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger?: BusLogger;
  /** kafkajs log entries below this level are dropped before reaching `logger`. Default INFO. */
  logLevel?: logLevel;
  /**
   * Group membership timing. Defaults: a 10 s session with a heartbeat every second
   * (kafkajs's own are 30 s and 3 s; docs/decisions.md says why), kafkajs's 5 s fetch wait.
   */
  consumer?: { sessionTimeout?: number; heartbeatInterval?: number; rebalanceTimeout?: number; maxWaitTimeInMs?: number };
  /** Default for `send` without `timeoutMs`. Default 30 s (kafkajs's produce timeout). */
  sendTimeoutMs?: number;
  /** Overrides kafkajs retry timing (client-wide; the producer always retries without limit). */
  retry?: Partial<RetryOptions>;
  /** Partitions for `ensureTopics` without a count. Default 12. */
  partitions?: number;
  /**
   * Called when a consumer stopped for good (kafkajs decided not to restart it), after it is
   * logged. An app usually exits so its supervisor restarts it; the default only logs.
   */
  onFatal?: (err: Error, ctx: { groupId: string; topic: string }) => void;
  /**
   * How many crashes in a row (no batch handled between them) kafkajs may answer by
   * restarting a consumer in-process; the next one stops it for good and `onFatal` runs.
   * Default: no limit.
   */
  maxConsumerRestarts?: number;
}

/**
 * kafkajs's own retry defaults, spelled out: kafkajs swaps in much shorter ones when
 * NODE_ENV=test (which vitest sets), and behaviour must not depend on NODE_ENV.
 */
const RETRY: RetryOptions = { initialRetryTime: 300, maxRetryTime: 30_000, factor: 0.2, multiplier: 2, retries: 5 };

/**
 * How long a member that stopped heartbeating (killed, frozen) keeps its partitions: no
 * one consumes them meanwhile. 10 s rather than kafkajs's 30 s; a member that heartbeats
 * every second survives nine missed beats (a long GC pause, a slow broker) before it is
 * evicted and its batch handled twice. Brokers refuse less than 6 s by default.
 */
export const DEFAULT_SESSION_TIMEOUT_MS = 10_000;

/**
 * Wraps a `handleBatch` rejection for kafkajs. kafkajs's retrier treats TypeError, RangeError,
 * ReferenceError and SyntaxError as unrecoverable and would stop the consumer for good on
 * one (e.g. a TypeError from a failed fetch); marked retriable, any handler failure is
 * retried with backoff and the batch redelivered, as the port promises.
 */
class HandlerError extends Error {
  override name = "BusHandlerError";
  readonly retriable = true;
}

function toKafkajsLogs(logger: BusLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, error, stack, ...extra } = log;
      // pino serialises an Error (with its stack and cause) under `err`; kafkajs calls it
      // `error` and sometimes passes only the message there, with the stack beside it.
      const obj = error instanceof Error ? { ...extra, err: error } : { ...extra, error, stack };
      const entry = { ...obj, kafkajs: namespace };
      if (level === logLevel.ERROR) logger.error(entry, message);
      else if (level === logLevel.WARN) logger.warn(entry, message);
      else logger.info(entry, message);
    };
}

const EMPTY = Buffer.alloc(0);

/**
 * The bus messages in a fetched batch, in order: a plain record is one message (offset: the
 * record's), a packed record its messages (offset `record:index`). A packed record that does
 * not decode, or of a format this version does not know, is logged and skipped like a poison
 * message: retrying would never change it, and it must not stall its partition.
 */
function unpack(topic: string, partition: number, records: readonly KafkaMessage[], logger: BusLogger): DeliveredMessage[] {
  const out: DeliveredMessage[] = [];
  for (const record of records) {
    const header = record.headers?.[ENVELOPE_HEADER];
    if (header === undefined) {
      out.push({ key: record.key?.toString() ?? "", value: record.value ?? EMPTY, partition, offset: record.offset });
      continue;
    }
    if (!isEnvelopeVersion(header)) {
      logger.error({ topic, partition, offset: record.offset, format: String(header) }, "skipping a packed record of an unknown format");
      continue;
    }
    let entries: BusMessage[];
    try {
      entries = decodeEnvelope(record.value ?? EMPTY);
    } catch (err) {
      logger.error({ err, topic, partition, offset: record.offset }, "skipping a packed record that does not decode");
      continue;
    }
    for (let i = 0; i < entries.length; i++) {
      const { key, value } = entries[i]!;
      out.push({ key, value, partition, offset: `${record.offset}:${i}` });
    }
  }
  return out;
}

export function createKafkaBus(options: KafkaBusOptions): Bus {
  const logger = options.logger ?? silentLogger;
  const retry: RetryOptions = { ...RETRY, ...options.retry };
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    retry,
    logLevel: options.logLevel ?? logLevel.INFO,
    logCreator: toKafkajsLogs(logger),
  });
  const sendTimeoutMs = options.sendTimeoutMs ?? 30_000;
  const producers = new Set<Producer>();
  const consumers = new Set<Consumer>();
  /** Partition counts `ensureTopics` read from the cluster: a producer's first send to one of these is packed too. */
  const ensuredPartitions = new Map<string, number>();

  const producer = kafkaProducerFactory({ kafka, retry, logger, sendTimeoutMs, producers, ensuredPartitions });

  async function consume(opts: ConsumeOptions): Promise<BusConsumer> {
    const { groupId, topic } = opts;
    // retry again here: kafka.consumer() defaults its own to { retries: 5 } over the client's.
    const sessionTimeout = options.consumer?.sessionTimeout ?? DEFAULT_SESSION_TIMEOUT_MS;
    const heartbeatEvery = options.consumer?.heartbeatInterval ?? Math.max(100, Math.floor(sessionTimeout / 10));
    // Counts crashes since the last handled batch; kafkajs asks before each restart.
    let crashesInARow = 0;
    const maxRestarts = options.maxConsumerRestarts ?? Infinity;
    const restartOnFailure = async () => ++crashesInARow <= maxRestarts;
    const consumer = kafka.consumer({ groupId, retry: { ...retry, restartOnFailure }, ...options.consumer, sessionTimeout, heartbeatInterval: heartbeatEvery });
    consumers.add(consumer);
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart) return; // kafkajs logs it and rejoins by itself
      // kafkajs has already disconnected this consumer: record why and let the app decide.
      logger.error({ err: payload.error, groupId, topic }, "bus consumer stopped after a fatal error");
      consumers.delete(consumer);
      options.onFatal?.(payload.error, { groupId, topic });
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: opts.fromBeginning ?? true });
      // Resolves once this member has joined the group and has its assignment.
      await consumer.run({
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: opts.partitionsConcurrently ?? 1,
        eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
          // Stopping, or a seek/rebalance made this batch obsolete: leave it unresolved for whoever owns it next.
          if (!isRunning() || isStale()) return;
          const messages = unpack(batch.topic, batch.partition, batch.messages, logger);
          const last = batch.messages.at(-1);
          if (messages.length === 0) {
            // Nothing but skipped records: move past them.
            if (last) resolveOffset(last.offset);
            await commitOffsetsIfNecessary();
            return;
          }
          // kafkajs heartbeats only when asked; a slow handler must not cost the membership.
          // Errors (a rebalance) are noticed again by kafkajs at its next own heartbeat.
          const beat = setInterval(() => void heartbeat().catch(() => undefined), heartbeatEvery);
          try {
            await opts.handleBatch({ topic: batch.topic, partition: batch.partition, messages });
          } catch (err) {
            // Unresolved, so kafkajs fetches again from the last resolved offset after its retry backoff.
            throw new HandlerError(`bus handler failed for ${batch.topic}[${batch.partition}]`, { cause: err });
          } finally {
            clearInterval(beat);
          }
          crashesInARow = 0;
          // Whole records: a packed one's messages were all handled.
          if (last) resolveOffset(last.offset);
          await commitOffsetsIfNecessary();
          await heartbeat();
        },
      });
    } catch (err) {
      consumers.delete(consumer);
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
    return {
      async close() {
        consumers.delete(consumer);
        // Waits for the in-flight batch, commits what was resolved, then leaves the group.
        await consumer.disconnect();
        if (opts.ephemeral) await deleteGroup(kafka, groupId, logger);
      },
    };
  }

  async function waitForLeaders(admin: Admin, topics: string[], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
      try {
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
        if (metadata.length === topics.length && metadata.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
      if (Date.now() > deadline) throw new Error(`topics ${topics.join(", ")} have no leaders after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  async function ensureTopics(topics: string[], partitions = options.partitions ?? 12): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      // Only the missing ones: when some already exist, kafkajs's createTopics returns
      // early without waiting for the new topics' leaders.
      const existing = new Set(await admin.listTopics());
      const missing = [...new Set(topics)].filter((t) => !existing.has(t));
      if (missing.length > 0) {
        // replicationFactor -1: the broker's default.replication.factor. Already-exists (a race) is fine.
        // kafkajs's own waitForLeaders retries only LEADER_NOT_AVAILABLE, but a busy broker
        // first answers UNKNOWN_TOPIC_OR_PARTITION for a topic it created a moment ago: wait here.
        await admin.createTopics({
          topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: -1 })),
          waitForLeaders: false,
        });
        await waitForLeaders(admin, missing);
      }
      // What the topics have (an existing one may differ from `partitions`), so that a producer
      // packs from its first send. Best effort: without it, the first send teaches the producer.
      try {
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics: [...new Set(topics)] });
        for (const t of metadata) if (t.partitions.length > 0) ensuredPartitions.set(t.name, t.partitions.length);
      } catch (err) {
        logger.warn({ err, topics }, "could not read the topics' partition counts; each producer learns them on its first send");
      }
    } finally {
      await admin.disconnect();
    }
  }

  return {
    kind: "kafka",
    producer,
    consume,
    ensureTopics,
    read: (topic, opts) => readTopic(kafka, retry, logger, (t, p, records) => unpack(t, p, records, logger), topic, opts),
    async close() {
      await Promise.all([...consumers].map((c) => c.disconnect()));
      await Promise.all([...producers].map((p) => p.disconnect()));
      consumers.clear();
      producers.clear();
    },
  };
}

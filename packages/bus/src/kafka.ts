import { Kafka, Partitioners, logLevel, type Admin, type Consumer, type ICustomPartitioner, type KafkaMessage, type Message, type Producer, type RetryOptions, type logCreator } from "kafkajs";
import {
  decodeEnvelope,
  encodeEnvelope,
  valueBytes,
  ENTRY_OVERHEAD_BYTES,
  ENVELOPE_BASE_BYTES,
  ENVELOPE_HEADER,
  ENVELOPE_VERSION,
  isEnvelopeVersion,
} from "./envelope.js";
import { type BusLogger, silentLogger } from "./logger.js";
import { readTopic } from "./kafka-read.js";
import { partitionForKey } from "./murmur2.js";
import type { Bus, BusConsumer, BusMessage, BusProducer, ConsumeOptions, DeliveredMessage, OutgoingMessage } from "./port.js";

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

/** The send was not acknowledged in time; the caller must not report success. */
export class BusSendTimeoutError extends Error {
  override name = "BusSendTimeoutError";
}

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

/**
 * Bytes per produce request. kafkajs puts each partition's share of a request into one
 * record batch, and the broker rejects a batch over `message.max.bytes` (1 MiB by default)
 * with MESSAGE_TOO_LARGE, which retrying never fixes. A consumer that re-publishes a whole
 * fetched batch (the tracker: up to 1 MiB per partition in, larger messages out) would
 * otherwise stall on that partition for good.
 */
const MAX_REQUEST_BYTES = 512 * 1024;
/** A record's framing in a v2 record batch, rounded up. */
const RECORD_OVERHEAD_BYTES = 32;
/** Entry bytes per packed record: a partition's messages beyond it go in the next record. */
const MAX_ENVELOPE_BYTES = 256 * 1024;
/** The framing of a packed record: RECORD_OVERHEAD_BYTES plus its `fleet-batch: 1` header. */
const PACKED_RECORD_OVERHEAD_BYTES = RECORD_OVERHEAD_BYTES + 2 + ENVELOPE_HEADER.length + ENVELOPE_VERSION.length;

/** Plain records (one per message), in requests of at most `maxBytes`. */
function chunksBySize(messages: readonly OutgoingMessage[], maxBytes: number): OutgoingMessage[][] {
  const chunks: OutgoingMessage[][] = [];
  let chunk: OutgoingMessage[] = [];
  let bytes = 0;
  for (const m of messages) {
    const size = Buffer.byteLength(m.key) + valueBytes(m.value) + RECORD_OVERHEAD_BYTES;
    if (chunk.length > 0 && bytes + size > maxBytes) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(m);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** One packed record to be: consecutive messages of one partition, in send order. */
interface Pack {
  partition: number;
  messages: OutgoingMessage[];
  /** UTF-8 length of each message's key and value. */
  keyBytes: number[];
  valueBytes: number[];
  /** Each message's index in the send, to re-pack what was not sent. */
  at: number[];
  /** The envelope's size. */
  bytes: number;
}

/**
 * Groups messages by partition exactly as kafkajs's DefaultPartitioner would place them
 * (murmur2 of the key modulo `partitions`), in order, a new pack when one would pass
 * MAX_ENVELOPE_BYTES (a single larger message gets a pack of its own). Packs come out in
 * the order they were opened, so each partition's packs are in send order.
 */
function packByPartition(messages: readonly OutgoingMessage[], partitions: number, at?: readonly number[]): Pack[] {
  const packs: Pack[] = [];
  const open: (Pack | undefined)[] = new Array<Pack | undefined>(partitions);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const partition = partitionForKey(m.key, partitions);
    const keyBytes = Buffer.byteLength(m.key);
    const vBytes = valueBytes(m.value);
    const size = ENTRY_OVERHEAD_BYTES + keyBytes + vBytes;
    let pack = open[partition];
    if (!pack || (pack.messages.length > 0 && pack.bytes + size > MAX_ENVELOPE_BYTES)) {
      pack = { partition, messages: [], keyBytes: [], valueBytes: [], at: [], bytes: ENVELOPE_BASE_BYTES };
      open[partition] = pack;
      packs.push(pack);
    }
    pack.messages.push(m);
    pack.keyBytes.push(keyBytes);
    pack.valueBytes.push(vBytes);
    pack.at.push(at ? at[i]! : i);
    pack.bytes += size;
  }
  return packs;
}

/**
 * Packs in requests of at most MAX_REQUEST_BYTES, in order: all of a small send's
 * partitions go out in one request, and no partition's batch in a request nears the
 * broker's limit.
 */
function requestsOf(packs: readonly Pack[]): Pack[][] {
  const requests: Pack[][] = [];
  let request: Pack[] = [];
  let bytes = 0;
  for (const pack of packs) {
    const size = pack.bytes + PACKED_RECORD_OVERHEAD_BYTES;
    if (request.length > 0 && bytes + size > MAX_REQUEST_BYTES) {
      requests.push(request);
      request = [];
      bytes = 0;
    }
    request.push(pack);
    bytes += size;
  }
  if (request.length > 0) requests.push(request);
  return requests;
}

/**
 * Thrown from the partitioner when kafkajs's metadata for a topic has another partition
 * count than the one a request was packed for. The request is not sent (on a cluster of
 * several brokers, a retry may have sent part of it already: at least once), and the send
 * packs it and the rest again by kafkajs's count. Not retriable, so kafkajs gives it back at once.
 */
class PartitionCountChanged extends Error {
  override name = "BusPartitionCountChanged";
  readonly retriable = false;
}

/** kafkajs may wrap what the partitioner threw (KafkaJSNonRetriableError with a `cause`). */
function isPartitionCountChanged(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 5; depth++) {
    if (e instanceof PartitionCountChanged) return true;
    e = e.cause;
  }
  return false;
}

/** A kafkajs producer as the bus producer uses it. */
interface ProducerClient {
  deliver(topic: string, messages: readonly OutgoingMessage[], timeoutMs: number, abandoned: () => boolean): Promise<void>;
  close(): Promise<void>;
}

/** Rejects with BusSendTimeoutError after `ms`; a late settlement of `work` is then ignored. */
function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BusSendTimeoutError(`${what} not acknowledged within ${ms} ms`)), ms);
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

const PACKED_HEADERS = { [ENVELOPE_HEADER]: ENVELOPE_VERSION };
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

  /**
   * One kafkajs idempotent producer with the partitioner packing relies on. `deliver` sends
   * the messages request by request, one in flight, and stops between requests once the
   * caller has given up (`abandoned`).
   */
  async function openClient(): Promise<ProducerClient> {
    /**
     * Each topic's partition count as kafkajs's own metadata has it: the partitioner below
     * notes it on every produce attempt (kafkajs refreshes its metadata periodically and after
     * errors), so packing follows what kafkajs's DefaultPartitioner would do with the key.
     */
    const partitionCounts = new Map<string, number>();
    /** The partition count each packed record was grouped by. */
    const packedFor = new WeakMap<Message, number>();
    const createPartitioner: ICustomPartitioner = () => {
      // Java-compatible murmur2; being explicit also silences kafkajs's v2 partitioner warning.
      const byKey = Partitioners.DefaultPartitioner();
      return (args) => {
        const count = args.partitionMetadata.length;
        partitionCounts.set(args.topic, count);
        const expected = packedFor.get(args.message);
        // Also what keeps a record from a partition kafkajs does not know, which it would silently drop.
        if (expected !== undefined && expected !== count) {
          throw new PartitionCountChanged(`${args.topic} has ${count} partitions, packed for ${expected}`);
        }
        return byKey(args); // an explicit partition as given, else murmur2(key) % count
      };
    };
    const p = kafka.producer({
      createPartitioner,
      idempotent: true,
      // KIP-98's requirements for the idempotent producer. kafkajs documents unlimited
      // retries as the idempotent default, but kafka.producer() merges the client's retry
      // options first, so without this it would give up after 5. The caller's timeout
      // bounds the wait instead.
      maxInFlightRequests: 1,
      retry: { ...retry, retries: Number.MAX_SAFE_INTEGER },
    });
    await p.connect();
    producers.add(p);

    const packedRecord = (pack: Pack, partitions: number): Message => {
      const record: Message = { partition: pack.partition, value: encodeEnvelope(pack.messages, pack.keyBytes, pack.bytes, pack.valueBytes), headers: PACKED_HEADERS };
      packedFor.set(record, partitions);
      return record;
    };

    async function deliver(topic: string, messages: readonly OutgoingMessage[], timeoutMs: number, abandoned: () => boolean): Promise<void> {
      const request = (records: Message[]) =>
        p.send({
          topic,
          acks: -1, // every in-sync replica: the durability promise of the port
          timeout: timeoutMs, // how long the broker may wait for replicas
          messages: records,
        });
      // Requests go one at a time, in order (one in flight, so per-key order holds); a failed
      // request fails the send, and the caller's retry re-sends all: at least once.
      let partitions = partitionCounts.get(topic) ?? ensuredPartitions.get(topic);
      if (partitions === undefined) {
        // This producer's first send to a topic it knows nothing of: plain records, placed by
        // kafkajs's partitioner, which learns the partition count (kafkajs may create the topic).
        for (const chunk of chunksBySize(messages, MAX_REQUEST_BYTES)) {
          if (abandoned()) return;
          await request(chunk.map((m) => ({ key: m.key, value: m.value })));
        }
        return;
      }
      let packs = packByPartition(messages, partitions);
      for (let attempt = 1; ; attempt++) {
        const requests = requestsOf(packs);
        let r = 0;
        try {
          for (; r < requests.length; r++) {
            if (abandoned()) return;
            const count = partitions;
            await request(requests[r]!.map((pack) => packedRecord(pack, count)));
          }
          return;
        } catch (err) {
          // The partitioner refused request r: the topic's partition count changed. Pack
          // what request r and the ones after it hold again, in send order, by the new count.
          const now = partitionCounts.get(topic);
          if (!isPartitionCountChanged(err) || now === undefined || attempt >= 3) throw err;
          const at = requests
            .slice(r)
            .flatMap((request) => request.flatMap((pack) => pack.at))
            .sort((a, b) => a - b);
          packs = packByPartition(
            at.map((i) => messages[i]!),
            now,
            at,
          );
          partitions = now;
        }
      }
    }

    return {
      deliver,
      async close() {
        producers.delete(p);
        await p.disconnect();
      },
    };
  }

  /**
   * A bus producer: one send at a time, and a new kafkajs producer after a send that failed
   * or timed out. kafkajs's idempotent producer takes a failed request's sequence numbers back
   * even when the broker wrote some or all of its batches (a broker shutting down answers
   * NOT_LEADER for some partitions after writing others, or drops the connection before
   * answering). Its own retry of that request is then rightly taken as a duplicate; but another
   * send on the same producer that reached the broker first is given those numbers, and the
   * broker, which compares only producer id and sequence range (a send is packed into one
   * record per partition, so ranges match), acknowledges it as a duplicate without writing it:
   * an acknowledged message lost. Seen in ingest's broker-outage test. With one send at a time a
   * failed request is retried only by its own send, and after a failure the next send goes
   * through a new producer id with its own sequence numbers. kafkajs's per-broker lock already
   * allowed one produce request in flight, so this costs little: callers batch while they wait.
   */
  async function producer(): Promise<BusProducer> {
    let client: Promise<ProducerClient> | undefined = openClient();
    await client;
    /** Settles when the send before the next one is done with the producer (or given up on). */
    let turn: Promise<void> = Promise.resolve();
    const retire = (used: Promise<ProducerClient>) => {
      if (client !== used) return;
      client = undefined;
      // Its failed request may still be retried and written in the background: at least once, as any failed send.
      void used.then((c) => c.close()).catch((err: unknown) => logger.info({ err }, "could not close a producer after a failed send (the broker is away); it is dropped"));
    };

    return {
      async send(topic, messages, opts) {
        if (messages.length === 0) return;
        const timeoutMs = opts?.timeoutMs ?? sendTimeoutMs;
        /** Set once the caller was told the send failed: it sends again, so stop here. */
        let abandoned = false;
        let used: Promise<ProducerClient> | undefined;
        const previous = turn;
        let done!: () => void;
        const mine = new Promise<void>((resolve) => (done = resolve));
        // The next send waits for this one and, should this one give up while queued, for the one before it too.
        turn = Promise.all([previous, mine]).then(() => undefined);
        const sent = (async () => {
          await previous;
          if (abandoned) return;
          used = client ??= openClient();
          // A broker that is down: this send fails, and the next one tries to open a producer again.
          used.catch(() => {
            if (client === used) client = undefined;
          });
          const c = await used;
          if (abandoned) return;
          await c.deliver(topic, messages, timeoutMs, () => abandoned);
        })();
        // The broker timeout does not cover waiting for the turn, connecting, metadata or retries: race the whole send.
        try {
          await withTimeout(sent, timeoutMs, `send of ${messages.length} message(s) to ${topic}`);
        } catch (err) {
          abandoned = true;
          if (used) retire(used);
          throw err;
        } finally {
          done();
        }
      },
      async close() {
        await turn;
        const last = client;
        client = undefined;
        const c = await last?.catch(() => undefined);
        await c?.close();
      },
    };
  }

  async function consume(opts: ConsumeOptions): Promise<BusConsumer> {
    const { groupId, topic } = opts;
    // retry again here: kafka.consumer() defaults its own to { retries: 5 } over the client's.
    const sessionTimeout = options.consumer?.sessionTimeout ?? DEFAULT_SESSION_TIMEOUT_MS;
    const heartbeatEvery = options.consumer?.heartbeatInterval ?? Math.max(100, Math.floor(sessionTimeout / 10));
    const consumer = kafka.consumer({ groupId, retry, ...options.consumer, sessionTimeout, heartbeatInterval: heartbeatEvery });
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

import { Partitioners, type ICustomPartitioner, type Kafka, type Message, type Producer, type RetryOptions } from "kafkajs";
import { encodeEnvelope, valueBytes, ENTRY_OVERHEAD_BYTES, ENVELOPE_BASE_BYTES, ENVELOPE_HEADER, ENVELOPE_VERSION } from "./envelope.js";
import type { BusLogger } from "./logger.js";
import { partitionForKey } from "./murmur2.js";
import type { BusProducer, OutgoingMessage } from "./port.js";

/** The send was not acknowledged in time; the caller must not report success. */
export class BusSendTimeoutError extends Error {
  override name = "BusSendTimeoutError";
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

export interface KafkaProducerDeps {
  kafka: Kafka;
  retry: RetryOptions;
  logger: BusLogger;
  /** Default for `send` without `timeoutMs`. */
  sendTimeoutMs: number;
  /** Every kafkajs producer open, for the bus's close. */
  producers: Set<Producer>;
  /** Partition counts `ensureTopics` read from the cluster: a producer's first send to one of these is packed too. */
  ensuredPartitions: ReadonlyMap<string, number>;
}

/** The Kafka adapter's `producer()`. */
export function kafkaProducerFactory(deps: KafkaProducerDeps): () => Promise<BusProducer> {
  const { kafka, retry, logger, sendTimeoutMs, producers, ensuredPartitions } = deps;

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

  return producer;
}

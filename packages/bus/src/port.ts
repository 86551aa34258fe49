/**
 * The bus port: a partitioned, keyed log with consumer groups and at-least-once
 * delivery. Kafka in production, an in-process log when KAFKA_BROKERS is unset.
 */
export interface BusMessage {
  key: string;
  value: Buffer;
}

/**
 * What a producer sends. A string value is written as UTF-8 straight into the outgoing
 * record, saving the hot paths (ingest, tracker) a buffer per message.
 */
export interface OutgoingMessage {
  key: string;
  value: Buffer | string;
}

export interface DeliveredMessage extends BusMessage {
  partition: number;
  /**
   * Where the message is in its partition, rising within it; for logs and tests, not arithmetic.
   * In-process bus: a number. Kafka: the record's offset, or `offset:index` for the index-th
   * message of a record that packs several (the Kafka adapter packs each send's messages per partition).
   */
  offset: string;
}

export interface BusProducer {
  /**
   * Resolves only once the bus holds every message durably (Kafka: acks=all).
   * Rejects if it could not within `timeoutMs`; then the caller must not report success.
   */
  send(topic: string, messages: readonly OutgoingMessage[], opts?: { timeoutMs?: number }): Promise<void>;
  close(): Promise<void>;
}

export interface ConsumeOptions {
  groupId: string;
  topic: string;
  /** Where a group with no committed offset starts. Default true. */
  fromBeginning?: boolean;
  /**
   * Called with the messages of one partition, in offset order. Offsets are committed
   * only after it resolves; if it rejects, the same messages are delivered again
   * (to this member or, after a rebalance, to another one).
   */
  handleBatch(batch: { topic: string; partition: number; messages: DeliveredMessage[] }): Promise<void>;
  /** How many partitions' batches may be handled at once. Default 1. */
  partitionsConcurrently?: number;
  /**
   * The group is this consumer's alone (its name carries an instance's uuid): it is deleted
   * when the consumer closes, rather than left behind for the broker to expire.
   */
  ephemeral?: boolean;
}

export interface BusConsumer {
  /** Leaves the group. Uncommitted messages go to the remaining members. */
  close(): Promise<void>;
}

export interface Bus {
  readonly kind: "kafka" | "memory";
  producer(): Promise<BusProducer>;
  consume(opts: ConsumeOptions): Promise<BusConsumer>;
  /**
   * What `topic` holds now, in offset order within each partition, read without joining any
   * consumer group of the apps or committing: for operators' tools (dead letters), not for
   * processing. With `perPartition`, only the newest that many of each partition. A topic
   * that does not exist holds nothing.
   */
  read(topic: string, opts?: { perPartition?: number }): Promise<DeliveredMessage[]>;
  /** Creates topics if missing (no-op where topics need no creation). */
  ensureTopics(topics: string[], partitions?: number): Promise<void>;
  close(): Promise<void>;
}

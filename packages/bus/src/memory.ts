import { type BusLogger, silentLogger } from "./logger.js";
import { partitionForKey } from "./murmur2.js";
import type { Bus, BusConsumer, BusMessage, BusProducer, ConsumeOptions, DeliveredMessage } from "./port.js";

/**
 * The embedded bus: an in-process, partitioned log with consumer groups, built to
 * behave like Kafka where the apps can tell (per-key order, commit after handling,
 * redelivery after a failure or a departed member). Nothing is persisted: `send`
 * resolving means "appended", the durable point of the single-process mode.
 */
export interface MemoryBusOptions {
  /** Partitions of a topic created on first use. Default 12, like infra/kafka.sh. */
  partitions?: number;
  /** Most messages handed to one `handleBatch` call. Default 500. */
  maxBatchSize?: number;
  /** Delay before redelivering after `handleBatch` rejects; doubles per failure up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  logger?: BusLogger;
}

type Settings = Required<MemoryBusOptions>;

/** The embedded bus, which can also tell when its consumers have caught up. */
export interface MemoryBus extends Bus {
  /**
   * Waits until every consumer group with a member has handled every message sent so far
   * (what handling sends on is waited for too), or `timeoutMs` passes; resolves with how
   * many messages are still unhandled (0 when drained). A clean stop calls it between
   * closing the ingest and closing the consumers: nothing is persisted, so a message left
   * here is a position acknowledged and lost.
   */
  drain(timeoutMs: number, onWait?: (pending: number) => void): Promise<number>;
}

/**
 * One partition's messages. Offset `o` is `messages[o - base]`: messages every group of
 * the topic has committed are dropped (like Kafka's retention, but by consumption), so
 * a long-running embedded process does not keep every position ever sent in memory.
 */
class PartitionLog {
  private messages: BusMessage[] = [];
  base = 0;
  /** Idle workers to wake on the next append. */
  readonly waiters = new Set<() => void>();

  get end(): number {
    return this.base + this.messages.length;
  }

  append(message: BusMessage): void {
    this.messages.push(message);
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  read(start: number, end: number): BusMessage[] {
    return this.messages.slice(start - this.base, end - this.base);
  }

  /** Drops messages before `offset`, in chunks so the copying stays amortised. */
  trimTo(offset: number): void {
    const drop = offset - this.base;
    if (drop >= 1024 || (drop > 0 && drop === this.messages.length)) {
      this.messages = this.messages.slice(drop);
      this.base = offset;
    }
  }
}

class Topic {
  readonly partitions: PartitionLog[];
  readonly groups = new Set<Group>();
  constructor(
    readonly name: string,
    count: number,
  ) {
    this.partitions = Array.from({ length: count }, () => new PartitionLog());
  }
}

/** FIFO limit on how many of one member's partitions are handled at once. */
class Slots {
  private queue: (() => void)[] = [];
  constructor(private free: number) {}

  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/** A consumer group's state for one topic: members, committed offsets, partition owners. */
class Group {
  readonly members: Member[] = [];
  /** Next offset to deliver per partition, the equivalent of Kafka's committed offset. */
  readonly committed = new Map<number, number>();
  private readonly owners = new Map<number, PartitionWorker>();

  constructor(
    readonly id: string,
    readonly topic: Topic,
    readonly settings: Settings,
  ) {
    topic.groups.add(this);
  }

  commit(partition: number, offset: number): void {
    this.committed.set(partition, offset);
    let min = offset;
    for (const g of this.topic.groups) min = Math.min(min, g.committed.get(partition) ?? this.topic.partitions[partition]!.base);
    this.topic.partitions[partition]!.trimTo(min);
  }

  /**
   * Round-robin assignment over the current members. A partition that changes hands
   * gets a new worker that starts only after the old one finished its in-flight batch,
   * so two members never handle one partition at once and order holds across the move.
   */
  rebalance(): void {
    const n = this.topic.partitions.length;
    for (let p = 0; p < n; p++) {
      const owner = this.members.length > 0 ? this.members[p % this.members.length] : undefined;
      const current = this.owners.get(p);
      if (current && current.member === owner) continue;
      current?.stop();
      if (owner) this.owners.set(p, new PartitionWorker(this, owner, p, current?.done));
      else this.owners.delete(p);
    }
  }
}

class Member implements BusConsumer {
  readonly workers = new Set<PartitionWorker>();
  readonly slots: Slots;
  private closing: Promise<void> | undefined;

  constructor(
    readonly group: Group,
    readonly opts: ConsumeOptions,
    private readonly onClosed: (m: Member) => void,
  ) {
    this.slots = new Slots(Math.max(1, opts.partitionsConcurrently ?? 1));
  }

  /** Leaves the group after in-flight batches settle; what was not committed goes to the others. */
  close(): Promise<void> {
    this.closing ??= this.leave();
    return this.closing;
  }

  private async leave(): Promise<void> {
    const members = this.group.members;
    members.splice(members.indexOf(this), 1);
    this.group.rebalance();
    await Promise.all([...this.workers].map((w) => w.done));
    this.onClosed(this);
  }
}

/** Delivers one partition to one member, from the group's committed offset, until stopped. */
class PartitionWorker {
  readonly done: Promise<void>;
  private stopped = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly group: Group,
    readonly member: Member,
    private readonly partition: number,
    previous: Promise<void> | undefined,
  ) {
    member.workers.add(this);
    this.done = this.run(previous)
      .catch((err: unknown) => group.settings.logger.error({ err, partition }, "bus partition worker failed"))
      .finally(() => member.workers.delete(this));
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private async run(previous: Promise<void> | undefined): Promise<void> {
    // The previous owner commits (or not) before we read where to start.
    await previous;
    const { group, partition } = this;
    const { settings } = group;
    const log = group.topic.partitions[partition]!;
    if (!group.committed.has(partition)) {
      // Like auto.offset.reset; recorded at once so a later owner starts from the same point.
      group.committed.set(partition, this.member.opts.fromBeginning === false ? log.end : log.base);
    }
    let delay = settings.retryMs;
    while (!this.stopped) {
      const start = group.committed.get(partition)!;
      if (start >= log.end) {
        await this.pause(undefined, log);
        continue;
      }
      const release = await this.member.slots.acquire();
      let failed = false;
      try {
        if (this.stopped) break;
        // Re-read the end: messages may have arrived while waiting for a slot.
        const end = Math.min(log.end, start + settings.maxBatchSize);
        const messages: DeliveredMessage[] = log
          .read(start, end)
          .map((m, i) => ({ key: m.key, value: m.value, partition, offset: String(start + i) }));
        try {
          await this.member.opts.handleBatch({ topic: group.topic.name, partition, messages });
          group.commit(partition, end);
          delay = settings.retryMs;
        } catch (err) {
          failed = true;
          settings.logger.warn(
            { err, topic: group.topic.name, groupId: group.id, partition, offset: start, retryInMs: delay },
            "bus handler failed; the batch will be delivered again",
          );
        }
      } finally {
        release();
      }
      if (failed) {
        await this.pause(delay);
        delay = Math.min(delay * 2, settings.maxRetryMs);
      }
    }
  }

  /** Waits for `ms`, for an append to `log`, or for stop(), whichever comes first. No timers spin. */
  private pause(ms: number | undefined, log?: PartitionLog): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        log?.waiters.delete(done);
        this.wake = undefined;
        resolve();
      };
      if (this.stopped) return done();
      this.wake = done;
      log?.waiters.add(done);
      if (ms !== undefined) timer = setTimeout(done, ms);
    });
  }
}

export function createMemoryBus(options: MemoryBusOptions = {}): MemoryBus {
  const settings: Settings = {
    partitions: options.partitions ?? 12,
    maxBatchSize: options.maxBatchSize ?? 500,
    retryMs: options.retryMs ?? 100,
    maxRetryMs: options.maxRetryMs ?? 5_000,
    logger: options.logger ?? silentLogger,
  };
  const topics = new Map<string, Topic>();
  const groups = new Map<string, Group>();
  const consumers = new Set<Member>();

  const topicNamed = (name: string, partitions = settings.partitions): Topic => {
    let topic = topics.get(name);
    if (!topic) {
      topic = new Topic(name, partitions);
      topics.set(name, topic);
    }
    return topic;
  };

  return {
    kind: "memory",

    async producer(): Promise<BusProducer> {
      let closed = false;
      return {
        async send(topicName, messages) {
          if (closed) throw new Error("bus producer is closed");
          const topic = topicNamed(topicName);
          for (const { key, value } of messages) {
            topic.partitions[partitionForKey(key, topic.partitions.length)]!.append({ key, value: typeof value === "string" ? Buffer.from(value) : value });
          }
        },
        async close() {
          closed = true;
        },
      };
    },

    async consume(opts: ConsumeOptions): Promise<BusConsumer> {
      const topic = topicNamed(opts.topic);
      // Keyed by group and topic: a group's offsets are per (group, topic, partition).
      const groupKey = `${opts.groupId}\u0000${opts.topic}`;
      let group = groups.get(groupKey);
      if (!group) {
        group = new Group(opts.groupId, topic, settings);
        groups.set(groupKey, group);
      }
      const member = new Member(group, opts, (m) => {
        consumers.delete(m);
        // Gone with its offsets, so it no longer holds back the trimming of what it read.
        if (opts.ephemeral && m.group.members.length === 0) {
          groups.delete(groupKey);
          m.group.topic.groups.delete(m.group);
        }
      });
      consumers.add(member);
      group.members.push(member);
      group.rebalance();
      return member;
    },

    async read(name, opts) {
      const topic = topics.get(name);
      if (!topic) return [];
      return topic.partitions.flatMap((log, partition) => {
        const start = Math.max(log.base, log.end - (opts?.perPartition ?? Infinity));
        return log.read(start, log.end).map((m, i): DeliveredMessage => ({ key: m.key, value: m.value, partition, offset: String(start + i) }));
      });
    },

    async ensureTopics(names, partitions) {
      for (const name of names) topicNamed(name, partitions);
    },

    async drain(timeoutMs, onWait) {
      const pending = () => {
        let n = 0;
        for (const group of groups.values()) {
          if (group.members.length === 0) continue;
          group.topic.partitions.forEach((log, p) => (n += log.end - (group.committed.get(p) ?? log.base)));
        }
        return n;
      };
      const deadline = Date.now() + timeoutMs;
      let lastReport = Date.now();
      for (let left = pending(); ; left = pending()) {
        if (left === 0 || Date.now() >= deadline) return left;
        if (onWait && Date.now() - lastReport >= 1000) {
          lastReport = Date.now();
          onWait(left);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },

    async close() {
      await Promise.all([...consumers].map((c) => c.close()));
    },
  };
}

import { randomUUID } from "node:crypto";
import type { DeadLetter } from "@fleet/contracts";
import { failureCode, isPermanentFailure } from "./failures.js";
import type { BusLogger } from "./logger.js";
import type { BusProducer, ConsumeOptions, DeliveredMessage } from "./port.js";

/** A message its handler refused as unusable, and why. */
export interface Rejected {
  message: DeliveredMessage;
  error: Error;
}

export interface DeadLetterBatch {
  topic: string;
  partition: number;
  messages: DeliveredMessage[];
  /**
   * True while a permanent failure is being narrowed down to its message: the handler must
   * then not share a write with other partitions' batches (a shared history flush, say), or
   * one bad row would fail innocent slices of other partitions too.
   */
  isolated: boolean;
}

/**
 * A consumer's handler that may refuse single messages (they do not decode, they break a
 * contract) by returning them, and may throw: a permanent failure (see failures.ts) is
 * narrowed down to the messages that cause it, any other is retried by the bus.
 */
export type DeadLetterHandler = (batch: DeadLetterBatch) => Promise<readonly Rejected[] | void>;

export interface DeadLetterOptions {
  producer: BusProducer;
  /** Where unusable messages go: `positions.dead`, `events.dead`. */
  deadTopic: string;
  /** The consumer group, recorded in each letter. */
  groupId: string;
  logger: BusLogger;
  /** Default isPermanentFailure. */
  isPermanent?: (err: unknown) => boolean;
}

export interface DeadLetterRouter {
  /** The wrapped handler, for `bus.consume`. */
  handleBatch: ConsumeOptions["handleBatch"];
  /** Messages dead-lettered since start. */
  deadLettered(): number;
}

const MAX_ERROR_MESSAGE = 1000;

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Wraps a consumer's handler so that no message stops its partition. A batch that fails
 * permanently is split in halves, in order, each handled on its own (`isolated`) until the
 * failing messages stand alone; those, and the ones the handler refused, are written to
 * the dead-letter topic with their error and origin, logged once each, and the batch
 * resolves, so the bus commits past them. One bad message in n costs about 2·log2(n) extra
 * handler calls; the messages around it are handled again, which every downstream write
 * tolerates (at least once, idempotent). A transient failure, even during the split, is
 * thrown as it is: the bus retries the batch with backoff and nothing is dead-lettered.
 */
export function withDeadLetters(handle: DeadLetterHandler, opts: DeadLetterOptions): DeadLetterRouter {
  const isPermanent = opts.isPermanent ?? isPermanentFailure;
  let count = 0;

  async function deadLetter(topic: string, rejected: readonly Rejected[]): Promise<void> {
    if (rejected.length === 0) return;
    const deadAt = Date.now();
    const letters = rejected.map(({ message, error }) => {
      const code = failureCode(error);
      const letter: DeadLetter = {
        id: randomUUID(),
        topic,
        partition: message.partition,
        offset: message.offset,
        groupId: opts.groupId,
        key: message.key,
        value: message.value.toString("base64"),
        error: { name: error.name, message: error.message.slice(0, MAX_ERROR_MESSAGE), ...(code ? { code } : {}) },
        deadAt,
      };
      return letter;
    });
    await opts.producer.send(
      opts.deadTopic,
      letters.map((l) => ({ key: l.key, value: JSON.stringify(l) })),
    );
    count += letters.length;
    for (const l of letters) {
      opts.logger.warn({ topic, partition: l.partition, offset: l.offset, key: l.key, deadTopic: opts.deadTopic, letterId: l.id, error: l.error }, "message dead-lettered: it can never be processed as it is");
    }
  }

  /** Handles `messages` whole or, failing permanently, in halves; returns what could not be handled. */
  async function isolate(topic: string, partition: number, messages: DeliveredMessage[]): Promise<Rejected[]> {
    try {
      return [...((await handle({ topic, partition, messages, isolated: true })) ?? [])];
    } catch (err) {
      if (!isPermanent(err)) throw err;
      if (messages.length === 1) return [{ message: messages[0]!, error: toError(err) }];
    }
    const mid = Math.ceil(messages.length / 2);
    const left = await isolate(topic, partition, messages.slice(0, mid));
    const right = await isolate(topic, partition, messages.slice(mid));
    return [...left, ...right];
  }

  return {
    async handleBatch({ topic, partition, messages }) {
      let rejected: readonly Rejected[];
      try {
        rejected = (await handle({ topic, partition, messages, isolated: false })) ?? [];
      } catch (err) {
        if (!isPermanent(err)) throw err;
        rejected = await isolate(topic, partition, messages);
      }
      await deadLetter(topic, rejected);
    },
    deadLettered: () => count,
  };
}

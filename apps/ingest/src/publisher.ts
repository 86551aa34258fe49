import { createBatcher } from "@fleet/batcher";
import type { BusProducer, OutgoingMessage } from "@fleet/bus";
import { Topics, type RawPosition } from "@fleet/contracts";
import { createIdGenerator } from "./ids.js";
import type { ParsedPosition } from "./parse.js";

export class BusUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("The position queue is unavailable, try again later.", { cause });
    this.name = "BusUnavailableError";
  }
}

export interface Publisher {
  /** Resolves once the bus holds every one of `positions` durably; rejects with BusUnavailableError otherwise. */
  publish(positions: readonly ParsedPosition[]): Promise<void>;
  close(): Promise<void>;
}

export interface PublisherOptions {
  producer: BusProducer;
  /**
   * Opens a producer like `producer` (`() => bus.producer()`). Given, a producer whose send
   * failed or timed out is closed and never used again: the next send opens a new one. Kafka
   * needs it (see MAX_SENDS_IN_FLIGHT); without it `producer` is kept whatever happens (the
   * in-process bus, test stubs).
   */
  openProducer?: () => Promise<BusProducer>;
  batchMax: number;
  lingerMs: number;
  sendTimeoutMs: number;
  /** Default positions.raw; tests and benchmarks use their own. */
  topic?: string;
  now?: () => number;
}

/**
 * One send at a time, and a producer whose send failed is replaced: otherwise a position can
 * be acknowledged and never written. kafkajs's idempotent producer gives a request's record
 * batches their sequence numbers and, when the request fails in any way, takes those numbers
 * back, even if the broker wrote some or all of the batches (a response lost with the
 * connection, a partition answering NOT_LEADER while others were written, as a broker that is
 * shutting down does). kafkajs retries the same batches with the same numbers, and the broker
 * rightly takes them as duplicates; but a different send on the same producer that gets the
 * broker lock first is given those numbers, and the broker, which compares only producer id
 * and sequence range (the bus packs a send into one record per partition, so the ranges match),
 * acknowledges it as a duplicate without writing it. Seen in broker-outage.test.ts: 27 acked
 * positions missing from positions.raw after a broker stop, and 27 refused ones written.
 * With one send in flight, a failed request is retried only by its own send; a send that
 * failed or timed out leaves its producer to finish (or not) in the background, and the next
 * send goes through a new producer, with a new producer id and its own sequence numbers.
 * kafkajs's per-broker lock already allowed one produce request in flight at a time, so the
 * batches just grow while a send waits.
 */
const MAX_SENDS_IN_FLIGHT = 1;

/**
 * Many requests share one bus send: the durable path waits for acks=all, and sharing
 * the round trip is what keeps it close to the speed of a bare HTTP server.
 */
export function createPublisher(opts: PublisherOptions): Publisher {
  const now = opts.now ?? Date.now;
  const nextId = createIdGenerator(now);
  const topic = opts.topic ?? Topics.positionsRaw;
  const open = opts.openProducer;
  /** The producer sends go through; undefined: the next send opens one. */
  let current: Promise<BusProducer> | undefined = Promise.resolve(opts.producer);
  const producer = (): Promise<BusProducer> => {
    if (current) return current;
    const opening = open!();
    current = opening;
    // A broker that is down: this send fails at its deadline, and the next one tries again.
    opening.catch(() => {
      if (current === opening) current = undefined;
    });
    return opening;
  };
  /** After a failed send: the next send opens a new producer, and this one is closed. */
  const retire = (used: Promise<BusProducer>) => {
    if (!open || current !== used) return;
    current = undefined;
    // Its failed request may still be retried by kafkajs and written: at least once, like any 503.
    used.then((p) => p.close()).catch(() => undefined);
  };
  /** One timer per send, not per request: a send that outlives the timeout fails every request in it. */
  const sendWithDeadline = async (messages: OutgoingMessage[]) => {
    let timer: NodeJS.Timeout | undefined;
    let expired = false;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true;
        reject(new BusUnavailableError("timeout"));
      }, opts.sendTimeoutMs);
    });
    // The deadline covers opening the producer too (kafkajs retries connecting for seconds).
    const used = producer();
    let sent = false;
    const sending = used.then((p) => {
      // Opened too late for this send: sending now would put two sends on one producer.
      if (expired) throw new BusUnavailableError("timeout");
      sent = true;
      return p.send(topic, messages, { timeoutMs: opts.sendTimeoutMs });
    });
    try {
      await Promise.race([sending, deadline]);
    } catch (err) {
      // A producer still opening sent nothing: the next send waits for it instead of opening another.
      if (sent) retire(used);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  };
  const batcher = createBatcher<OutgoingMessage>({ maxItems: opts.batchMax, lingerMs: opts.lingerMs, maxConcurrent: MAX_SENDS_IN_FLIGHT, flush: sendWithDeadline });

  return {
    // A request waits for its own send, and at most for the sends in flight before it to
    // finish or time out: its answer comes within twice the send timeout.
    async publish(positions) {
      const serverTime = now();
      const messages = positions.map((p): OutgoingMessage => {
        // Field by field rather than { id, ...p, serverTime }: the spread was ~5% of the server's CPU per request.
        const raw: RawPosition = {
          id: nextId(),
          uniqueId: p.uniqueId,
          protocol: p.protocol,
          latitude: p.latitude,
          longitude: p.longitude,
          altitude: p.altitude,
          course: p.course,
          speed: p.speed,
          fixTime: p.fixTime,
          attributes: p.attributes,
          serverTime,
        };
        return { key: p.uniqueId, value: JSON.stringify(raw) };
      });
      try {
        await batcher.add(messages);
      } catch (err) {
        throw err instanceof BusUnavailableError ? err : new BusUnavailableError(err);
      }
    },
    async close() {
      await batcher.drain();
      const last = current;
      current = undefined;
      const p = await last?.catch(() => undefined);
      await p?.close();
    },
  };
}

/**
 * A copy of @fleet/ingest's createPublisher with the batcher swapped for a group commit:
 * a flush starts as soon as fewer than `maxInFlight` are running (no linger), and
 * whatever arrives meanwhile rides the next one. setImmediate makes every request parsed
 * in the same event-loop turn share a flush.
 */
import type { BusMessage, BusProducer } from "@fleet/bus";
import type { RawPosition } from "@fleet/contracts";
import type { ParsedPosition, Publisher } from "@fleet/ingest";
import { BusUnavailableError } from "@fleet/ingest";

interface Entry {
  messages: BusMessage[];
  resolve(): void;
  reject(err: unknown): void;
}

export interface GroupCommitOptions {
  producer: BusProducer;
  topic: string;
  maxItems: number;
  maxInFlight: number;
  sendTimeoutMs: number;
  /** Per-request deadline timer as the stock publisher has (a setTimeout + Promise.race per request). */
  perRequestDeadline: boolean;
}

export function createGroupCommitPublisher(opts: GroupCommitOptions): Publisher {
  let queue: Entry[] = [];
  let queued = 0;
  let inFlight = 0;
  let scheduled = false;
  let last = 0;
  const EPOCH = Date.UTC(2025, 0, 1);
  const nextId = () => (last = Math.max(last + 1, (Date.now() - EPOCH) * 8192));

  function take(): Entry[] {
    let n = 0;
    let i = 0;
    while (i < queue.length && (i === 0 || n + queue[i]!.messages.length <= opts.maxItems)) n += queue[i++]!.messages.length;
    const batch = queue.slice(0, i);
    queue = queue.slice(i);
    queued -= n;
    return batch;
  }

  function pump() {
    scheduled = false;
    while (queued > 0 && inFlight < opts.maxInFlight) {
      const batch = take();
      inFlight++;
      const messages = batch.length === 1 ? batch[0]!.messages : batch.flatMap((e) => e.messages);
      opts.producer.send(opts.topic, messages, { timeoutMs: opts.sendTimeoutMs }).then(
        () => {
          inFlight--;
          for (const e of batch) e.resolve();
          schedule();
        },
        (err: unknown) => {
          inFlight--;
          for (const e of batch) e.reject(new BusUnavailableError(err));
          schedule();
        },
      );
    }
  }
  function schedule() {
    if (!scheduled && queued > 0 && inFlight < opts.maxInFlight) {
      scheduled = true;
      setImmediate(pump);
    }
  }

  return {
    publish(positions: readonly ParsedPosition[]) {
      const serverTime = Date.now();
      const messages = positions.map((p): BusMessage => {
        const raw: RawPosition = { id: nextId(), ...p, serverTime };
        return { key: p.uniqueId, value: Buffer.from(JSON.stringify(raw)) };
      });
      const added = new Promise<void>((resolve, reject) => {
        queue.push({ messages, resolve, reject });
        queued += messages.length;
        schedule();
      });
      if (!opts.perRequestDeadline) return added;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new BusUnavailableError("timeout")), opts.sendTimeoutMs);
      });
      return Promise.race([added, deadline]).finally(() => clearTimeout(timer));
    },
    async close() {
      while (queued > 0 || inFlight > 0) await new Promise((r) => setTimeout(r, 5));
      await opts.producer.close();
    },
  };
}

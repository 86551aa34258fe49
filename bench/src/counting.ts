import type { Bus, BusProducer } from "@fleet/bus";

/**
 * Sends, the messages they carried and the time they took: flush sizes tell how well
 * requests share a send, and the send time is most of what a request waits for.
 */
export interface SendCounter {
  sends: number;
  messages: number;
  /** Summed from each send's start to its acknowledgement. */
  sendMs: number;
}

export function countingProducer(producer: BusProducer, counter: SendCounter): BusProducer {
  return {
    send(topic, messages, opts) {
      counter.sends++;
      counter.messages += messages.length;
      const t0 = performance.now();
      const sent = producer.send(topic, messages, opts);
      // Counted whether the send succeeds or not; the caller still sees its outcome.
      void sent.then(
        () => (counter.sendMs += performance.now() - t0),
        () => (counter.sendMs += performance.now() - t0),
      );
      return sent;
    },
    close: () => producer.close(),
  };
}

/** A bus whose producers count what they send; consuming is unchanged. */
export function countingBus(bus: Bus, counter: SendCounter): Bus {
  return {
    kind: bus.kind,
    producer: async () => countingProducer(await bus.producer(), counter),
    consume: (o) => bus.consume(o),
    read: (t, o) => bus.read(t, o),
    ensureTopics: (t, partitions) => bus.ensureTopics(t, partitions),
    close: () => bus.close(),
  };
}

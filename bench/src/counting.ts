import type { Bus, BusProducer } from "@fleet/bus";

/** Sends and the messages they carried: flush sizes tell how well requests share a send. */
export interface SendCounter {
  sends: number;
  messages: number;
}

export function countingProducer(producer: BusProducer, counter: SendCounter): BusProducer {
  return {
    send(topic, messages, opts) {
      counter.sends++;
      counter.messages += messages.length;
      return producer.send(topic, messages, opts);
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
    ensureTopics: (t, partitions) => bus.ensureTopics(t, partitions),
    close: () => bus.close(),
  };
}

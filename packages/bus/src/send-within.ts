import type { BusProducer, OutgoingMessage } from "./port.js";

/**
 * Sends and resolves once the bus holds the messages, or rejects after `timeoutMs`: the
 * producer honours its timeout too, this bounds the wait whatever the adapter does. For a
 * request that waits on the bus (a command, a notice), where an answer late is no answer.
 */
export async function sendWithin(producer: BusProducer, topic: string, messages: readonly OutgoingMessage[], timeoutMs: number, what = "the messages"): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the bus did not take ${what} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([producer.send(topic, messages, { timeoutMs }), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

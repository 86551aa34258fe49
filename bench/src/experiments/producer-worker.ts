/** Worker side of worker-producer.ts: a @fleet/bus Kafka producer in its own thread. */
import { parentPort, workerData } from "node:worker_threads";
import { createKafkaBus, type OutgoingMessage } from "@fleet/bus";

const { brokers, topic } = workerData as { brokers: string[]; topic: string };
const bus = createKafkaBus({ brokers, clientId: "fleet-bench-worker-producer" });
await bus.ensureTopics([topic], 12);
const producer = await bus.producer();
parentPort!.on("message", (m: { id: number; topic: string; messages: OutgoingMessage[]; timeoutMs?: number } | "close") => {
  if (m === "close") {
    void producer.close().then(() => bus.close()).then(() => parentPort!.postMessage("closed"));
    return;
  }
  producer.send(m.topic, m.messages, { timeoutMs: m.timeoutMs }).then(
    () => parentPort!.postMessage({ id: m.id }),
    (err: Error) => parentPort!.postMessage({ id: m.id, error: err.message }),
  );
});
parentPort!.postMessage("ready");

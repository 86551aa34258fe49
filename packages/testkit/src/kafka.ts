import { Kafka, logLevel } from "kafkajs";
import { uniqueSuffix } from "./fixtures.js";
import { serviceUrls } from "./services.js";

export interface KafkaTest {
  brokers: string[];
  /** A topic name unique to this call (and remembered for cleanup). */
  topic(name: string): string;
  /** A consumer group id unique to this call (and remembered for cleanup). */
  groupId(name: string): string;
  /** Deletes the topics and groups handed out so far; best effort, never throws. */
  cleanup(): Promise<void>;
}

/**
 * Names on the shared test Kafka. Other engineers' tests use the same broker at the same
 * time, so every topic and group id carries a random suffix, and `cleanup` (register it
 * with afterAll) removes them so the broker does not accumulate test topics.
 */
export function kafkaTest(label = "test"): KafkaTest {
  const brokers = serviceUrls.kafka.split(",").map((b) => b.trim());
  const suffix = uniqueSuffix();
  const topics = new Set<string>();
  const groups = new Set<string>();
  return {
    brokers,
    topic(name) {
      const t = `test.${label}.${name}.${suffix}`;
      topics.add(t);
      return t;
    },
    groupId(name) {
      const g = `test.${label}.${name}.${suffix}`;
      groups.add(g);
      return g;
    },
    async cleanup() {
      if (topics.size === 0 && groups.size === 0) return;
      const admin = new Kafka({ clientId: "testkit-cleanup", brokers, logLevel: logLevel.NOTHING }).admin();
      try {
        await admin.connect();
        // Groups first: a group's offsets outlive its topic otherwise. A group that never
        // committed does not exist, so a per-group error is expected and ignored.
        if (groups.size > 0) await admin.deleteGroups([...groups]).catch(() => undefined);
        const existing = new Set(await admin.listTopics());
        const mine = [...topics].filter((t) => existing.has(t));
        if (mine.length > 0) await admin.deleteTopics({ topics: mine });
      } catch (err) {
        console.warn(`[testkit] kafka cleanup failed: ${String(err)}`);
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    },
  };
}

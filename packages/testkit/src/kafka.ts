import { Kafka, logLevel, type Admin } from "kafkajs";
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

/**
 * A consumer group's committed offsets summed over the topic's partitions, and the topic's end
 * offsets summed: with one record per message, how far the group has come. The bus port has no
 * admin side, so crash tests read this with kafkajs itself.
 */
export async function groupProgress(admin: Admin, groupId: string, topic: string): Promise<{ committed: number; end: number }> {
  const ends = await admin.fetchTopicOffsets(topic);
  const [mine] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const committedBy = new Map((mine?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
  let committed = 0;
  let end = 0;
  for (const p of ends) {
    end += Number(p.high);
    const c = committedBy.get(p.partition) ?? -1;
    committed += c < 0 ? Number(p.low) : c; // -1: nothing committed yet
  }
  return { committed, end };
}


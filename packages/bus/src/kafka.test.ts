import { Kafka, logLevel, type Admin } from "kafkajs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hasService, kafkaTest, waitFor } from "@fleet/testkit";
import { encodeEnvelope } from "./envelope.js";
import { BusSendTimeoutError, createKafkaBus, type KafkaBusOptions } from "./kafka.js";
import { partitionForKey } from "./murmur2.js";
import type { Bus, DeliveredMessage } from "./port.js";

// Kafka-only behaviour; the shared contract is in contract.test.ts. Skipped without the
// broker on 127.0.0.1:9092 (infra/kafka.sh start); global setup reports the skip.


describe.runIf(hasService("kafka"))("kafka bus adapter", () => {
  const k = kafkaTest("bus-kafka");
  const raw = new Kafka({ clientId: "bus-kafka-test-raw", brokers: k.brokers, logLevel: logLevel.NOTHING });
  let admin: Admin;
  beforeAll(async () => {
    admin = raw.admin();
    await admin.connect();
    // On a fresh broker the group coordinator appears only after a first lookup; the tests below
    // use retries too short to wait for it. infra/kafka.sh does the same, this covers other brokers.
    await admin.describeGroups([k.groupId("warmup")]);
  });
  afterAll(async () => {
    await admin.disconnect();
    await k.cleanup();
  });
  let bus: Bus | undefined;
  afterEach(async () => {
    await bus?.close();
  });
  const make = (extra: Partial<KafkaBusOptions> = {}) =>
    (bus = createKafkaBus({
      brokers: k.brokers,
      clientId: "bus-kafka-test",
      consumer: { sessionTimeout: 6_000, heartbeatInterval: 300, maxWaitTimeInMs: 100 },
      ...extra,
    }));

  it("rejects a send not acknowledged within timeoutMs, and the producer keeps working", async () => {
    const b = make();
    const topic = k.topic("timeout");
    await b.ensureTopics([topic], 3);
    const producer = await b.producer();
    // 2000 messages cannot be encoded, written and acknowledged within 1 ms.
    const many = Array.from({ length: 2000 }, (_, i) => ({ key: `k${i % 50}`, value: Buffer.alloc(200, i) }));
    await expect(producer.send(topic, many, { timeoutMs: 1 })).rejects.toBeInstanceOf(BusSendTimeoutError);
    await producer.send(topic, [{ key: "k", value: Buffer.from("after") }], { timeoutMs: 10_000 });
  });

  it("keeps a consumer going when its handler fails more often than kafkajs retries", async () => {
    // Few, quick retries: the handler outlasts them, kafkajs restarts the consumer, which must
    // rejoin and get the batch again instead of stopping for good.
    const fatal: Error[] = [];
    const messages: string[] = [];
    const note = (_obj: object, msg?: string) => void messages.push(msg ?? "");
    const b = make({
      retry: { initialRetryTime: 20, maxRetryTime: 100, retries: 1 },
      onFatal: (e) => void fatal.push(e),
      logger: { info: note, warn: note, error: note },
    });
    const topic = k.topic("persistent");
    await b.ensureTopics([topic], 1);
    const producer = await b.producer();
    await producer.send(topic, [{ key: "k", value: Buffer.from("v") }]);
    let failures = 0;
    let handled = false;
    await b.consume({
      groupId: k.groupId("persistent"),
      topic,
      handleBatch: async () => {
        if (failures < 5) {
          failures++;
          throw new TypeError("still down");
        }
        handled = true;
      },
    });
    await waitFor("the batch to succeed after the failures", () => handled);
    expect(failures).toBe(5);
    expect(fatal).toEqual([]);
    // It did go through kafkajs's crash-and-restart, and came back.
    expect(messages.filter((m) => m.startsWith("Restarting the consumer")).length).toBeGreaterThan(0);
  });

  /** Consumes `topic` with a new group into an array, logging what the adapter logs. */
  async function collect(b: Bus, topic: string, name: string) {
    const got: DeliveredMessage[] = [];
    await b.consume({
      groupId: k.groupId(name),
      topic,
      handleBatch: async ({ messages }) => void got.push(...messages),
    });
    return got;
  }

  /** Records in each partition of `topic` (high watermarks; the topics here are never compacted). */
  async function recordsIn(topic: string): Promise<Map<number, number>> {
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(offsets.map((o) => [o.partition, Number(o.high)]));
  }

  it("packs a send into one record per partition, each on the partition kafkajs would pick for its keys", async () => {
    const b = make();
    const topic = k.topic("packed");
    await b.ensureTopics([topic], 6);
    const producer = await b.producer();
    const sent = Array.from({ length: 600 }, (_, i) => ({ key: `dev-${i % 40}`, value: Buffer.from(`dev-${i % 40}/${Math.floor(i / 40)}`) }));
    await producer.send(topic, sent);
    const records = await recordsIn(topic);
    const used = new Set(sent.map((m) => partitionForKey(m.key, 6)));
    expect([...records].filter(([, n]) => n > 0).sort(([a], [b]) => a - b)).toEqual([...used].sort((a, b) => a - b).map((p) => [p, 1]));

    const got = await collect(b, topic, "packed");
    await waitFor("every message", () => got.length === sent.length);
    for (const m of got) {
      expect(m.partition).toBe(partitionForKey(m.key, 6));
      expect(m.offset).toMatch(/^0:\d+$/); // each partition's one record, at offset 0
    }
    // Per key, in send order.
    const byKey = (ms: { key: string; value: Buffer }[], key: string) => ms.filter((m) => m.key === key).map((m) => m.value.toString());
    for (let d = 0; d < 40; d++) expect(byKey(got, `dev-${d}`)).toEqual(byKey(sent, `dev-${d}`));
  });

  it("sends more than 1 MiB for one key (one partition) as several records, in order", async () => {
    const b = make();
    const topic = k.topic("large");
    await b.ensureTopics([topic], 3);
    const producer = await b.producer();
    // 3000 × 600 bytes ≈ 1.7 MiB for one partition: one request with it all would be over the broker's 1 MiB.
    const sent = Array.from({ length: 3000 }, (_, i) => ({ key: "352093081234567", value: Buffer.alloc(600, String(i % 10)) }));
    for (const [i, m] of sent.entries()) m.value.write(`${i};`);
    await producer.send(topic, sent, { timeoutMs: 20_000 });
    const partition = partitionForKey("352093081234567", 3);
    const records = await recordsIn(topic);
    expect(records.get(partition)).toBeGreaterThanOrEqual(7); // ≤ 256 KiB each
    expect(records.get(partition)).toBeLessThanOrEqual(8);

    const got = await collect(b, topic, "large");
    await waitFor("every message", () => got.length === sent.length);
    expect(got.map((m) => m.value.toString().split(";")[0])).toEqual(sent.map((_, i) => String(i)));
    expect(got.every((m) => m.partition === partition)).toBe(true);
  });

  it("delivers plain records from other producers, between packed ones, in order", async () => {
    const b = make();
    const topic = k.topic("plain");
    await b.ensureTopics([topic], 1);
    const producer = await b.producer();
    const plainProducer = raw.producer();
    await plainProducer.connect();
    try {
      await producer.send(topic, [{ key: "a", value: Buffer.from("1") }, { key: "b", value: Buffer.from("2") }]);
      await plainProducer.send({ topic, messages: [{ key: "a", value: "3" }, { key: null, value: "4" }, { key: "c", value: null }] });
      await producer.send(topic, [{ key: "b", value: Buffer.from("5") }]);
    } finally {
      await plainProducer.disconnect();
    }
    const got = await collect(b, topic, "plain");
    await waitFor("every message", () => got.length === 6);
    expect(got.map((m) => [m.key, m.value.toString(), m.offset])).toEqual([
      ["a", "1", "0:0"],
      ["b", "2", "0:1"],
      ["a", "3", "1"],
      ["", "4", "2"],
      ["c", "", "3"],
      ["b", "5", "4:0"],
    ]);
  });

  it("logs and skips a packed record that does not decode or has an unknown format, and goes on", async () => {
    const errors: { obj: object; msg: string }[] = [];
    const b = make({ logger: { info() {}, warn() {}, error: (obj, msg) => void errors.push({ obj, msg: msg ?? "" }) } });
    const topic = k.topic("corrupt");
    const groupId = k.groupId("corrupt");
    await b.ensureTopics([topic], 1);
    const plainProducer = raw.producer();
    await plainProducer.connect();
    try {
      const good = encodeEnvelope([{ key: "k", value: Buffer.from("good") }]);
      await plainProducer.send({
        topic,
        messages: [
          { value: good.subarray(0, good.length - 1), headers: { "fleet-batch": "1" } }, // truncated
          { value: Buffer.from("[1,2]"), headers: { "fleet-batch": "1" } },
          { value: null, headers: { "fleet-batch": "1" } },
          { value: good, headers: { "fleet-batch": "2" } }, // a format from the future
          { value: good, headers: { "fleet-batch": "1" } },
        ],
      });
    } finally {
      await plainProducer.disconnect();
    }
    const got: DeliveredMessage[] = [];
    const consumer = await b.consume({ groupId, topic, handleBatch: async ({ messages }) => void got.push(...messages) });
    await waitFor("the good message", () => got.length > 0);
    expect(got.map((m) => [m.key, m.value.toString(), m.offset])).toEqual([["k", "good", "4:0"]]);
    expect(errors.map((e) => [e.msg, (e.obj as { offset?: string }).offset])).toEqual([
      ["skipping a packed record that does not decode", "0"],
      ["skipping a packed record that does not decode", "1"],
      ["skipping a packed record that does not decode", "2"],
      ["skipping a packed record of an unknown format", "3"],
    ]);
    await consumer.close();
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    expect(committed?.partitions).toEqual([expect.objectContaining({ partition: 0, offset: "5" })]);
  });

  it("learns the partition count from kafkajs on a producer's first send to a topic it knows nothing of", async () => {
    const b = make();
    const topic = k.topic("learn");
    // Created through another bus: this one has not read the topic's partitions.
    const other = createKafkaBus({ brokers: k.brokers, clientId: "bus-kafka-test-other" });
    await other.ensureTopics([topic], 2);
    await other.close();
    const producer = await b.producer();
    const keys = Array.from({ length: 30 }, (_, i) => `dev-${i}`);
    const round = (r: number) => keys.map((key) => ({ key, value: Buffer.from(`${key}/${r}`) }));
    await producer.send(topic, round(0)); // plain records through kafkajs's partitioner
    await producer.send(topic, round(1)); // packed by the count it saw
    expect([...(await recordsIn(topic)).values()].reduce((a, n) => a + n, 0)).toBe(30 + 2);
    const got = await collect(b, topic, "learn");
    await waitFor("every message", () => got.length === 60);
    expect(got.filter((m) => m.partition !== partitionForKey(m.key, 2))).toEqual([]);
  });

  it("packs again when kafkajs's metadata has another partition count than the one packed for", async () => {
    const b = make();
    const topic = k.topic("count");
    await b.ensureTopics([topic], 2);
    // Four partitions now, which this bus has not read; a new producer's kafkajs metadata has them.
    await admin.createPartitions({ topicPartitions: [{ topic, count: 4 }] });
    // The broker's metadata cache learns of new partitions a moment later; until then a new producer would still see two.
    await waitFor("the broker to report four partitions", async () => {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      return topics[0]?.partitions.length === 4;
    });
    const producer = await b.producer();
    const sent = Array.from({ length: 30 }, (_, i) => ({ key: `dev-${i}`, value: Buffer.from(`${i}`) }));
    await producer.send(topic, sent);
    const records = await recordsIn(topic);
    expect([...records.values()].reduce((a, n) => a + n, 0)).toBe(4); // packed, one record per partition
    const got = await collect(b, topic, "count");
    await waitFor("every message", () => got.length === sent.length);
    // Where kafkajs's partitioner would put each key now, not by the stale count.
    expect(got.filter((m) => m.partition !== partitionForKey(m.key, 4))).toEqual([]);
    expect(got.some((m) => m.partition !== partitionForKey(m.key, 2))).toBe(true);
  });
});

import { sleep } from "@fleet/testkit";
import { describe, expect, it } from "vitest";
import { createMemoryBus } from "./memory.js";
import { partitionForKey } from "./murmur2.js";
import type { DeliveredMessage } from "./port.js";

// Behaviour of the embedded adapter beyond the shared contract (contract.test.ts).
const msg = (key: string, v: string) => ({ key, value: Buffer.from(v) });

describe("memory bus", () => {
  it("accepts sends without any consumer and partitions by key like Kafka", async () => {
    const bus = createMemoryBus({ partitions: 12 });
    const producer = await bus.producer();
    const keys = ["imei-1", "imei-2", "imei-3", "imei-1"];
    await producer.send("t", keys.map((k, i) => msg(k, String(i))));
    const got: DeliveredMessage[] = [];
    await bus.consume({ groupId: "g", topic: "t", handleBatch: async ({ messages }) => void got.push(...messages) });
    await sleep(10);
    // Offsets count per partition, in send order.
    const next = new Map<number, number>();
    const expected = keys.map((key, i) => {
      const partition = partitionForKey(key, 12);
      const offset = next.get(partition) ?? 0;
      next.set(partition, offset + 1);
      return [key, String(i), partition, String(offset)];
    });
    const actual = got.map((m) => [m.key, m.value.toString(), m.partition, m.offset]);
    expect(actual).toHaveLength(keys.length);
    expect(actual).toEqual(expect.arrayContaining(expected));
    await bus.close();
  });

  it("drains: waits until consumers handled what was sent, and what handling sent on, or says how much is left", async () => {
    const bus = createMemoryBus({ partitions: 2, maxBatchSize: 10 });
    const producer = await bus.producer();
    const relayed: string[] = [];
    await bus.consume({ groupId: "relay", topic: "in", handleBatch: async ({ messages }) => {
      await sleep(5);
      await producer.send("out", messages.map((m) => msg(m.key, m.value.toString())));
    } });
    await bus.consume({ groupId: "sink", topic: "out", handleBatch: async ({ messages }) => void relayed.push(...messages.map((m) => m.value.toString())) });
    await producer.send("in", Array.from({ length: 100 }, (_, i) => msg(`k${i % 7}`, String(i))));
    expect(await bus.drain(10_000)).toBe(0);
    expect(relayed).toHaveLength(100);

    await bus.consume({ groupId: "broken", topic: "stuck", handleBatch: async () => Promise.reject(new Error("down")) });
    await producer.send("stuck", [msg("k", "a"), msg("k", "b")]);
    expect(await bus.drain(200)).toBe(2);
    await bus.close();
  });

  it("starts a new group at the end of the log when fromBeginning is false", async () => {
    const bus = createMemoryBus();
    const producer = await bus.producer();
    await producer.send("t", [msg("k", "old")]);
    const got: string[] = [];
    await bus.consume({
      groupId: "g",
      topic: "t",
      fromBeginning: false,
      handleBatch: async ({ messages }) => void got.push(...messages.map((m) => m.value.toString())),
    });
    await producer.send("t", [msg("k", "new")]);
    await sleep(10);
    expect(got).toEqual(["new"]);
    await bus.close();
  });

  it("hands batches of at most maxBatchSize and resumes a group where it committed", async () => {
    const bus = createMemoryBus({ partitions: 1, maxBatchSize: 3 });
    const producer = await bus.producer();
    await producer.send("t", Array.from({ length: 7 }, (_, i) => msg("k", String(i))));
    const sizes: number[] = [];
    const first = await bus.consume({ groupId: "g", topic: "t", handleBatch: async (b) => void sizes.push(b.messages.length) });
    await sleep(10);
    await first.close();
    expect(sizes).toEqual([3, 3, 1]);
    await producer.send("t", [msg("k", "7")]);
    const again: string[] = [];
    await bus.consume({ groupId: "g", topic: "t", handleBatch: async (b) => void again.push(...b.messages.map((m) => m.offset)) });
    await sleep(10);
    expect(again).toEqual(["7"]);
    await bus.close();
  });

  it("backs off between redeliveries instead of spinning", async () => {
    const bus = createMemoryBus({ partitions: 1, retryMs: 20, maxRetryMs: 40 });
    const producer = await bus.producer();
    await producer.send("t", [msg("k", "v")]);
    let calls = 0;
    await bus.consume({
      groupId: "g",
      topic: "t",
      handleBatch: async () => {
        calls++;
        throw new Error("down");
      },
    });
    await sleep(150);
    // 0, 20, 60, 100, 140 ms: a handful, not thousands.
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(calls).toBeLessThanOrEqual(6);
    await bus.close();
  });

  it("drops what every group has consumed, so a group joining later starts after it, offsets continuing", async () => {
    const bus = createMemoryBus({ partitions: 1 });
    const producer = await bus.producer();
    let seenByA = 0;
    const a = await bus.consume({ groupId: "a", topic: "t", handleBatch: async ({ messages }) => void (seenByA += messages.length) });
    await producer.send("t", Array.from({ length: 3000 }, (_, i) => msg("k", String(i))));
    for (let i = 0; i < 100 && seenByA < 3000; i++) await sleep(10);
    expect(seenByA).toBe(3000);
    await producer.send("t", [msg("k", "after")]);
    const got: DeliveredMessage[] = [];
    const b = await bus.consume({ groupId: "b", topic: "t", fromBeginning: true, handleBatch: async ({ messages }) => void got.push(...messages) });
    await sleep(20);
    // The 3,000 consumed by the only group are gone; the one sent after is still there.
    expect(got.map((m) => [m.value.toString(), m.offset])).toEqual([["after", "3000"]]);
    await a.close();
    await b.close();
    await bus.close();
  });

  it("rejects sends on a closed producer", async () => {
    const bus = createMemoryBus();
    const producer = await bus.producer();
    await producer.close();
    await expect(producer.send("t", [msg("k", "v")])).rejects.toThrow(/closed/);
  });
});

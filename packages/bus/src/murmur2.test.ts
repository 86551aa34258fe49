import { randomBytes } from "node:crypto";
import { Partitioners } from "kafkajs";
import { describe, expect, it } from "vitest";
import { partitionForKey } from "./murmur2.js";

describe("partitionForKey", () => {
  it("puts a key on the same partition as kafkajs's DefaultPartitioner", () => {
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 12 }, (_, partitionId) => ({
      partitionId,
      leader: 1,
      partitionErrorCode: 0,
      replicas: [1],
      isr: [1],
    }));
    // Every tail length (0-3 bytes past a multiple of 4), ASCII and multi-byte keys.
    const keys = ["", "a", "ab", "abc", "abcd", "352093081234567", "ünïcødé-Ж-设备", "0"];
    for (let i = 0; i < 500; i++) keys.push(randomBytes(1 + (i % 23)).toString("base64"));
    for (const key of keys) {
      const expected = partitioner({ topic: "t", partitionMetadata, message: { key, value: null } });
      expect(partitionForKey(key, 12), key).toBe(expected);
    }
  });
});

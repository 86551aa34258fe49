/**
 * Produce requests that `kafkajs-patch.test.ts` encodes with the patched kafkajs and
 * compares, by SHA-256, with what stock kafkajs 2.2.4 wrote for them. To record the
 * hashes again (only if a case changes), run the cases through an unpatched copy:
 * `tsx packages/bus/scripts/kafkajs-stock-hashes.ts <path to stock kafkajs>`.
 */

/** The part of kafkajs's Long the cases need. */
export interface LongLike {
  fromInt(n: number): unknown;
  fromNumber(n: number): unknown;
}

export interface ProduceCase {
  name: string;
  args: Record<string, unknown>;
}

/** Deterministic bytes: no randomness, so the recorded hashes hold on every machine. */
const pattern = (length: number, seed: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed * 17) % 251));

/** Date.now() while encoding: kafkajs writes it as the batch timestamps. */
export const FIXED_NOW = 1_763_700_000_123;

export function produceCases(Long: LongLike): ProduceCase[] {
  return [
    {
      // What @fleet/bus sends: one packed record per partition, with the fleet-batch header, idempotent.
      name: "packed records over 12 partitions",
      args: {
        acks: -1,
        timeout: 30_000,
        compression: 0,
        producerId: Long.fromInt(4242),
        producerEpoch: 1,
        topicData: [
          {
            topic: "positions.raw",
            partitions: Array.from({ length: 12 }, (_, p) => ({
              partition: p,
              firstSequence: p * 3,
              messages: [{ partition: p, value: pattern(1600 + p * 37, p), headers: { "fleet-batch": "1" } }],
            })),
          },
        ],
      },
    },
    {
      // A producer's first send to a topic: plain keyed records.
      name: "plain keyed records",
      args: {
        acks: -1,
        timeout: 5_000,
        compression: 0,
        topicData: [
          {
            topic: "positions.enriched",
            partitions: [
              {
                partition: 3,
                messages: Array.from({ length: 150 }, (_, i) => ({ key: `35693803564${String(i).padStart(4, "0")}`, value: JSON.stringify({ id: i, speed: i * 1.5 }) })),
              },
            ],
          },
        ],
      },
    },
    {
      name: "null keys and values, multi-byte text, repeated and Buffer headers, a transactional id, two topics",
      args: {
        acks: 1,
        timeout: 1,
        compression: 0,
        transactionalId: "tx-ünï",
        producerId: Long.fromNumber(2 ** 40 + 3),
        producerEpoch: 7,
        topicData: [
          {
            topic: "тема",
            partitions: [
              {
                partition: 0,
                firstSequence: 2_147_483_000,
                messages: [
                  { key: null, value: null },
                  { key: "", value: "" },
                  { key: "设备-Ж", value: "😀 value", headers: { a: ["1", "2"], b: pattern(40, 9), "": "" } },
                  { key: pattern(20, 1), value: pattern(0, 0), headers: {} },
                ],
              },
              { partition: 5, messages: [{ value: "only a value" }] },
            ],
          },
          { topic: "t", partitions: [{ partition: 1, messages: [{ key: "k", value: pattern(70_000, 3) }] }] },
        ],
      },
    },
    {
      // Messages with their own timestamps take kafkajs's stock path in the patched copy too.
      name: "messages with timestamps",
      args: {
        acks: -1,
        timeout: 30_000,
        compression: 0,
        topicData: [
          {
            topic: "positions.raw",
            partitions: [{ partition: 0, messages: [{ key: "a", value: "1", timestamp: FIXED_NOW - 5_000 }, { key: "b", value: "2", timestamp: FIXED_NOW - 1 }] }],
          },
        ],
      },
    },
  ];
}

import { createHash, randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FIXED_NOW, produceCases, type LongLike } from "./kafkajs-patch.cases.js";

/**
 * patches/kafkajs@2.2.4.patch rewrites kafkajs's produce encoding for speed. These check
 * that what goes on the wire is byte for byte what stock kafkajs 2.2.4 sends (the broker
 * also checks every batch's CRC, in the Kafka contract tests).
 */
const require = createRequire(import.meta.url);
type Encoded = { buffer: Buffer };
const produce = require("kafkajs/src/protocol/requests/produce/v3/request.js") as (args: Record<string, unknown>) => { encode(): Promise<Encoded> };
const frame = require("kafkajs/src/protocol/request.js") as (args: { correlationId: number; clientId: string; request: unknown }) => Promise<Encoded>;
const Long = require("kafkajs/src/utils/long.js") as LongLike;
const crc32C = require("kafkajs/src/protocol/recordBatch/crc32C/crc32C.js") as (b: Buffer) => number;
const Encoder = require("kafkajs/src/protocol/encoder.js") as {
  new (): { writeVarLong(v: number): { buffer: Buffer }; writeVarInt(v: number): { buffer: Buffer }; writeUVarInt(v: number): { buffer: Buffer } };
  sizeOfVarLong(v: number): number;
};

/** SHA-256 of each case's payload and framed request as stock kafkajs 2.2.4 encodes it (scripts/kafkajs-stock-hashes.ts). */
const STOCK: Record<string, { payload: string; framed: string }> = {
  "packed records over 12 partitions": {
    payload: "58398185dd1b4854045986541520c06d3a630ae1d48608d4f0b2497b0ad9053c",
    framed: "43cc8d7922a6dc23ba973d7c7a3ebdb2546844ecbc6edc73e45454855596dfe2",
  },
  "plain keyed records": {
    payload: "b3e5294c6fc7e59d489c004542f5e4eb4b5f8d43dab687309b61bb0445c61219",
    framed: "5d3dbdedc550d9b78b482fa2448825475881cc6d6d36fc3e3f36e105fc04f181",
  },
  "null keys and values, multi-byte text, repeated and Buffer headers, a transactional id, two topics": {
    payload: "059323f8087949af6fbe38c729613636af1816591fffc257d9773c8c89cd92dd",
    framed: "d273ed38163751a9652f766fc9d732e11d82df512be507d5986ef7d9176d2fb2",
  },
  "messages with timestamps": {
    payload: "806ea682ad8d925093e3b8a97b412b1bcdf59f5418ce324c6186b719e93b7c25",
    framed: "202eb7709db15f3c38eb169829645a3cd38bc3a723812f7985531ebf323628aa",
  },
};

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** CRC-32C a byte at a time, straight from the polynomial. */
function referenceCrc32C(buf: Buffer): number {
  let crc = ~0;
  for (const byte of buf) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return ~crc >>> 0;
}

/** Kafka's zigzag varlong, with BigInt. */
function referenceVarLong(v: number): Buffer {
  let z = BigInt.asUintN(64, (BigInt(v) << 1n) ^ (BigInt(v) >> 63n));
  const out: number[] = [];
  while (z >= 0x80n) {
    out.push(Number(z & 0x7fn) | 0x80);
    z >>= 7n;
  }
  out.push(Number(z));
  return Buffer.from(out);
}

describe("patched kafkajs", () => {
  afterEach(() => void vi.restoreAllMocks());

  it("is installed: the one-pass produce encoder is there", () => {
    expect(() => require.resolve("kafkajs/src/protocol/requests/produce/v3/fastEncode.js")).not.toThrow();
  });

  for (const c of produceCases(Long)) {
    it(`encodes a produce request as stock kafkajs does: ${c.name}`, async () => {
      vi.spyOn(Date, "now").mockReturnValue(FIXED_NOW);
      const want = STOCK[c.name]!;
      expect(sha((await produce(c.args).encode()).buffer)).toBe(want.payload);
      expect(sha((await frame({ correlationId: 7, clientId: "fleet", request: produce(c.args) })).buffer)).toBe(want.framed);
    });
  }

  it("computes CRC-32C like the byte-at-a-time definition, at every length and alignment", () => {
    expect(crc32C(Buffer.from("123456789"))).toBe(0xe3069283);
    const data = randomBytes(300);
    for (let start = 0; start < 9; start++) {
      for (let end = start; end <= data.length; end += 7) {
        const slice = data.subarray(start, end);
        expect(crc32C(slice), `bytes ${start}..${end}`).toBe(referenceCrc32C(slice));
      }
    }
  });

  it("writes varints and varlongs as Kafka defines them, small and large", () => {
    const values = [0, 1, -1, 63, 64, -64, -65, 127, 128, 8191, 8192, -(2 ** 20), 2 ** 30 - 1, -(2 ** 30), 2 ** 30, 2 ** 31 - 1, -(2 ** 31), 2 ** 40, -(2 ** 40), FIXED_NOW, Number.MAX_SAFE_INTEGER];
    for (const v of values) {
      expect(new Encoder().writeVarLong(v).buffer.toString("hex"), `varlong ${v}`).toBe(referenceVarLong(v).toString("hex"));
      expect(Encoder.sizeOfVarLong(v), `size of varlong ${v}`).toBe(referenceVarLong(v).length);
      if (v >= -(2 ** 31) && v < 2 ** 31) expect(new Encoder().writeVarInt(v).buffer.toString("hex"), `varint ${v}`).toBe(referenceVarLong(v).toString("hex"));
    }
  });
});

import { describe, expect, it } from "vitest";
import { RowBinaryReader } from "./row-binary.js";

function int64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(n);
  return b;
}

function string(s: string): Buffer {
  const bytes = Buffer.from(s, "utf8");
  const length: number[] = [];
  let n = bytes.length;
  do {
    length.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return Buffer.concat([Buffer.from(length), bytes]);
}

describe("RowBinaryReader", () => {
  it("reads numbers and strings in column order, a string of 128 bytes and more through its two-byte length", () => {
    const long = "x".repeat(200) + "Ω";
    const f = Buffer.alloc(8);
    f.writeDoubleLE(-33.868820123);
    const bytes = Buffer.concat([Buffer.from([1]), int64(2n ** 53n - 1n), int64(-5n), f, string(long), string(""), string("id:\"Ω\"")]);
    const r = new RowBinaryReader(new Uint8Array(bytes));
    expect(r.uint8()).toBe(1);
    expect(r.int64()).toBe(2 ** 53 - 1);
    expect(r.int64()).toBe(-5);
    expect(r.float64()).toBe(-33.868820123);
    expect(r.string()).toBe(long);
    expect(r.string()).toBe("");
    const [start, end] = r.stringRange();
    expect(Buffer.from(bytes.subarray(start, end)).toString("utf8")).toBe('id:"Ω"');
    expect(r.done).toBe(true);
  });

  it("refuses a 64-bit value beyond 2^53 and a string that runs past the end", () => {
    expect(() => new RowBinaryReader(new Uint8Array(int64(2n ** 53n))).int64()).toThrow(RangeError);
    expect(() => new RowBinaryReader(new Uint8Array(string("abc").subarray(0, 3))).string()).toThrow(RangeError);
  });
});

import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeEnvelope, encodeEnvelope, EnvelopeError, isEnvelopeVersion } from "./envelope.js";
import type { BusMessage } from "./port.js";

const plain = (ms: BusMessage[]) => ms.map((m) => ({ key: m.key, value: Buffer.from(m.value) }));

/** Equal keys and values in order (Buffer.equals: a deep compare of megabytes is slow). */
function expectSame(got: BusMessage[], want: BusMessage[]) {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    expect(got[i]!.key).toBe(want[i]!.key);
    expect(got[i]!.value.equals(want[i]!.value), `value ${i}`).toBe(true);
  }
}

describe("envelope", () => {
  it("round-trips messages in order, with empty, multi-byte and repeated keys and empty values", () => {
    const messages: BusMessage[] = [
      { key: "352093081234567", value: Buffer.from('{"id":1}') },
      { key: "", value: Buffer.from("no key") },
      { key: "ünïcødé-Ж-设备", value: Buffer.alloc(0) },
      { key: "352093081234567", value: Buffer.from('{"id":2}') },
      { key: "", value: Buffer.alloc(0) },
    ];
    const buf = encodeEnvelope(messages);
    expect(plain(decodeEnvelope(buf))).toEqual(plain(messages));
    // count + per message two lengths + the bytes themselves
    const bytes = messages.reduce((n, m) => n + 8 + Buffer.byteLength(m.key) + m.value.length, 4);
    expect(buf.length).toBe(bytes);
  });

  it("writes string values as their UTF-8 bytes, the same as the buffer would be", () => {
    const strings = [
      { key: "a", value: '{"name":"Aïsha","n":1}' },
      { key: "b", value: "" },
      { key: "c", value: "设备-Ж" },
    ];
    const asBuffers = strings.map((m) => ({ key: m.key, value: Buffer.from(m.value) }));
    expect(encodeEnvelope(strings).equals(encodeEnvelope(asBuffers))).toBe(true);
    expectSame(decodeEnvelope(encodeEnvelope(strings)), asBuffers);
  });

  it("round-trips large values and many messages", () => {
    const large = [{ key: "k", value: randomBytes(3 * 1024 * 1024) }, { key: "k2", value: randomBytes(70_000) }];
    expectSame(decodeEnvelope(encodeEnvelope(large)), large);
    const many = Array.from({ length: 10_000 }, (_, i) => ({ key: `dev-${i % 97}`, value: randomBytes(i % 50) }));
    expectSame(decodeEnvelope(encodeEnvelope(many)), many);
  });

  it("encodes nothing as an empty envelope", () => {
    expect(decodeEnvelope(encodeEnvelope([]))).toEqual([]);
  });

  it("uses the sizes the caller measured, and refuses wrong ones instead of leaking memory", () => {
    const ms = [{ key: "ab", value: Buffer.from("xyz") }];
    expect(plain(decodeEnvelope(encodeEnvelope(ms, [2], 4 + 8 + 2 + 3)))).toEqual(plain(ms));
    expect(() => encodeEnvelope(ms, [2], 4 + 8 + 2 + 3 + 1)).toThrow(RangeError);
    expect(() => encodeEnvelope(ms, [3], 4 + 8 + 3 + 3)).toThrow(RangeError);
  });

  it("gives values as views of the record, without copying", () => {
    const buf = encodeEnvelope([{ key: "k", value: Buffer.from("value") }]);
    const [m] = decodeEnvelope(buf);
    expect(m!.value.buffer).toBe(buf.buffer);
  });

  it("refuses every truncation of a valid envelope, and trailing bytes", () => {
    const buf = encodeEnvelope([
      { key: "dev-1", value: Buffer.from("first") },
      { key: "", value: Buffer.alloc(0) },
      { key: "dev-2", value: Buffer.from("second") },
    ]);
    for (let n = 0; n < buf.length; n++) expect(() => decodeEnvelope(buf.subarray(0, n)), `${n} bytes`).toThrow(EnvelopeError);
    expect(() => decodeEnvelope(Buffer.concat([buf, Buffer.from([0])]))).toThrow(/after the last/);
  });

  it("refuses lengths past the end, huge counts and random bytes without reading out of bounds", () => {
    const u32 = (...ns: number[]) => Buffer.concat(ns.map((n) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255])));
    const bad: [string, Buffer][] = [
      ["empty", Buffer.alloc(0)],
      ["a huge count", u32(0xffffffff)],
      ["a count with no entries", u32(1)],
      ["a key past the end", Buffer.concat([u32(1, 0xffffffff, 0), Buffer.alloc(8)])],
      ["a key that leaves no room for the value length", Buffer.concat([u32(1, 3), Buffer.from("abc"), Buffer.alloc(3)])],
      ["a value past the end", Buffer.concat([u32(1, 1), Buffer.from("k"), u32(0xfffffff0), Buffer.alloc(16)])],
      ["a value one byte too long", Buffer.concat([u32(1, 1), Buffer.from("k"), u32(3), Buffer.from("ab")])],
      ["JSON", Buffer.from('{"uniqueId":"352093081234567"}')],
    ];
    for (const [what, buf] of bad) expect(() => decodeEnvelope(buf), what).toThrow(EnvelopeError);
    // Whatever random bytes hold, decoding either works or throws EnvelopeError.
    for (let i = 0; i < 2000; i++) {
      const buf = randomBytes(i % 64);
      if (i % 3 === 0 && buf.length >= 4) buf.writeUInt32BE(i % 5, 0); // small counts get further in
      try {
        decodeEnvelope(buf);
      } catch (err) {
        expect(err).toBeInstanceOf(EnvelopeError);
      }
    }
  });

  it("recognises its header value as kafkajs hands it over", () => {
    expect(isEnvelopeVersion(Buffer.from("1"))).toBe(true);
    expect(isEnvelopeVersion("1")).toBe(true);
    expect(isEnvelopeVersion([Buffer.from("1")])).toBe(true);
    expect(isEnvelopeVersion(Buffer.from("2"))).toBe(false);
    expect(isEnvelopeVersion([Buffer.from("1"), Buffer.from("1")])).toBe(false);
    expect(isEnvelopeVersion(Buffer.alloc(0))).toBe(false);
  });
});

import type { BusMessage, OutgoingMessage } from "./port.js";

/** UTF-8 bytes of a message value, which may still be a string. */
export function valueBytes(value: Buffer | string): number {
  return typeof value === "string" ? Buffer.byteLength(value) : value.length;
}

/**
 * A packed record: consecutive bus messages of one partition carried by one Kafka record.
 * kafkajs's cost is per record (~11 µs of CPU to produce one, about as much to consume
 * it), so one record per position capped the platform near 55k positions/s; a record per
 * partition per send is a few µs per position all told.
 *
 * The record carries the header `fleet-batch: 1`; its value is
 *
 *     envelope := count:u32 entry{count}
 *     entry    := keyLength:u32 key:UTF-8[keyLength] valueLength:u32 value[valueLength]
 *
 * Integers are unsigned big-endian, like Kafka's own framing. The record itself has no key
 * (the entries have theirs) and an explicit partition: the one every entry's key maps to.
 * A record without the header is a plain message, so other producers keep working.
 */
export const ENVELOPE_HEADER = "fleet-batch";
export const ENVELOPE_VERSION = "1";

/** Bytes an envelope adds: the count, then two lengths per entry. */
export const ENVELOPE_BASE_BYTES = 4;
export const ENTRY_OVERHEAD_BYTES = 8;

/** An envelope that does not decode: truncated, lengths past the end, or bytes after the last entry. */
export class EnvelopeError extends Error {
  override name = "EnvelopeError";
}

/**
 * Encodes `messages` in order. `keyBytes[i]` and `valueLengths[i]` (UTF-8 lengths of each
 * message's key and value) and the total `size` may be passed when the caller measured them.
 */
export function encodeEnvelope(messages: readonly OutgoingMessage[], keyBytes?: readonly number[], size?: number, valueLengths?: readonly number[]): Buffer {
  const n = messages.length;
  const lengths = keyBytes ?? messages.map((m) => Buffer.byteLength(m.key));
  const vlengths = valueLengths ?? messages.map((m) => valueBytes(m.value));
  let total = size;
  if (total === undefined) {
    total = ENVELOPE_BASE_BYTES + n * ENTRY_OVERHEAD_BYTES;
    for (let i = 0; i < n; i++) total += lengths[i]! + vlengths[i]!;
  }
  const buf = Buffer.allocUnsafe(total);
  buf.writeUInt32BE(n, 0);
  let pos = ENVELOPE_BASE_BYTES;
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    const keyLength = lengths[i]!;
    buf.writeUInt32BE(keyLength, pos);
    pos += 4;
    if (keyLength > 0 && buf.write(m.key, pos, keyLength, "utf8") !== keyLength) throw new RangeError(`key ${i} is not ${keyLength} bytes long`);
    pos += keyLength;
    const valueLength = vlengths[i]!;
    buf.writeUInt32BE(valueLength, pos);
    pos += 4;
    if (typeof m.value === "string") {
      if (valueLength > 0 && buf.write(m.value, pos, valueLength, "utf8") !== valueLength) throw new RangeError(`value ${i} is not ${valueLength} bytes long`);
    } else buf.set(m.value, pos);
    pos += valueLength;
  }
  // Only a wrong `keyBytes` or `size` from the caller gets here; allocUnsafe must not leak old memory.
  if (pos !== total) throw new RangeError(`envelope size mismatch: wrote ${pos} of ${total} bytes`);
  return buf;
}

/**
 * Decodes an envelope into its messages, in order. Values are views into `buf` (no copy).
 * Throws EnvelopeError on anything malformed, never reads out of bounds and never
 * allocates by a length it has not checked against the bytes present.
 */
export function decodeEnvelope(buf: Buffer): BusMessage[] {
  const end = buf.length;
  if (end < ENVELOPE_BASE_BYTES) throw new EnvelopeError(`${end} byte(s): too short for the message count`);
  const count = buf.readUInt32BE(0);
  if (count > (end - ENVELOPE_BASE_BYTES) / ENTRY_OVERHEAD_BYTES) {
    throw new EnvelopeError(`claims ${count} messages in ${end} bytes`);
  }
  const out: BusMessage[] = [];
  let pos = ENVELOPE_BASE_BYTES;
  for (let i = 0; i < count; i++) {
    if (end - pos < ENTRY_OVERHEAD_BYTES) throw new EnvelopeError(`message ${i} of ${count}: truncated at byte ${pos}`);
    const keyLength = buf.readUInt32BE(pos);
    pos += 4;
    // The key and the value length that follows it must both fit.
    if (keyLength > end - pos - 4) throw new EnvelopeError(`message ${i} of ${count}: key of ${keyLength} bytes runs past the end`);
    const key = buf.toString("utf8", pos, pos + keyLength);
    pos += keyLength;
    const valueLength = buf.readUInt32BE(pos);
    pos += 4;
    if (valueLength > end - pos) throw new EnvelopeError(`message ${i} of ${count}: value of ${valueLength} bytes runs past the end`);
    out.push({ key, value: buf.subarray(pos, pos + valueLength) });
    pos += valueLength;
  }
  if (pos !== end) throw new EnvelopeError(`${end - pos} byte(s) after the last of ${count} messages`);
  return out;
}

/** Whether a kafkajs header value says `fleet-batch: 1`. */
export function isEnvelopeVersion(header: Buffer | string | (Buffer | string)[]): boolean {
  if (Array.isArray(header)) return header.length === 1 && isEnvelopeVersion(header[0]!);
  return header.toString() === ENVELOPE_VERSION;
}

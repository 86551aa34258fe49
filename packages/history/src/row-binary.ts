/**
 * Reads ClickHouse's RowBinary output: each row's values in column order, little-endian
 * numbers, strings as a LEB128 length and their bytes. Values are read in place, so a string
 * can stay bytes (a range of `bytes`) until someone needs it as text.
 */
export class RowBinaryReader {
  private readonly view: DataView;
  private readonly buffer: Buffer;
  /** Where each text looked for with `holds` occurs in `bytes`, in order: found once for all rows. */
  private readonly occurrences = new Map<string, { length: number; at: number[] }>();
  offset = 0;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done(): boolean {
    return this.offset >= this.bytes.length;
  }

  uint8(): number {
    return this.view.getUint8(this.offset++);
  }

  /** A UInt64 or Int64; ids and epoch ms stay below 2^53, anything else is refused. */
  int64(): number {
    const lo = this.view.getUint32(this.offset, true);
    const hi = this.view.getInt32(this.offset + 4, true);
    this.offset += 8;
    const n = hi * 2 ** 32 + lo;
    if (!Number.isSafeInteger(n)) throw new RangeError(`64-bit value outside the safe integer range at byte ${this.offset - 8}`);
    return n;
  }

  float64(): number {
    const v = this.view.getFloat64(this.offset, true);
    this.offset += 8;
    return v;
  }

  /** A String's bytes as [start, end) of `bytes`. */
  stringRange(): [number, number] {
    let length = 0;
    let shift = 0;
    for (;;) {
      const b = this.view.getUint8(this.offset++);
      length += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    const start = this.offset;
    this.offset += length;
    if (this.offset > this.bytes.length) throw new RangeError(`string past the end of the RowBinary data at byte ${start}`);
    return [start, this.offset];
  }

  /** Passes over a String; returns where it starts (its length), to read later with `stringAt`. */
  skipString(): number {
    const at = this.offset;
    this.stringRange();
    return at;
  }

  /** The String that starts at `at`, read without moving on. */
  stringAt(at: number): string {
    const offset = this.offset;
    this.offset = at;
    try {
      return this.string();
    } finally {
      this.offset = offset;
    }
  }

  /**
   * Whether the String that starts at `at` holds `text`, found in the bytes without decoding
   * the String: the whole answer is searched once per text, then each call is a binary search.
   */
  holds(at: number, text: string): boolean {
    let found = this.occurrences.get(text);
    if (!found) {
      const needle = Buffer.from(text);
      found = { length: needle.length, at: [] };
      for (let i = this.buffer.indexOf(needle); i !== -1; i = this.buffer.indexOf(needle, i + 1)) found.at.push(i);
      this.occurrences.set(text, found);
    }
    const { at: all, length } = found;
    if (all.length === 0) return false;
    const offset = this.offset;
    this.offset = at;
    const [start, end] = this.stringRange();
    this.offset = offset;
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (all[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    return lo < all.length && all[lo]! + length <= end;
  }

  string(): string {
    const [start, end] = this.stringRange();
    return this.buffer.toString("utf8", start, end);
  }
}

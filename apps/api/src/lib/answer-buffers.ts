import type { JsonOut } from "./json-write.js";

/**
 * Buffers that large answers are encoded into and reused once sent. On this kind of
 * machine most of what encoding a 14 MB answer costs is the fresh memory's page faults:
 * `Buffer.from` of the whole list took ~30 ms per 8 MB, writing the same string into a
 * buffer used before ~1 ms.
 */
/** Buffers larger than this are let go once used: a month of history (~170 MB) is not kept at rest. */
const MAX_KEPT_BYTES = 64 << 20;

/** The most bytes UTF-8 writes for one character (a surrogate pair). */
const MAX_CHAR_BYTES = 4;

export class AnswerBuffers {
  private readonly free: Buffer[] = [];
  /** Each answer handed out (a view) and the kept buffer under it. */
  private readonly lent = new WeakMap<Buffer, Buffer>();

  constructor(
    /** Answers shorter than this are encoded as usual: small allocations come from warm memory already. */
    private readonly minChars: number,
    /** Most free buffers kept; more answers in flight at once get buffers of their own, later let go. */
    private readonly maxKept: number,
  ) {}

  encode(json: string): Buffer {
    if (json.length < this.minChars) return Buffer.from(json);
    // Written straight into a kept buffer that may hold it (a byte or more per character):
    // Buffer.byteLength reads the whole text first, ~7 ms of a 5 MB history answer. `write`
    // stops only short of room for a character (at most 4 bytes), so an answer that ends more
    // than 4 bytes before the buffer's end is whole; otherwise it is measured and written again.
    const i = this.free.findIndex((b) => b.length >= json.length + MAX_CHAR_BYTES);
    if (i >= 0) {
      const buffer = this.free[i]!;
      const written = buffer.write(json, 0, "utf8");
      if (written < buffer.length - MAX_CHAR_BYTES) {
        this.free.splice(i, 1);
        return this.lend(buffer, written);
      }
    }
    const size = Buffer.byteLength(json);
    const fits = this.free.findIndex((b) => b.length >= size);
    // A quarter to spare, so a list that grows a little still fits the buffer it had.
    const buffer = fits >= 0 ? this.free.splice(fits, 1)[0]! : Buffer.allocUnsafeSlow(Math.ceil(size * 1.25));
    return this.lend(buffer, buffer.write(json, 0, "utf8"));
  }

  /**
   * An answer written in pieces by `write`: text as UTF-8, bytes copied. It starts in the
   * largest free buffer and moves to one twice the size when a piece does not fit, so an
   * answer as large as one before it is written with no allocation at all.
   */
  write(write: (out: JsonOut) => void): Buffer {
    const largest = this.free.reduce((best, b, i) => (b.length > (this.free[best]?.length ?? -1) ? i : best), -1);
    let buffer = largest >= 0 ? this.free.splice(largest, 1)[0]! : Buffer.allocUnsafeSlow(this.minChars);
    let at = 0;
    const room = (bytes: number) => {
      if (buffer.length - at >= bytes) return;
      const bigger = Buffer.allocUnsafeSlow(Math.max(buffer.length * 2, at + bytes));
      // The outgrown buffer is let go: the one the answer ends in is kept in its place.
      buffer.copy(bigger, 0, 0, at);
      buffer = bigger;
    };
    write({
      text(s) {
        // A UTF-16 unit is at most three bytes of UTF-8.
        room(s.length * 3);
        at += buffer.write(s, at);
      },
      bytes(b) {
        room(b.length);
        buffer.set(b, at);
        at += b.length;
      },
    });
    return this.lend(buffer, at);
  }

  private lend(buffer: Buffer, length: number): Buffer {
    const answer = buffer.subarray(0, length);
    this.lent.set(answer, buffer);
    return answer;
  }

  /** Whether `payload` is an answer of these buffers not yet given back. */
  isLent(payload: unknown): payload is Buffer {
    return Buffer.isBuffer(payload) && this.lent.has(payload);
  }

  /** Gives back the buffer under an answer once the answer is written out; it must not be read after. */
  release(answer: Buffer): void {
    const buffer = this.lent.get(answer);
    if (!buffer) return;
    this.lent.delete(answer);
    this.keep(buffer);
  }

  private keep(buffer: Buffer): void {
    if (this.free.length < this.maxKept && buffer.length <= MAX_KEPT_BYTES) this.free.push(buffer);
  }
}
